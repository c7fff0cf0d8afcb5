// The query of `navigation.png` and `navigation/layout.json` (DESIGN §9): the screen's size in
// points and its scale, the camera, the perspective, the lighting, the clock and time zone for
// the arrival time, and the units. The HTTP query and `tripshare navigate --frames` share one
// parser, so both accept and refuse the same values with the same messages.

import Foundation
import Geo
import TripModel

/// How the navigation screen is drawn: size, camera, lighting, clock and units.
public struct NavigationScreenOptions: Hashable, Sendable {
    /// Where the camera looks.
    public enum CameraMode: Hashable, Sendable {
        /// Behind the vehicle, moving with it (the driving view).
        case following
        /// Where the driver panned to: a centre (the vehicle's location when nil), a zoom
        /// (16 when nil) and a bearing.
        case free(center: LatLng?, zoom: Double?, bearing: Double)
        /// The rest of the route, north up.
        case overview

        /// The query's name of the mode.
        public var name: String {
            switch self {
            case .following: "following"
            case .free: "free"
            case .overview: "overview"
            }
        }
    }

    /// Which way up the following camera turns the map.
    public enum Perspective: String, CaseIterable, Hashable, Sendable {
        /// The direction of travel is up.
        case topDownHeadingUp
        /// North is up.
        case topDownNorthUp
    }

    /// The colour scheme to draw in.
    public enum Lighting: String, CaseIterable, Hashable, Sendable {
        /// As the navigator suggests for the sun at the vehicle.
        case auto
        /// Day colours.
        case normal
        /// Night colours.
        case lowLight
    }

    /// How distances and speeds are written.
    public enum Units: String, CaseIterable, Hashable, Sendable {
        /// Metres, kilometres, km/h; a 24-hour clock.
        case metric
        /// Feet, miles, mph; a 12-hour clock.
        case imperial
    }

    /// Width in points.
    public var width: Int
    /// Height in points.
    public var height: Int
    /// Device pixels per point, 1–3.
    public var scale: Int
    /// The camera.
    public var camera: CameraMode
    /// Heading up or north up (following camera).
    package var perspective: Perspective
    /// The colour scheme.
    public var lighting: Lighting
    /// The clock the arrival time is counted from.
    public var at: Timestamp
    /// The time zone the arrival time is written in.
    package var timeZone: TimeZone
    /// Metric or imperial.
    package var units: Units

    /// The default size: a 6.1-inch phone held upright.
    public static let defaultWidth = 390
    /// The default height.
    public static let defaultHeight = 844
    /// The scales accepted.
    package static let scales = 1...3
    /// The largest image side in device pixels (a phone at scale 3 fits).
    public static let maximumPixels = 2560
    /// The smallest side in points that has room for a header and a footer.
    package static let minimumPoints = 120
    /// The zooms a free camera accepts.
    package static let zoomRange = 0.0...22.0

    /// Options; see the properties. Values are taken as given (the parser validates).
    package init(
        width: Int = defaultWidth, height: Int = defaultHeight, scale: Int = 1, camera: CameraMode = .following,
        perspective: Perspective = .topDownHeadingUp, lighting: Lighting = .auto, at: Timestamp,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, units: Units = .metric
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.camera = camera
        self.perspective = perspective
        self.lighting = lighting
        self.at = at
        self.timeZone = timeZone
        self.units = units
    }

    /// Image width in device pixels.
    package var pixelWidth: Int { width * scale }
    /// Image height in device pixels.
    package var pixelHeight: Int { height * scale }
    /// Wider than tall: the header and footer move to a column on the leading side.
    package var isLandscape: Bool { width > height }

    /// The parameter names ``init(parameters:now:)`` reads.
    package static let parameterNames = [
        "width", "height", "scale", "camera", "center", "zoom", "bearing", "perspective", "lighting", "at", "tz", "units",
    ]

