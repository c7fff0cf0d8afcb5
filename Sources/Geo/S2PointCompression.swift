// S2's compressed point sequence (S2EncodePointsCompressed), for points snapped to the centres
// of cells of one level:
//
//   face runs      varint64 per run: count * 6 + face, until the counts cover every point
//   first point    pi and qi bit-interleaved (pi in the even bits), little-endian, in
//                  2 * ceil(level / 8) bytes
//   other points   pi and qi each coded as the second difference of its sequence (the first
//                  difference for the second point), zig-zag mapped, bit-interleaved, varint64
//   off-centre     varint32 count, then per point: varint32 index, x, y, z as little-endian
//                  doubles — points that were not cell centres, stored exactly
//
// pi, qi are the cell's coordinates on its face at that level: floor(s * 2^level).
// All arithmetic on the coded values wraps at 32 bits, as S2's coder does.

/// Codes pi/qi sequences as S2 does: the first value as is, the second as a first difference,
/// every later one as a second difference (linear prediction), with 32-bit wrap-around.
struct SecondDifferenceCoder {
    private var count = 0
    private var value: Int32 = 0
    private var velocity: Int32 = 0

    mutating func encode(_ next: Int32) -> Int32 {
        defer {
            count += 1
            value = next
        }
        switch count {
        case 0: return next
        case 1:
            velocity = next &- value
            return velocity
        default:
            let delta = next &- value
            defer { velocity = delta }
            return delta &- velocity
        }
    }

    mutating func decode(_ coded: Int32) -> Int32 {
        switch count {
        case 0: value = coded
        case 1:
            velocity = coded
            value &+= velocity
        default:
            velocity &+= coded
            value &+= velocity
        }
        count += 1
        return value
    }
}

/// A point of a compressed sequence: its face and cell coordinates at the sequence's level.
struct S2CellPoint: Equatable {
    var face: Int
    var pi: Int
    var qi: Int
}

/// Encoder and decoder of S2's compressed point sequences.
enum S2PointCompression {
    /// Appends the points, coded at `level`; `offCenter` lists the points (index and exact
    /// direction) that are not centres of their level-`level` cell.
    static func encode(
        _ points: [S2CellPoint], level: Int, offCenter: [(index: Int, point: Vector3)] = [],
        into out: inout [UInt8]
    ) {
        var run: (face: Int, count: Int)?
        for point in points {
            if let current = run, current.face == point.face {
                run = (current.face, current.count + 1)
            } else {
                if let current = run { out.appendVarint(UInt64(current.count * 6 + current.face)) }
                run = (point.face, 1)
            }
        }
        if let current = run { out.appendVarint(UInt64(current.count * 6 + current.face)) }

        var piCoder = SecondDifferenceCoder()
        var qiCoder = SecondDifferenceCoder()
        for (index, point) in points.enumerated() {
            let pi = piCoder.encode(Int32(truncatingIfNeeded: point.pi))
            let qi = qiCoder.encode(Int32(truncatingIfNeeded: point.qi))
            if index == 0 {
                // The first values cannot be negative: no zig-zag, and a fixed width is shorter
                // than a varint of the same value.
                out.appendLittleEndian(
                    interleave(UInt32(bitPattern: pi), UInt32(bitPattern: qi)),
                    byteCount: firstPointBytes(level: level))
            } else {
                out.appendVarint(interleave(zigZag(pi), zigZag(qi)))
            }
        }

        out.appendVarint(UInt64(offCenter.count))
        for (index, point) in offCenter {
            out.appendVarint(UInt64(index))
            out.appendVector(point)
        }
    }

