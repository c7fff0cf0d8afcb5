// The driver's screen of DESIGN §9 (`navigation.png`), drawn on the server the way the
// Navigation SDK draws it on a phone: a pure function of the navigator's NavInfo, the route
// (with its alternates and road features), the traffic along it, the vehicle, the vehicle's
// navigation UI settings, the navigator's speed-alert thresholds and the query. The same
// inputs give the same pixels; the clock is an input (`options.at`), never read.
//
// Drawing order: the map (an underlay such as the basemap, else the style's plain
// background), alternates, the remaining route in traffic colours (the travelled part is not
// drawn), traffic lights and stop signs ahead, destination markers, the vehicle, then the
// screen's own elements: trip progress bar, speedometer, buttons, header, footer.

import Basemap
import Foundation
import Geo
import Navigation
import Raster
import Styling
import TripModel

/// What the vehicle reports about itself.
public struct VehiclePosition: Hashable, Sendable {
    /// Where it is (the road-snapped location, when there is one).
    public var location: LatLng
    /// Its heading, degrees clockwise from north, if known.
    public var heading: Double?
    /// Its speed, m/s, if known.
    public var speedMetersPerSecond: Double?

    /// A vehicle state from its parts.
    public init(location: LatLng, heading: Double? = nil, speedMetersPerSecond: Double? = nil) {
        self.location = location
        self.heading = heading
        self.speedMetersPerSecond = speedMetersPerSecond
    }
}

/// Speeding more than these over the limit shows the speedometer's minor or major alert
/// colours (the navigator's `minorSpeedAlertThresholdKph` / `majorSpeedAlertThresholdKph`).
public struct SpeedAlertThresholds: Hashable, Sendable {
    /// km/h over the limit for a minor alert.
    package var minorKph: Double
    /// km/h over the limit for a major alert.
    package var majorKph: Double

    /// Thresholds from their parts.
    package init(minorKph: Double, majorKph: Double) {
        self.minorKph = minorKph
        self.majorKph = majorKph
    }

    /// The thresholds a navigator uses.
    public init(_ settings: NavigatorSettings) {
        self.init(minorKph: settings.minorSpeedAlertThresholdKph, majorKph: settings.majorSpeedAlertThresholdKph)
    }

    /// The alert for a speed against a limit (km/h): `none` at or below the minor threshold.
    package func severity(speedKph: Double, limitKph: Double) -> SpeedAlertSeverity {
        let over = speedKph - limitKph
        if over > majorKph { return .major }
        if over > minorKph { return .minor }
        return .none
    }
}

/// A drawn navigation screen: the image, its layout and where text was drawn.
public struct NavigationFrame: Sendable {
    /// The picture.
    public var image: Image
    /// Every rectangle drawn, by name.
    package var layout: NavigationLayout
    /// Device-pixel boxes whose pixels FreeType decides (for golden comparisons).
    package var textBoxes: [Rect]
    /// The boxes of the basemap's labels drawn, device pixels (for tests that they keep clear
    /// of the route and markers).
    package var labelBoxes: [Rect] = []
    /// What the screen drew over the map that labels keep clear of, device pixels.
    package var mapObstacles: [LabelObstacle] = []
    /// The map's attribution plate, device pixels; nil without one.
    public var attributionBox: Rect?

    /// The picture as PNG bytes (RGB: the screen is opaque).
    public func png(options: PNGEncodingOptions = .default) throws(RasterError) -> [UInt8] {
        try PNGCodec.encode(image, options: options)
    }
}

/// Everything that decides a navigation screen's pixels.
public struct NavigationScreen: Sendable {
    /// The navigator's latest NavInfo.
    public var navInfo: NavInfo
    /// The route being driven, prepared; nil when there is none.
    public var route: NavigationRouteGeometry?
    /// Traffic along the route; nil estimates it from the route's durations (no data when
    /// the route lacks free-flow durations).
    public var traffic: RouteTraffic?
    /// The vehicle; nil places it on the route where the NavInfo says it is.
    public var vehicle: VehiclePosition?
    /// True while the latest news is the arrival at the final destination.
    package var arrived: Bool
    /// What the header says at a stop (arrived, waiting for the rider, trip complete); nil
    /// while driving. An arrival at the final destination without it says "You have arrived".
    package var stop: DriverStop?
    /// The vehicle's navigation UI settings.
    public var settings: NavigationUISettings
    /// The navigator's speed-alert thresholds.
    package var speedAlertThresholds: SpeedAlertThresholds
    /// The style whose map background is drawn where there is no underlay.
    public var style: StyleSheet
    /// Size, camera, lighting, clock and units.
    public var options: NavigationScreenOptions
    /// The map under everything (the basemap); nil draws the style's plain background.
    public var underlay: (any MapUnderlay)?

