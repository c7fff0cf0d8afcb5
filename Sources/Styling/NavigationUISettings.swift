// The driver's-screen settings of DESIGN §9, named after the Navigation SDK's `GMSUISettings`
// and the navigation properties of its map view. A complete value: every setting has a value
// in effect, and its default is what `init()` gives. Styling holds it because it is colours
// and switches, like a style sheet: Render draws with it and Fleet stores and serves it, and
// both may import Styling, while Navigation (which knows no colours) may not import Raster.
// The speed-alert thresholds are not here: they are the navigator's (NavigatorSettings).

import Raster

/// What the navigation screen shows and in which colours, per vehicle.
public struct NavigationUISettings: Hashable, Sendable {
    /// Whether the header (next maneuver, distance, road) is drawn.
    package var navigationHeaderEnabled = true
    /// Whether the footer (time, distance and arrival time to the destination) is drawn.
    package var navigationFooterEnabled = true
    /// The header's main row by day.
    package var navigationHeaderPrimaryBackgroundColor = Self.defaultPrimaryBackground
    /// The header's second row (lanes, the step after next, the accessory) by day.
    package var navigationHeaderSecondaryBackgroundColor = Self.defaultSecondaryBackground
    /// The header's main row at night; nil follows the day colour.
    package var navigationHeaderPrimaryBackgroundColorNightMode: Color?
    /// The header's second row at night; nil follows the day colour.
    package var navigationHeaderSecondaryBackgroundColorNightMode: Color?
    /// The maneuver icon in the header's main row.
    package var navigationHeaderLargeManeuverIconColor = Color.white
    /// The maneuver icon of the step after next, in the second row.
    package var navigationHeaderSmallManeuverIconColor = Color.white
    /// Lane arrows that follow the route; the others are drawn in the same colour, faded.
    package var navigationHeaderGuidanceRecommendedLaneColor = Color.white
    /// The text of the second row ("Then", the accessory's lines).
    package var navigationHeaderNextStepTextColor = Color.white
    /// The number of the distance to the maneuver.
    package var navigationHeaderDistanceValueTextColor = Color.white
    /// The unit of the distance to the maneuver.
    package var navigationHeaderDistanceUnitsTextColor = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 0xCC)
    /// The road name or instruction.
    package var navigationHeaderInstructionsTextColor = Color.white
    /// The compass button (shown while the map is turned away from north, or following).
    public var compassButton = false
    /// The my-location button.
    public var myLocationButton = false
    /// The recenter button (shown while the camera does not follow the vehicle).
    package var recenterButtonEnabled = true
    /// The trip progress bar on the leading side.
    public var navigationTripProgressBarEnabled = false
    /// Traffic lights ahead on the route (the next three).
    package var showsTrafficLights = false
    /// Stop signs ahead on the route (the next three).
    package var showsStopSigns = false
    /// The speedometer: the speed limit and the current speed.
    public var shouldDisplaySpeedometer = false
    /// The speedometer's alert colours.
    package var speedometerUIOptions = SpeedometerUIOptions()
    /// Markers at the route's destinations.
    package var showsDestinationMarkers = true
    /// Which alternate routes are drawn.
    package var alternateRoutesStrategy = AlternateRoutesStrategy.all
    /// Lines of text shown in place of the header's second row; empty for none.
    package var headerAccessory: [String] = []
    /// Whether the driver page lets the driver pan the map.
    package var scrollGestures = true
    /// Whether the driver page lets the driver zoom.
    package var zoomGestures = true
    /// Whether the driver page lets the driver tilt the map.
    package var tiltGestures = true
    /// Whether the driver page lets the driver turn the map.
    package var rotateGestures = true

    /// The default header green by day (main row).
    package static let defaultPrimaryBackground = Color(red: 0x18, green: 0x80, blue: 0x38)
    /// The default header green by day (second row), darker.
    package static let defaultSecondaryBackground = Color(red: 0x0D, green: 0x65, blue: 0x2D)
    /// Most lines in `headerAccessory`.
    package static let maximumAccessoryLines = 3
    /// Longest `headerAccessory` line, in characters.
    package static let maximumAccessoryLineLength = 80

    /// The defaults.
    public init() {}

    /// The header's main row colour for day (`night` false) or night; the night colour falls
    /// back to the day one when it is not set.
    package func headerPrimaryBackgroundColor(night: Bool) -> Color {
        night
            ? navigationHeaderPrimaryBackgroundColorNightMode ?? navigationHeaderPrimaryBackgroundColor
            : navigationHeaderPrimaryBackgroundColor
    }

    /// The header's second row colour for day or night, with the same fallback.
    package func headerSecondaryBackgroundColor(night: Bool) -> Color {
        night
            ? navigationHeaderSecondaryBackgroundColorNightMode ?? navigationHeaderSecondaryBackgroundColor
            : navigationHeaderSecondaryBackgroundColor
    }
}

/// Which alternate routes the screen draws (DESIGN §9's `alternateRoutesStrategy`).
package enum AlternateRoutesStrategy: String, CaseIterable, Hashable, Sendable {
    /// Up to two.
    case all
    /// The first only.
    case one
    /// None.
    case none

    /// How many alternates this strategy draws at most.
    package var maximumShown: Int {
        switch self {
        case .all: 2
        case .one: 1
        case .none: 0
        }
    }
}

/// The speedometer's colours when the driver is speeding (the SDK's
/// `GMSNavigationSpeedometerUIOptions`): text and background for minor and major alerts, by
/// day and at night. Below the minor threshold the speedometer keeps its plain colours.
package struct SpeedometerUIOptions: Hashable, Sendable {
    /// Speed text in a minor alert, by day.
    package var minorSpeedAlertTextColor = Color(red: 0x20, green: 0x21, blue: 0x24)
    /// Speed background in a minor alert, by day.
    package var minorSpeedAlertBackgroundColor = Color(red: 0xF9, green: 0xAB, blue: 0x00)
    /// Speed text in a major alert, by day.
    package var majorSpeedAlertTextColor = Color.white
    /// Speed background in a major alert, by day.
    package var majorSpeedAlertBackgroundColor = Color(red: 0xD9, green: 0x30, blue: 0x25)
    /// Speed text in a minor alert, at night.
    package var minorSpeedAlertTextColorNightMode = Color(red: 0x20, green: 0x21, blue: 0x24)
    /// Speed background in a minor alert, at night.
    package var minorSpeedAlertBackgroundColorNightMode = Color(red: 0xFD, green: 0xD6, blue: 0x63)
    /// Speed text in a major alert, at night.
    package var majorSpeedAlertTextColorNightMode = Color.white
    /// Speed background in a major alert, at night.
    package var majorSpeedAlertBackgroundColorNightMode = Color(red: 0xC5, green: 0x22, blue: 0x1F)

    /// The defaults.
    package init() {}

    /// Text and background for a `major` (else minor) alert, by day or at night.
    package func colors(major: Bool, night: Bool) -> (text: Color, background: Color) {
        switch (major, night) {
        case (false, false): (minorSpeedAlertTextColor, minorSpeedAlertBackgroundColor)
        case (true, false): (majorSpeedAlertTextColor, majorSpeedAlertBackgroundColor)
        case (false, true): (minorSpeedAlertTextColorNightMode, minorSpeedAlertBackgroundColorNightMode)
        case (true, true): (majorSpeedAlertTextColorNightMode, majorSpeedAlertBackgroundColorNightMode)
        }
    }
}
