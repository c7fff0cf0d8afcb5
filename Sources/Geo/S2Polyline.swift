// Fleet Engine's route segments (`currentRouteSegment`, `encodedPathToWaypoint`) are base64 of
// the S2 geometry library's polyline encoding, in one of two versions:
//
//   1  lossless      version byte, uint32 little-endian vertex count, then per vertex the
//                    unit vector x, y, z as little-endian doubles
//   2  compressed    version byte, snap level byte (0...30), varint32 vertex count, then the
//                    compressed point sequence (see S2PointCompression)
//
// Fleet Engine writes version 2 at snap level 22 (cells of about 2 m), URL-safe base64 with
// padding. This is our own implementation of that format, checked against S2's published
// test vectors and against the recorded fixtures.

/// S2 polylines as Fleet Engine sends route segments: base64 of `S2Polyline::Encode` output.
public enum S2Polyline {
    /// Why bytes or a string could not be decoded, and where.
    public struct DecodingError: Error, Hashable, CustomStringConvertible {
        /// What kind of fault was found; compare against the static members.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private let name: String
            private init(_ name: String) { self.name = name }
            /// The code's name, as in messages.
            public var description: String { name }

            /// The string is not base64 (offset counts the string's UTF-8 bytes).
            package static let invalidBase64 = Code("invalid base64")
            /// The first byte is neither 1 (lossless) nor 2 (compressed); an empty input too.
            package static let unsupportedVersion = Code("unsupported version")
            /// A compressed polyline's snap level is above 30.
            package static let invalidSnapLevel = Code("invalid snap level")
            /// The input ends inside a field.
            package static let truncated = Code("truncated")
            /// A varint is longer than its type allows.
            package static let malformedVarint = Code("malformed varint")
            /// A face run has no points or an impossible count.
            package static let invalidFaceRun = Code("invalid face run")
            /// A decoded cell coordinate lies outside its face.
            package static let coordinateOutOfRange = Code("coordinate out of range")
            /// An off-centre point names a vertex that does not exist.
            package static let vertexIndexOutOfRange = Code("vertex index out of range")
            /// The vertex count is above ``S2Polyline/maxVertexCount``.
            package static let tooManyVertices = Code("too many vertices")
            /// Bytes remain after the last field.
            package static let trailingBytes = Code("trailing bytes")
        }

        /// What was wrong.
        package var code: Code
        /// Byte offset in the decoded bytes where the faulty field starts (for
        /// ``Code/invalidBase64``: the offset in the string).
        public var offset: Int
        /// Which field, and what was found there.
        package var detail: String

        /// A one-line message: what, and at which byte.
        public var description: String { "invalid S2 polyline at byte \(offset): \(code): \(detail)" }
    }

    /// The most vertices a polyline may have (far above any route segment), so that a corrupt
    /// count cannot ask for gigabytes.
    package static let maxVertexCount = 1 << 24

    /// Decodes a base64 string (standard or URL-safe alphabet, padded or not) of an S2 polyline
    /// encoding, version 1 or 2.
    public static func decode(base64 s: String) throws(DecodingError) -> [LatLng] {
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(s)
        } catch {
            throw DecodingError(code: .invalidBase64, offset: error.offset, detail: error.detail)
        }
        return try decode(bytes: bytes)
    }

    /// Decodes the bytes of an S2 polyline encoding, version 1 (lossless) or 2 (compressed).
    public static func decode(bytes: [UInt8]) throws(DecodingError) -> [LatLng] {
        var reader = ByteReader(bytes)
        let version = reader.isAtEnd ? 0 : try reader.byte("the version")
        var points: [LatLng] = []
        switch version {
        case 1:
            let countStart = reader.offset
            let count = Int(try reader.littleEndian(4, "the vertex count"))
            try checkCount(count, fitsIn: reader.remaining / 24, at: countStart)
            points.reserveCapacity(count)
            for index in 0..<count {
                let x = try reader.double("vertex \(index)")
                let y = try reader.double("vertex \(index)")
                let z = try reader.double("vertex \(index)")
                points.append(S2Projection.latLng(Vector3(x: x, y: y, z: z)))
            }
        case 2:
            let levelStart = reader.offset
            let level = Int(try reader.byte("the snap level"))
            guard level <= S2Projection.maxLevel else {
                throw DecodingError(
                    code: .invalidSnapLevel, offset: levelStart,
                    detail: "level \(level), at most \(S2Projection.maxLevel)")
            }
            let countStart = reader.offset
            let count = Int(try reader.varint32("the vertex count"))
            // Every point after the first takes at least one byte, and so does the face run.
            try checkCount(count, fitsIn: reader.remaining, at: countStart)
            // S2 reads nothing more for an empty polyline, though its encoder writes an
            // off-centre count of 0 after the header; accept both forms.
            if count == 0 && reader.isAtEnd { return [] }
            points.reserveCapacity(count)
            try S2PointCompression.decode(count: count, level: level, from: &reader, into: &points)
        default:
            throw DecodingError(
                code: .unsupportedVersion, offset: 0,
                detail: bytes.isEmpty ? "no bytes" : "version \(version); 1 and 2 are known")
        }
        guard reader.isAtEnd else {
            throw DecodingError(
                code: .trailingBytes, offset: reader.offset,
                detail: "\(reader.remaining) bytes after the last vertex")
        }
        return points
    }

    /// Encodes points as base64 (URL-safe, padded, as Fleet Engine writes them): snapped to
    /// the centres of the S2 cells of `snapLevel` (clamped to 0...30) in the compressed
    /// version 2 — level 22 moves a point by at most 1.9 m, half a cell diagonal — or, when
    /// `snapLevel` is nil, exactly in the lossless version 1.
    public static func encode(_ points: [LatLng], snapLevel: Int? = 22) -> String {
        Base64.encodeURLSafe(encodedBytes(points, snapLevel: snapLevel))
    }

    /// The bytes ``encode(_:snapLevel:)`` writes in base64.
    static func encodedBytes(_ points: [LatLng], snapLevel: Int? = 22) -> [UInt8] {
        var out: [UInt8] = []
        if let snapLevel {
            let level = max(0, min(S2Projection.maxLevel, snapLevel))
            out.reserveCapacity(8 + points.count * 3)
            out.append(2)
            out.append(UInt8(level))
            out.appendVarint(UInt64(points.count))
            let cells = points.map { point in
                let cell = S2Projection.cell(containing: point, level: level)
                return S2CellPoint(face: cell.face, pi: cell.pi, qi: cell.qi)
            }
            S2PointCompression.encode(cells, level: level, into: &out)
        } else {
            out.reserveCapacity(5 + points.count * 24)
            out.append(1)
            out.appendLittleEndian(UInt64(points.count), byteCount: 4)
            for point in points { out.appendVector(S2Projection.vector(point)) }
        }
        return out
    }

    private static func checkCount(_ count: Int, fitsIn available: Int, at offset: Int) throws(DecodingError) {
        guard count <= maxVertexCount else {
            throw DecodingError(
                code: .tooManyVertices, offset: offset,
                detail: "\(count) vertices, more than the \(maxVertexCount) allowed")
        }
        guard count <= available + 1 else {
            throw DecodingError(
                code: .truncated, offset: offset,
                detail: "\(count) vertices cannot fit in the \(available) bytes left")
        }
    }
}
