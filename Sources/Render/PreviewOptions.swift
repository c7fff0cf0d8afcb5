// What a preview shows and how big it is (DESIGN §7): size at scale 1, scale, an explicit
// camera (centre and/or zoom) or one fitted to the content, bearing, padding and lighting.
// The HTTP query and `tripshare render` flags share one parser, so both accept and refuse
// exactly the same values with the same messages.

import Foundation
import Geo
import Navigation
import TripModel

/// The camera, size and lighting of a trip preview.
public struct PreviewOptions: Hashable, Sendable {
    /// Width in pixels at scale 1.
    public var width: Int
    /// Height in pixels at scale 1.
    public var height: Int
    /// Multiplies every length: the image is `width·scale` × `height·scale` pixels.
    public var scale: Int
    /// The camera centre; fitted to the content when nil.
    public var center: LatLng?
    /// The zoom (fractional allowed); fitted to the content when nil.
    public var zoom: Double?
    /// The compass direction at the top of the image, degrees clockwise from north.
    package var bearing: Double
    /// Pixels (at scale 1) kept free around the content when fitting.
    package var padding: Double
    /// Day or night colours.
    public var lighting: LightingMode

    /// Default size (Static Maps' usual preview).
    public static let defaultWidth = 640
    /// Default height.
    public static let defaultHeight = 480
    /// The largest image side after scaling.
    public static let maximumPixels = 2048
    /// Default fitting padding.
    public static let defaultPadding = 48.0
    /// Zoom levels accepted.
    package static let zoomRange = 0.0...22.0

    /// Options; see the properties for meanings. Values are taken as given (the parser
    /// validates); the camera clamps what it must.
    public init(
        width: Int = defaultWidth, height: Int = defaultHeight, scale: Int = 1, center: LatLng? = nil,
        zoom: Double? = nil, bearing: Double = 0, padding: Double = defaultPadding, lighting: LightingMode = .normal
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.center = center
        self.zoom = zoom
        self.bearing = bearing
        self.padding = padding
        self.lighting = lighting
    }

    /// Image width in pixels (after scaling).
    package var pixelWidth: Int { width * scale }
    /// Image height in pixels (after scaling).
    package var pixelHeight: Int { height * scale }

    /// The parameter names ``init(parameters:)`` reads.
    package static let parameterNames = ["width", "height", "scale", "center", "zoom", "bearing", "padding", "lighting"]

    /// Options from textual parameters (an HTTP query or CLI flags), each optional:
    /// `width`, `height` (1–2048 after scaling), `scale` (1–4), `center` (`LAT,LNG`),
    /// `zoom` (0–22), `bearing` (degrees), `padding` (px, less than half the smaller side),
    /// `lighting` (`normal` or `lowLight`, also `day`/`night`). Errors name the parameter.
    public init(parameters: [String: String]) throws(StatusError) {
        self.init()
        func number(_ name: String, _ range: ClosedRange<Double>) throws(StatusError) -> Double? {
            guard let text = parameters[name], !text.isEmpty else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw .invalid(name, "'\(text.prefix(32))' is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(StatusError) -> Int? {
            guard let text = parameters[name], !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .invalid(name, "'\(text.prefix(32))' is not an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        scale = try integer("scale", 1...4) ?? 1
        width = try integer("width", 1...Self.maximumPixels) ?? Self.defaultWidth
        height = try integer("height", 1...Self.maximumPixels) ?? Self.defaultHeight
        for (name, side) in [("width", width), ("height", height)] where side * scale > Self.maximumPixels {
            throw .invalid(name, "\(side) at scale \(scale) is \(side * scale) pixels; at most \(Self.maximumPixels) are drawn")
        }
        if let text = parameters["center"], !text.isEmpty {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                let lng = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                LatLng(latitude: lat, longitude: lng).isValid, abs(lat) <= WebMercator.maxLatitude
            else {
                throw .invalid("center", "'\(text.prefix(64))' is not LAT,LNG in degrees (|LAT| ≤ \(WebMercator.maxLatitude))")
            }
            center = LatLng(latitude: lat, longitude: lng)
        }
        zoom = try number("zoom", Self.zoomRange)
        bearing = try number("bearing", -360...360) ?? 0
        padding = try number("padding", 0...max(0, Double(min(width, height)) / 2 - 1)) ?? min(Self.defaultPadding, Double(min(width, height)) / 4)
        if let text = parameters["lighting"], !text.isEmpty {
            switch text {
            case "normal", "day": lighting = .normal
            case "lowLight", "night": lighting = .lowLight
            default: throw .invalid("lighting", "'\(text.prefix(32))' is not normal or lowLight")
            }
        }
    }

    /// A canonical text of every option, equal exactly when the options are equal (ETags).
    package var canonicalText: String {
        let centre = center.map { "\($0.latitude),\($0.longitude)" } ?? "fit"
        let zoomText = zoom.map { "\($0)" } ?? "fit"
        return "\(width)x\(height)@\(scale);c=\(centre);z=\(zoomText);b=\(bearing);p=\(padding);l=\(lighting.rawValue)"
    }
}
