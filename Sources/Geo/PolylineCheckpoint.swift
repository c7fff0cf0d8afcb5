/// Where a point's bytes start in an encoded polyline and its coordinates, scaled and rounded:
/// enough to read the polyline on from that point without the bytes before it.
package struct PolylineCheckpoint: Sendable, Hashable {
    /// The offset of the point's first byte in the polyline's UTF-8.
    package var offset: Int
    /// The point's latitude times the precision's scale.
    package var latitude: Int
    /// The point's longitude times the precision's scale.
    package var longitude: Int

    /// A checkpoint from its parts.
    package init(offset: Int, latitude: Int, longitude: Int) {
        self.offset = offset
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ point: EncodedPolyline.WrittenPoint) {
        self.init(offset: point.offset, latitude: point.latitude, longitude: point.longitude)
    }
}
