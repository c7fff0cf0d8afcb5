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
public struct EncodedPolylineSuffixes: Sendable {
    /// Points from one checkpoint to the next.
    static let checkpointStride = 64

    /// Where a point's bytes start in ``encoded`` and its coordinates, scaled and rounded.
    private struct Checkpoint: Sendable {
        var offset: Int
        var latitude: Int
        var longitude: Int
    }

    /// The encoding of the whole line.
    public let encoded: String
    /// How many points the line has.
    public let count: Int
    /// Every ``checkpointStride``-th point, from the first.
    private let checkpoints: [Checkpoint]

    /// Encodes `points`.
    public init(_ points: [LatLng]) {
        let factor = EncodedPolyline.scale(5)
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var checkpoints: [Checkpoint] = []
        checkpoints.reserveCapacity(points.count / Self.checkpointStride + 1)
        var previousLat = 0
        var previousLng = 0
        for (index, point) in points.enumerated() {
            let lat = EncodedPolyline.roundHalfUp(point.latitude * factor)
            let lng = EncodedPolyline.roundHalfUp(point.longitude * factor)
            if index % Self.checkpointStride == 0 { checkpoints.append(Checkpoint(offset: out.count, latitude: lat, longitude: lng)) }
            EncodedPolyline.appendValue(lat &- previousLat, to: &out)
            EncodedPolyline.appendValue(lng &- previousLng, to: &out)
            previousLat = lat
            previousLng = lng
        }
        encoded = String(decoding: out, as: UTF8.self)
        count = points.count
        self.checkpoints = checkpoints
    }

    /// The suffixes of a polyline that is already the encoding of its `count` points (a
    /// route's, as the vehicle holds it), read in one pass rather than written again, sharing
    /// its storage; nil unless it is exactly what ``EncodedPolyline/encode(_:precision:)``
    /// writes for them (every value in its fewest bytes, `count` points).
    public init?(encoded: String, count: Int) {
        var text = encoded
        let checkpoints: [Checkpoint]? = text.withUTF8 { bytes in
            var checkpoints: [Checkpoint] = []
            checkpoints.reserveCapacity(count / Self.checkpointStride + 1)
            var offset = 0
            var latitude = 0
            var longitude = 0
            var points = 0
            while offset < bytes.count {
                let start = offset
                guard let dLat = Self.fewestBytesValue(bytes, &offset), let dLng = Self.fewestBytesValue(bytes, &offset) else { return nil }
                latitude &+= dLat
                longitude &+= dLng
                if points % Self.checkpointStride == 0 { checkpoints.append(Checkpoint(offset: start, latitude: latitude, longitude: longitude)) }
                points += 1
            }
            return points == count ? checkpoints : nil
        }
        guard let checkpoints else { return nil }
        self.encoded = encoded
        self.count = count
        self.checkpoints = checkpoints
    }

    /// The encoding of `lead` (when given) followed by the points from `index` (0 ..< ``count``)
    /// to the end.
    public func encoding(from index: Int, after lead: LatLng? = nil) -> String {
        guard index >= 0, index < count else { return lead.map { EncodedPolyline.encode([$0]) } ?? "" }
        let checkpoint = checkpoints[index / Self.checkpointStride]
        var text = encoded
        return text.withUTF8 { bytes in
            var latitude = checkpoint.latitude
            var longitude = checkpoint.longitude
            var offset = checkpoint.offset
            Self.skipValue(bytes, &offset)
            Self.skipValue(bytes, &offset)
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

    /// Moves past one value: its last byte is the first without the continuation bit.
    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) {
        while offset < bytes.count, bytes[offset] &- 63 >= 0x20 { offset += 1 }
        offset += 1
    }

    /// Reads one value of bytes this type wrote or checked.
    private static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Int {
        fewestBytesValue(bytes, &offset, checked: false) ?? 0
    }

    /// Reads one value; nil, when `checked`, where the bytes end inside it, a byte is outside
    /// the alphabet, the value is too long, or it is not written in its fewest bytes (its last
    /// group is zero after others).
    private static func fewestBytesValue(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, checked: Bool = true) -> Int? {
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            guard offset < bytes.count, shift < 64 else { return checked ? nil : 0 }
            let byte = bytes[offset]
            if checked, byte < 63 || byte >= 127 { return nil }
            let chunk = UInt(byte &- 63)
            offset += 1
            result |= (chunk & 0x1f) << shift
            if chunk < 0x20 {
                if checked, shift > 0, chunk == 0 { return nil }
                break
            }
            shift += 5
        }
        let magnitude = Int(bitPattern: result >> 1)
        return (result & 1) != 0 ? ~magnitude : magnitude
    }
}