    /// Options from textual parameters (an HTTP query, CLI flags), each optional: `width`,
    /// `height` (points, 120 up to 2560 pixels after scaling), `scale` (1–3), `camera`
    /// (`following`, `free`, `overview`), with `free` also `center` (`LAT,LNG`), `zoom`
    /// (0–22) and `bearing` (degrees), `perspective`, `lighting` (`auto`, `normal`,
    /// `lowLight`), `at` (RFC 3339; default `now`), `tz` (an IANA zone such as
    /// `Europe/Berlin`; default UTC), `units` (`metric`, `imperial`). Errors name the parameter.
    public init(parameters: [String: String], now: Timestamp) throws(StatusError) {
        self.init(at: now)
        func text(_ name: String) -> String? {
            guard let value = parameters[name], !value.isEmpty else { return nil }
            return value
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(StatusError) -> Int? {
            guard let value = text(name) else { return nil }
            guard let number = Int(value), range.contains(number) else {
                throw .invalid(name, "'\(value.prefix(32))' is not an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        func number(_ name: String, _ range: ClosedRange<Double>) throws(StatusError) -> Double? {
            guard let value = text(name) else { return nil }
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                throw .invalid(name, "'\(value.prefix(32))' is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        func choice<T: RawRepresentable & CaseIterable>(_ name: String, _: T.Type) throws(StatusError) -> T?
        where T.RawValue == String {
            guard let value = text(name) else { return nil }
            guard let chosen = T(rawValue: value) else {
                let names = T.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid(name, "'\(value.prefix(32))' is not one of \(names)")
            }
            return chosen
        }
        scale = try integer("scale", Self.scales) ?? 1
        let largest = Self.maximumPixels / scale
        width = try integer("width", Self.minimumPoints...Self.maximumPixels) ?? Self.defaultWidth
        height = try integer("height", Self.minimumPoints...Self.maximumPixels) ?? Self.defaultHeight
        for (name, side) in [("width", width), ("height", height)] where side > largest {
            throw .invalid(name, "\(side) points at scale \(scale) is \(side * scale) pixels; at most \(Self.maximumPixels) are drawn")
        }
        perspective = try choice("perspective", Perspective.self) ?? .topDownHeadingUp
        lighting = try choice("lighting", Lighting.self) ?? .auto
        units = try choice("units", Units.self) ?? .metric
        if let value = text("at") {
            guard let time = Timestamp(rfc3339: value) else { throw .invalid("at", "'\(value.prefix(40))' is not an RFC 3339 time") }
            at = time
        }
        if let value = text("tz") {
            guard let zone = TimeZone(identifier: value) else {
                throw .invalid("tz", "'\(value.prefix(40))' is not a time zone name such as Europe/Berlin or America/New_York")
            }
            timeZone = zone
        }
        let freeOnly = ["center", "zoom", "bearing"].filter { text($0) != nil }
        switch text("camera") ?? "following" {
        case "following": camera = .following
        case "overview": camera = .overview
        case "free":
            var center: LatLng?
            if let value = text("center") {
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                    let lng = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                    LatLng(latitude: lat, longitude: lng).isValid, abs(lat) <= WebMercator.maxLatitude
                else {
                    throw .invalid("center", "'\(value.prefix(64))' is not LAT,LNG in degrees (|LAT| ≤ \(WebMercator.maxLatitude))")
                }
                center = LatLng(latitude: lat, longitude: lng)
            }
            camera = .free(center: center, zoom: try number("zoom", Self.zoomRange), bearing: try number("bearing", -360...360) ?? 0)
        case let other:
            throw .invalid("camera", "'\(other.prefix(32))' is not one of following, free, overview")
        }
        if camera.name != "free", let name = freeOnly.first {
            throw .invalid(name, "applies to camera=free only")
        }
    }

    /// A canonical text of every option, equal exactly when the options are equal (ETags).
    package var canonicalText: String {
        canonicalTextWithoutClock + ";at=\(at.microseconds)"
    }

    /// ``canonicalText`` but the clock, which decides only the arrival time drawn: digests add
    /// that time as drawn instead, so a screen keeps its ETag while the minute shown stays.
    package var canonicalTextWithoutClock: String {
        var cameraText = camera.name
        if case .free(let center, let zoom, let bearing) = camera {
            cameraText += ":\(center.map { "\($0.latitude),\($0.longitude)" } ?? "vehicle"):\(zoom.map { "\($0)" } ?? "-"):\(bearing)"
        }
        return "\(width)x\(height)@\(scale);c=\(cameraText);p=\(perspective.rawValue);l=\(lighting.rawValue);"
            + "tz=\(timeZone.identifier);u=\(units.rawValue)"
    }
}
