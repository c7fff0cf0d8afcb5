// Cutting the end off an encoded polyline without encoding it again (issue 30): the path from
// a vehicle to its next stop is the rest of its route after the vehicle's own position, and a
// route of 20,000 points took a location update most of its time to encode. Google's format
// writes each point as its offset from the point before, so the encoding of points[i...] is
// that of points[i] alone followed by the whole line's bytes from points[i + 1] on; only
// where those bytes start must be found, and a checkpoint every few points makes that a short
// walk.

/// A polyline encoded once (precision 5), from which the encoding of any of its suffixes,
/// after a point of one's own or not, is cut by copying bytes: the same string
/// ``EncodedPolyline/encode(_:precision:)`` gives for those points.
package struct EncodedPolylineSuffixes: Sendable {
    /// Points from one checkpoint to the next.
    package static let checkpointStride = 64

    /// The encoding of the whole line.
    package let encoded: String
    /// How many points the line has.
    package let count: Int
    /// Every ``checkpointStride``-th point, from the first.
    private let checkpoints: [PolylineCheckpoint]

    /// Encodes `points`.
    package init(_ points: [LatLng]) {
        var checkpoints: [PolylineCheckpoint] = []
        checkpoints.reserveCapacity(points.count / Self.checkpointStride + 1)
        let bytes = EncodedPolyline.encodedBytes(points, factor: EncodedPolyline.scale(5)) { point in
            if point.index % Self.checkpointStride == 0 { checkpoints.append(PolylineCheckpoint(point)) }
        }
        self.init(encoded: String(decoding: bytes, as: UTF8.self), count: points.count, checkpoints: checkpoints)
    }

    /// The suffixes of a measured line's encoding, sharing its storage and checkpoints (the
    /// caller knows the encoding is exactly what ``EncodedPolyline/encode(_:precision:)``
    /// writes for its points).
    package init(exactEncodingOf line: MeasuredPolyline) {
        self.init(encoded: line.encoded, count: line.count, checkpoints: line.checkpoints)
    }

    private init(encoded: String, count: Int, checkpoints: [PolylineCheckpoint]) {
        self.encoded = encoded
        self.count = count
        self.checkpoints = checkpoints
    }

    /// The encoding of `lead` (when given) followed by the points from `index` (0 ..< ``count``)
    /// to the end.
    package func encoding(from index: Int, after lead: LatLng? = nil) -> String {
        guard index >= 0, index < count else { return lead.map { EncodedPolyline.encode([$0]) } ?? "" }
        let checkpoint = checkpoints[index / Self.checkpointStride]
        var text = encoded
        return text.withUTF8 { bytes in
            var latitude = checkpoint.latitude
            var longitude = checkpoint.longitude
            var offset = checkpoint.offset
            Self.readValue(bytes, &offset)
            Self.readValue(bytes, &offset)
            // From the checkpoint to the point, adding up the offsets on the way.
            for _ in 0..<(index % Self.checkpointStride) {
                latitude &+= Self.readValue(bytes, &offset)
                longitude &+= Self.readValue(bytes, &offset)
            }
            var out: [UInt8] = []
            out.reserveCapacity(max(0, bytes.count - offset) + 48)
            var previousLat = 0
            var previousLng = 0
            if let lead {
                let factor = EncodedPolyline.scale(5)
                previousLat = EncodedPolyline.roundHalfUp(lead.latitude * factor)
                previousLng = EncodedPolyline.roundHalfUp(lead.longitude * factor)
                EncodedPolyline.appendValue(previousLat, to: &out)
                EncodedPolyline.appendValue(previousLng, to: &out)
            }
            EncodedPolyline.appendValue(latitude &- previousLat, to: &out)
            EncodedPolyline.appendValue(longitude &- previousLng, to: &out)
            out.append(contentsOf: bytes[min(offset, bytes.count)...])
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Reads one value of bytes this type wrote or checked (so it cannot fail).
    @discardableResult
    private static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Int {
        var fewestBytes = true
        return (try? EncodedPolyline.readValue(bytes, &offset, fewestBytes: &fewestBytes)) ?? 0
    }
}
