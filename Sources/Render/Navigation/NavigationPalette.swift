// The colours of the navigation screen's own chrome and map overlays, by day and at night,
// after the Navigation SDK's look: a blue route in traffic colours, grey alternates, a white
// (by day) or near-black (at night) footer and buttons. What a vehicle may change is in
// NavigationUISettings; the map's background comes from the style sheet.

import Raster
import Styling

/// Colours for one lighting mode.
struct NavigationPalette: Sendable {
    var route: TrafficColors
    var travelledRoute: Color
    var alternate: Color
    var alternateCasing: Color
    var panel: Color
    var panelText: Color
    var panelSecondaryText: Color
    var panelOutline: Color
    var accent: Color
    var delay: (light: Color, medium: Color, heavy: Color)

    static let day = NavigationPalette(
        route: TrafficColors(noData: .rgb(0x1A73E8), normal: .rgb(0x1A73E8), slow: .rgb(0xF29900), trafficJam: .rgb(0xD93025)),
        travelledRoute: .rgb(0x9AA0A6), alternate: .rgb(0xA8C7FA), alternateCasing: .rgb(0x5F8BD0),
        panel: .white, panelText: .rgb(0x202124), panelSecondaryText: .rgb(0x5F6368), panelOutline: .rgb(0x000000, alpha: 0x30),
        accent: .rgb(0x1A73E8), delay: (.rgb(0x188038), .rgb(0xE37400), .rgb(0xD93025)))

    static let night = NavigationPalette(
        route: TrafficColors(noData: .rgb(0x8AB4F8), normal: .rgb(0x8AB4F8), slow: .rgb(0xFDD663), trafficJam: .rgb(0xF28B82)),
        travelledRoute: .rgb(0x5F6368), alternate: .rgb(0x4A5A73), alternateCasing: .rgb(0x2C3A50),
        panel: .rgb(0x202124), panelText: .rgb(0xE8EAED), panelSecondaryText: .rgb(0x9AA0A6), panelOutline: .rgb(0x000000, alpha: 0x80),
        accent: .rgb(0x8AB4F8), delay: (.rgb(0x81C995), .rgb(0xFDD663), .rgb(0xF28B82)))

    static func of(night: Bool) -> NavigationPalette { night ? .night : .day }
}

extension Color {
    /// The colour with its red, green and blue scaled by `factor` (darker below 1).
    func scaled(_ factor: Double) -> Color {
        func channel(_ value: UInt8) -> UInt8 { UInt8(min(255, max(0, (Double(value) * factor).rounded()))) }
        return Color(red: channel(red), green: channel(green), blue: channel(blue), alpha: alpha)
    }
}