    /// Decodes `count` points coded at `level`, appending their latitude/longitude.
    static func decode(
        count: Int, level: Int, from reader: inout ByteReader,
        into points: inout [LatLng]
    ) throws(S2Polyline.DecodingError) {
        // The face runs come first; note where they start and skip them, then read them again
        // alongside the coordinates, so no array of faces is needed.
        var faces = reader
        var covered = 0
        while covered < count {
            covered += try faceRun(&reader).count
        }

        let limit = 1 << level
        var run = (face: 0, count: 0)
        var piCoder = SecondDifferenceCoder()
        var qiCoder = SecondDifferenceCoder()
        for index in 0..<count {
            if run.count == 0 { run = try faceRun(&faces) }
            run.count -= 1
            let start = reader.offset
            let pi: Int32
            let qi: Int32
            if index == 0 {
                let raw = try reader.littleEndian(firstPointBytes(level: level), "the first point")
                pi = piCoder.decode(Int32(bitPattern: evenBits(raw)))
                qi = qiCoder.decode(Int32(bitPattern: evenBits(raw >> 1)))
            } else {
                let raw = try reader.varint("point \(index)")
                pi = piCoder.decode(zigZagDecode(evenBits(raw)))
                qi = qiCoder.decode(zigZagDecode(evenBits(raw >> 1)))
            }
            guard pi >= 0, pi < limit, qi >= 0, qi < limit else {
                throw S2Polyline.DecodingError(
                    code: .coordinateOutOfRange, offset: start,
                    detail: "point \(index) has cell (\(pi), \(qi)), outside 0..<\(limit) at level \(level)")
            }
            let center = S2Projection.cellCenter(face: run.face, pi: Int(pi), qi: Int(qi), level: level)
            points.append(S2Projection.latLng(center))
        }

        let offCenterStart = reader.offset
        let offCenter = Int(try reader.varint32("the off-centre count"))
        guard offCenter <= count else {
            throw S2Polyline.DecodingError(
                code: .vertexIndexOutOfRange, offset: offCenterStart,
                detail: "\(offCenter) off-centre points among \(count)")
        }
        for _ in 0..<offCenter {
            let indexStart = reader.offset
            let index = Int(try reader.varint32("an off-centre index"))
            guard index < count else {
                throw S2Polyline.DecodingError(
                    code: .vertexIndexOutOfRange, offset: indexStart,
                    detail: "off-centre index \(index) of \(count) points")
            }
            let x = try reader.double("off-centre point \(index)")
            let y = try reader.double("off-centre point \(index)")
            let z = try reader.double("off-centre point \(index)")
            points[points.count - count + index] = S2Projection.latLng(Vector3(x: x, y: y, z: z))
        }
    }

    /// Bytes of the fixed-width first point: ceil(level / 8) for each of pi and qi.
    static func firstPointBytes(level: Int) -> Int { (level + 7) / 8 * 2 }

    private static func faceRun(_ reader: inout ByteReader) throws(S2Polyline.DecodingError) -> (face: Int, count: Int) {
        let start = reader.offset
        let value = try reader.varint("a face run")
        let count = value / 6
        guard count > 0, count <= UInt64(Int32.max) else {
            throw S2Polyline.DecodingError(code: .invalidFaceRun, offset: start, detail: "a run of \(count) points")
        }
        return (Int(value % 6), Int(count))
    }

    private static func zigZag(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n << 1) ^ (n >> 31))
    }

    private static func zigZagDecode(_ n: UInt32) -> Int32 {
        Int32(bitPattern: n >> 1) ^ -Int32(bitPattern: n & 1)
    }

    /// `a` in the even bits and `b` in the odd bits.
    static func interleave(_ a: UInt32, _ b: UInt32) -> UInt64 {
        spread(a) | (spread(b) << 1)
    }

    /// Bits 0, 2, 4, ... of `x`, packed.
    static func evenBits(_ x: UInt64) -> UInt32 {
        var v = x & 0x5555_5555_5555_5555
        v = (v | (v >> 1)) & 0x3333_3333_3333_3333
        v = (v | (v >> 2)) & 0x0f0f_0f0f_0f0f_0f0f
        v = (v | (v >> 4)) & 0x00ff_00ff_00ff_00ff
        v = (v | (v >> 8)) & 0x0000_ffff_0000_ffff
        v = (v | (v >> 16)) & 0x0000_0000_ffff_ffff
        return UInt32(truncatingIfNeeded: v)
    }

    /// The bits of `x` moved to the even positions of a 64-bit word.
    private static func spread(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f
        v = (v | (v << 2)) & 0x3333_3333_3333_3333
        v = (v | (v << 1)) & 0x5555_5555_5555_5555
        return v
    }
}