    /// A screen from its inputs.
    public init(
        navInfo: NavInfo, route: NavigationRouteGeometry?, traffic: RouteTraffic? = nil, vehicle: VehiclePosition?,
        arrived: Bool = false, stop: DriverStop? = nil, settings: NavigationUISettings = NavigationUISettings(),
        speedAlertThresholds: SpeedAlertThresholds = SpeedAlertThresholds(NavigatorSettings()),
        style: StyleSheet, options: NavigationScreenOptions, underlay: (any MapUnderlay)? = nil
    ) {
        self.navInfo = navInfo
        self.route = route
        self.traffic = traffic
        self.vehicle = vehicle
        self.arrived = arrived
        self.stop = stop
        self.settings = settings
        self.speedAlertThresholds = speedAlertThresholds
        self.style = style
        self.options = options
        self.underlay = underlay
    }

    /// The lighting drawn: the navigator's suggestion for `auto`.
    public var lighting: LightingMode {
        switch options.lighting {
        case .auto: navInfo.suggestedLightingMode
        case .normal: .normal
        case .lowLight: .lowLight
        }
    }

    /// Every rectangle the screen draws, without drawing it (`navigation/layout.json`).
    package func layout() throws(RasterError) -> NavigationLayout {
        try plan().layout
    }

    /// Draws the screen.
    public func render() throws(RasterError) -> NavigationFrame {
        let plan = try plan()
        let night = lighting == .lowLight
        let palette = NavigationPalette.of(night: night)
        var canvas = Canvas(
            width: options.pixelWidth, height: options.pixelHeight,
            background: night ? style.map.nightBackground : style.map.background)
        let marks = mapMarks(plan, palette: palette)
        var labelBoxes: [Rect] = []
        if let underlay { labelBoxes = try drawUnderlay(underlay, plan: plan, marks: marks, palette: palette, night: night, on: &canvas) }
        var painter = ScreenPainter(canvas: canvas, scale: Double(options.scale))
        try drawMap(plan, marks: marks, palette: palette, on: &painter)
        var attributionBox: Rect?
        if let underlay {
            let area = attributionArea(plan, underlay: underlay)
            underlay.drawAttribution(on: &painter.canvas, camera: plan.camera, visibleArea: area, lighting: lighting)
            attributionBox = underlay.attributionBox(camera: plan.camera, visibleArea: area, lighting: lighting)
        }
        try drawPanels(plan, palette: palette, night: night, on: &painter)
        return NavigationFrame(
            image: painter.canvas.image, layout: plan.layout, textBoxes: painter.textBoxes, labelBoxes: labelBoxes,
            mapObstacles: marks.obstacles(scale: Double(options.scale)), attributionBox: attributionBox)
    }

    /// The screen as PNG bytes.
    public func png(options encoding: PNGEncodingOptions = .default) throws(RasterError) -> [UInt8] {
        try render().png(options: encoding)
    }

    // MARK: - What is shown

    /// Metres along the route to where the vehicle is, nil without a route or while stopped
    /// (the route's end once arrived).
    var progressMeters: Double? {
        guard let route else { return nil }
        if arrived { return route.totalMeters }
        guard navInfo.navState != .stopped else { return nil }
        return min(route.totalMeters, max(0, route.totalMeters - navInfo.distanceToFinalDestinationMeters))
    }

    /// The vehicle's location in world pixels, if known.
    var vehicleWorld: WorldPoint? {
        if let vehicle { return WebMercator.worldPoint(vehicle.location, zoom: 0) }
        guard let route, let progress = progressMeters else { return nil }
        return route.world(atMeters: progress)
    }

    /// The vehicle's heading: reported, else the route's direction where it is.
    var vehicleHeading: Double? {
        if let heading = vehicle?.heading, heading.isFinite { return heading }
        guard let route, let progress = progressMeters else { return nil }
        return route.bearing(atMeters: progress)
    }

    /// The vehicle's speed: reported, else the NavInfo's.
    var speedMetersPerSecond: Double? {
        let speed = vehicle?.speedMetersPerSecond ?? navInfo.currentSpeedMetersPerSecond
        return speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// True while guiding (enroute or rerouting).
    var isGuiding: Bool { navInfo.navState != .stopped }
}
