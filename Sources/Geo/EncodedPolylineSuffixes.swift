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
    static let checkpointStride = 64

    /// Where a point's bytes start in ``encoded`` and its coordinates, scaled and rounded.
    private struct Checkpoint: Sendable {
        var offset: Int
        var latitude: Int
        var longitude: Int
    }

    /// The encoding of the whole line.
    package let encoded: String
    /// How many points the line has.
    package let count: Int
    /// Every ``checkpointStride``-th point, from the first.
    private let checkpoints: [Checkpoint]

    /// Encodes `points`.
    package init(_ points: [LatLng]) {
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

    /// Decodes `polyline` (precision 5) to the points ``EncodedPolyline/decode(_:precision:)``
    /// gives and, in the same pass, reads its suffixes where it is exactly what
    /// ``EncodedPolyline/encode(_:precision:)`` writes for them (every value in its fewest
    /// bytes), sharing its storage: a route's polyline as the vehicle holds it, decoded again
    /// on every miss of a cache, costs no second pass. Nil where it does not decode.
    package static func decoding(_ polyline: String) -> (points: [LatLng], suffixes: EncodedPolylineSuffixes?)? {
        var text = polyline
        let factor = EncodedPolyline.scale(5)
        let decoded: ([LatLng], [Checkpoint]?)? = text.withUTF8 { bytes in
            // A value ends at each byte below 95 (no continuation bit); two values make a point.
            var valueCount = 0
            for byte in bytes where byte < 95 { valueCount += 1 }
            var points: [LatLng] = []
            points.reserveCapacity(valueCount / 2)
            var checkpoints: [Checkpoint]? = []
            checkpoints?.reserveCapacity(valueCount / 2 / Self.checkpointStride + 1)
            var offset = 0
            var latitude = 0
            var longitude = 0
            while offset < bytes.count {
                let start = offset
                guard let dLat = Self.value(bytes, &offset), let dLng = Self.value(bytes, &offset) else { return nil }
                latitude &+= dLat.value
                longitude &+= dLng.value
                if !dLat.fewestBytes || !dLng.fewestBytes { checkpoints = nil }
                if points.count % Self.checkpointStride == 0 {
                    checkpoints?.append(Checkpoint(offset: start, latitude: latitude, longitude: longitude))
                }
                points.append(LatLng(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor))
            }
            return (points, checkpoints)
        }
        guard let (points, checkpoints) = decoded else { return nil }
        return (points, checkpoints.map { EncodedPolylineSuffixes(encoded: polyline, count: points.count, checkpoints: $0) })
    }

    private init(encoded: String, count: Int, checkpoints: [Checkpoint]) {
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
        value(bytes, &offset)?.value ?? 0
    }

    /// Reads one value, and whether it is written in its fewest bytes (its last group is not
    /// zero after others); nil, as ``EncodedPolyline/decode(_:precision:)`` throws, where the
    /// bytes end inside it, a byte is outside the alphabet or the value is too long.
    private static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> (value: Int, fewestBytes: Bool)? {
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            guard offset < bytes.count, shift < 64 else { return nil }
            let byte = bytes[offset]
            guard byte >= 63, byte < 127 else { return nil }
            let chunk = UInt(byte - 63)
            offset += 1
            result |= (chunk & 0x1f) << shift
            if chunk < 0x20 {
                let magnitude = Int(bitPattern: result >> 1)
                return ((result & 1) != 0 ? ~magnitude : magnitude, shift == 0 || chunk != 0)
            }
            shift += 5
        }
    }
}
