// A point on the WGS 84 ellipsoid, in degrees, as Fleet Engine's `LatLng`.

/// A latitude/longitude pair in degrees, coded as `{"latitude": .., "longitude": ..}`.
public struct LatLng: Hashable, Sendable, Codable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Creates a point from degrees; the values are stored as given (see ``isValid``).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey { case latitude, longitude }

    /// Decodes a point; a missing coordinate is 0, as proto3 JSON omits zeros
    /// (`{"latitude": 37.4}` is on the prime meridian).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latitude = try c.decodeIfPresent(Double.self, forKey: .latitude) ?? 0
        longitude = try c.decodeIfPresent(Double.self, forKey: .longitude) ?? 0
    }

    /// True when both values are finite and inside their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }
}

extension LatLng: CustomStringConvertible {
    /// "(latitude, longitude)" in degrees.
    public var description: String { "(\(latitude), \(longitude))" }
}
