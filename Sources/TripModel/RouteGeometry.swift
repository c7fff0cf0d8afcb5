import Geo

/// Decoding of route polylines as clients send them: Google encoded polylines (precision 5)
/// or Fleet Engine's base64 S2 encoding, which recorded Driver SDK traffic carries.
public enum RouteGeometry {
    /// The two formats a route string may come in.
    package enum Format: Sendable { case google, s2 }

    /// Decodes a route string, deciding its format: an S2 encoding is base64 of a buffer
    /// whose first byte is the format version (1 or 2), so it starts with "A" and decodes
    /// as a consistent S2 buffer; anything else is read as a Google polyline. Checks the
    /// bounds of ``Limits`` and every coordinate; `path` names the field in errors.
    package static func decodeWithFormat(_ text: String, path: String) throws(StatusError) -> (points: [LatLng], format: Format) {
        if text.isEmpty { throw .invalid(path, "must not be empty") }
        if text.utf8.count > Limits.maximumEncodedPolylineLength {
            throw .invalid(path, "is \(text.utf8.count) characters long; at most \(Limits.maximumEncodedPolylineLength) are allowed")
        }
        let points: [LatLng]
        let format: Format
        if text.utf8.first == UInt8(ascii: "A"), let s2 = try? S2Polyline.decode(base64: text) {
            points = s2
            format = .s2
        } else {
            do {
                points = try EncodedPolyline.decode(text)
                format = .google
            } catch {
                throw .invalid(path, "is neither a Google encoded polyline nor an S2 polyline (\(error))")
            }
        }
        if points.count > Limits.maximumPolylinePoints {
            throw .invalid(path, "has \(points.count) points; at most \(Limits.maximumPolylinePoints) are allowed")
        }
        for (i, point) in points.enumerated() where !point.isValid {
            throw .invalid("\(path)[\(i)]", "decodes to \(point), outside the valid coordinate range")
        }
        return (points, format)
    }

    /// Decodes a route string in either format (see ``decodeWithFormat(_:path:)``).
    public static func decode(_ text: String, path: String) throws(StatusError) -> [LatLng] {
        try decodeWithFormat(text, path: path).points
    }

    /// The route as a Google encoded polyline, precision 5: Google input is kept as sent,
    /// S2 input is re-encoded.
    package static func normalized(_ text: String, path: String) throws(StatusError) -> String {
        let (points, format) = try decodeWithFormat(text, path: path)
        return format == .google ? text : EncodedPolyline.encode(points)
    }
}
