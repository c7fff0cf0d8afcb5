// The query of the turn-by-turn card (`GET .../navInfo/card.png`, DESIGN §9): one of the sizes
// small screens come in, a round face for watches, the scale, a 1-bit palette for monochrome
// displays, lighting, units and the clock for the arrival time. HTTP and CLI share the parser.

import Foundation
import TripModel

/// How a turn-by-turn card is drawn.
public struct TurnCardOptions: Hashable, Sendable {
    /// The card sizes, in points.
    public enum Size: String, CaseIterable, Hashable, Sendable {
        /// A watch face (square or round).
        case square240 = "240x240"
        /// A landscape display.
        case landscape320 = "320x240"
        /// A portrait display.
        case portrait240 = "240x320"
        /// A small monochrome display (a two-wheeler's OLED).
        case tiny128 = "128x64"

        /// Width in points.
        public var width: Int {
            switch self {
            case .square240, .portrait240: 240
            case .landscape320: 320
            case .tiny128: 128
            }
        }

        /// Height in points.
        public var height: Int {
            switch self {
            case .square240, .landscape320: 240
            case .portrait240: 320
            case .tiny128: 64
            }
        }
    }

    /// The outline of the display.
    public enum Shape: String, CaseIterable, Hashable, Sendable {
        /// The whole rectangle.
        case rect
        /// A circle inscribed in a square card; outside it is black.
        case round
    }

    /// The colours.
    public enum Palette: String, CaseIterable, Hashable, Sendable {
        /// Full colour, day or night.
        case color
        /// Black and white only, encoded as a 1-bit PNG.
        case mono
    }

    /// The size.
    public var size: Size
    /// Rectangular or round.
    package var shape: Shape
    /// Device pixels per point, 1–3.
    public var scale: Int
    /// Colour or monochrome.
    public var palette: Palette
    /// Day or night colours (`auto` follows the navigator).
    public var lighting: NavigationScreenOptions.Lighting
    /// Metric or imperial.
    package var units: NavigationScreenOptions.Units
    /// The clock the arrival time is counted from.
    public var at: Timestamp
    /// The time zone of the arrival time.
    package var timeZone: TimeZone

    /// Options; see the properties.
    package init(
        size: Size = .square240, shape: Shape = .rect, scale: Int = 1, palette: Palette = .color,
        lighting: NavigationScreenOptions.Lighting = .auto, units: NavigationScreenOptions.Units = .metric, at: Timestamp,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current
    ) {
        self.size = size
        self.shape = shape
        self.scale = scale
        self.palette = palette
        self.lighting = lighting
        self.units = units
        self.at = at
        self.timeZone = timeZone
    }

    /// The parameter names ``init(parameters:now:)`` reads.
    package static let parameterNames = ["size", "shape", "scale", "palette", "lighting", "units", "at", "tz"]

    /// Options from textual parameters, each optional: `size` (`240x240`, `320x240`,
    /// `240x320`, `128x64`), `shape` (`rect`, `round`: square cards only), `scale` (1–3),
    /// `palette` (`color`, `mono`), `lighting`, `units`, `at`, `tz` as for navigation.png.
    /// Errors name the parameter.
    public init(parameters: [String: String], now: Timestamp) throws(StatusError) {
        self.init(at: now)
        func choice<T: RawRepresentable & CaseIterable>(_ name: String, _: T.Type) throws(StatusError) -> T?
        where T.RawValue == String {
            guard let value = parameters[name], !value.isEmpty else { return nil }
            guard let chosen = T(rawValue: value) else {
                throw .invalid(name, "'\(value.prefix(32))' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return chosen
        }
        size = try choice("size", Size.self) ?? .square240
        shape = try choice("shape", Shape.self) ?? .rect
        palette = try choice("palette", Palette.self) ?? .color
        lighting = try choice("lighting", NavigationScreenOptions.Lighting.self) ?? .auto
        units = try choice("units", NavigationScreenOptions.Units.self) ?? .metric
        if shape == .round, size.width != size.height {
            throw .invalid("shape", "round needs a square card (size=240x240), not \(size.rawValue)")
        }
        if let value = parameters["scale"], !value.isEmpty {
            guard let number = Int(value), NavigationScreenOptions.scales.contains(number) else {
                throw .invalid("scale", "'\(value.prefix(32))' is not an integer from 1 to 3")
            }
            scale = number
        }
        if let value = parameters["at"], !value.isEmpty {
            guard let time = Timestamp(rfc3339: value) else { throw .invalid("at", "'\(value.prefix(40))' is not an RFC 3339 time") }
            at = time
        }
        if let value = parameters["tz"], !value.isEmpty {
            guard let zone = TimeZone(identifier: value) else {
                throw .invalid("tz", "'\(value.prefix(40))' is not a time zone name such as Europe/Berlin or America/New_York")
            }
            timeZone = zone
        }
    }

    /// A canonical text of every option, equal exactly when the options are equal (ETags).
    package var canonicalText: String {
        canonicalTextWithoutClock + ";at=\(at.microseconds)"
    }

    /// ``canonicalText`` but the clock, which decides only the arrival time drawn (see
    /// ``NavigationScreenOptions``).
    package var canonicalTextWithoutClock: String {
        "\(size.rawValue)@\(scale);s=\(shape.rawValue);p=\(palette.rawValue);l=\(lighting.rawValue);u=\(units.rawValue);"
            + "tz=\(timeZone.identifier)"
    }
}
