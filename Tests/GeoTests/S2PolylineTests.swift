import Foundation
import TestKit
import Testing

@testable import Geo

/// Ports of the S2 geometry library's published encodings (C++ s2polyline_test,
/// s2point_compression_test; Go s2/encode_test, s2/polyline_test), plus our own round trips
/// and error paths.
@Suite struct S2PolylineTests {
    /// The error decoding `bytes` throws, nil when they decode.
    private func failure(_ bytes: [UInt8]) -> S2Polyline.DecodingError? {
        do {
            _ = try S2Polyline.decode(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    private func failure(base64: String) -> S2Polyline.DecodingError? {
        do {
            _ = try S2Polyline.decode(base64: base64)
            return nil
        } catch {
            return error
        }
    }

    /// Asserts two point lists match within `meters`.
    private func expectClose(
        _ got: [LatLng], _ want: [LatLng], within meters: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(got.count == want.count, sourceLocation: sourceLocation)
        for (g, w) in zip(got, want) {
            #expect(TestSupport.meters(g, w) <= meters, "\(g) vs \(w)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Published vectors

    /// Go's golden for an empty polyline (lossless): version 1, count 0.
    @Test func emptyLosslessGolden() throws {
        #expect(try S2Polyline.decode(bytes: TestSupport.bytes(hex: "0100000000")).isEmpty)
        #expect(TestSupport.hex(S2Polyline.encodedBytes([], snapLevel: nil)) == "0100000000")
    }

    /// C++'s lossless goldens: the semi-equator (0,0), (0,90), (0,180) and
    /// makePolyline("0:0, 0:10, 10:20, 20:30"). Each decodes to its points, and our encoder
    /// writes the same bytes.
    @Test(
        arguments: [(String, [(Double, Double)])]([
            (
                "0103000000000000000000F03F00000000000000000000000000000000075C143326A6913C"
                    + "000000000000F03F0000000000000000000000000000F0BF075C143326A6A13C0000000000000000",
                [(0.0, 0.0), (0, 90), (0, 180)]
            ),
            (
                "0104000000000000000000F03F00000000000000000000000000000000171C818C8B83EF3F"
                    + "89730B7E1A3AC63F000000000000000061B46C3A039DED3FE2DC829F868ED53F89730B7E1A3AC63F"
                    + "1B995E6FA10AEA3F1B2D5242F611DE3FF50B8A74A8E3D53F",
                [(0.0, 0.0), (0, 10), (10, 20), (20, 30)]
            ),
        ]))
    func losslessGoldens(golden: String, coordinates: [(Double, Double)]) throws {
        let points = coordinates.map { LatLng(latitude: $0.0, longitude: $0.1) }
        expectClose(try S2Polyline.decode(bytes: TestSupport.bytes(hex: golden)), points, within: 1e-6)
        #expect(TestSupport.hex(S2Polyline.encodedBytes(points, snapLevel: nil)) == golden)
    }

    /// Go's golden compressed loop (cells at level 30 around the antimeridian: 0:178, -1:180,
    /// 0:-179, 1:-180), its point sequence put behind a polyline header (version 2, level 30):
    /// it decodes within 1e-9 radians, and re-encoding the points gives the same bytes.
    @Test func compressedAntimeridianGolden() throws {
        let points = "041B02222082A222A806A0C7A991DE86D905D7C3A691F2DEE40383908880A095880500"
        let bytes = TestSupport.bytes(hex: "021E" + points)
        let want = [
            LatLng(latitude: 0, longitude: 178),
            LatLng(latitude: -1, longitude: 180),
            LatLng(latitude: 0, longitude: -179),
            LatLng(latitude: 1, longitude: -180),
        ]
        let decoded = try S2Polyline.decode(bytes: bytes)
        expectClose(decoded, want, within: 1e-9 * Earth.radiusMeters)
        #expect(S2Polyline.encodedBytes(decoded, snapLevel: 30) == bytes)
    }

    /// C++ FirstPointOnFaceEdge: a first point exactly on a face edge (ti = 2^31, not a cell
    /// centre) next to a level-8 centre round-trips exactly at level 8.
    @Test func firstPointOnFaceEdge() throws {
        let edge = Vector3(x: 0.054299323861222645, y: -0.70606358900180299, z: 0.70606358900180299)
        let center = Vector3(x: 0.056482651436986935, y: -0.70781701406865505, z: 0.70413406726388494)
        // pi/qi are si/ti (clamped below 2^31) shifted right by 31 - level.
        func piQi(_ siTi: UInt32) -> Int { Int(min(siTi, (1 << 31) - 1) >> (31 - 8)) }
        let cells = [
            S2CellPoint(face: 2, pi: piQi(956_301_312), qi: piQi(2_147_483_648)),
            S2CellPoint(face: 4, pi: piQi(4_194_304), qi: piQi(1_195_376_640)),
        ]
        var bytes: [UInt8] = [2, 8, 2]
        S2PointCompression.encode(cells, level: 8, offCenter: [(0, edge)], into: &bytes)
        let decoded = try S2Polyline.decode(bytes: bytes)
        #expect(decoded == [S2Projection.latLng(edge), S2Projection.latLng(center)])
    }

    /// C++ StraightLineCompressesWell: 100 level-30 points on a line on face 0 take 117 bytes
    /// (about one per vertex), plus our 3-byte header.
    @Test func straightLineCompressesWell() throws {
        let points = (0..<100).map { i in
            let u = S2Projection.uv(fromST: 0.01 + 0.005 * Double(i))
            let v = S2Projection.uv(fromST: 0.01 + 0.009 * Double(i))
            return S2Projection.latLng(S2Projection.vector(face: 0, u: u, v: v))
        }
        let bytes = S2Polyline.encodedBytes(points, snapLevel: 30)
        #expect(bytes.count == 117 + 3)
        expectClose(try S2Polyline.decode(bytes: bytes), points, within: 0.01)
    }

    /// C++ DecodeCompressedMaxCellLevel: a compressed polyline may use level 30. (The original
    /// pads with put32(0); two of those zero bytes would be trailing bytes to us.) An empty
    /// compressed polyline is read with and without the off-centre count S2's encoder adds.
    @Test func maxCellLevel() throws {
        #expect(try S2Polyline.decode(bytes: [2, 30, 0]).isEmpty)
        #expect(try S2Polyline.decode(bytes: [2, 30, 0, 0]).isEmpty)
        #expect(S2Polyline.encodedBytes([], snapLevel: 30) == [2, 30, 0, 0])
    }

    /// C++ DecodeCompressedCellLevelTooHigh: level 31 is refused, at the level's byte.
    @Test func cellLevelTooHigh() {
        let error = failure([2, 31, 0])
        #expect(error?.code == .invalidSnapLevel)
        #expect(error?.offset == 1)
    }

    /// C++ DecodeCompressedBadData and Go's variants: garbage, an unknown version, a cut-off
    /// face run are refused with what was wrong.
    @Test func badData() {
        #expect(failure(Array("bad data".utf8))?.code == .unsupportedVersion)
        #expect(failure([5, 0, 0])?.code == .unsupportedVersion)
        #expect(failure([])?.code == .unsupportedVersion)
        let cut = failure([2, 0, 1, 0xff])
        #expect(cut?.code == .truncated)
        #expect(cut?.offset == 3)
        #expect(cut?.detail == "a face run runs past the end")
    }

    // MARK: Our encoder and decoder

    /// Random points snapped at level 22 come back within the half-diagonal of a level-22
    /// cell (< 1.9 m), at level 30 within 8 mm, and lossless ones within a micrometre.
    @Test func roundTrips() throws {
        var rng = SplitMix64(seed: 7)
        let points = (0..<2_000).map { _ in
            LatLng(
                latitude: Double.random(in: -89.9...89.9, using: &rng),
                longitude: Double.random(in: -180...180, using: &rng))
        }
        expectClose(try S2Polyline.decode(base64: S2Polyline.encode(points)), points, within: 1.9)
        expectClose(try S2Polyline.decode(base64: S2Polyline.encode(points, snapLevel: 30)), points, within: 0.008)
        expectClose(try S2Polyline.decode(base64: S2Polyline.encode(points, snapLevel: nil)), points, within: 1e-6)
    }

    /// Every level from 0 to 30 round-trips, within that level's cell size, and the poles too.
    @Test func everyLevel() throws {
        let points = [
            LatLng(latitude: 37.3447, longitude: -122.0679),
            LatLng(latitude: 37.3448, longitude: -122.0677),
            LatLng(latitude: 90, longitude: 0),
            LatLng(latitude: -90, longitude: 0),
            LatLng(latitude: -33.8688, longitude: 151.2093),
        ]
        for level in 0...30 {
            // Half the largest cell diagonal at this level (S2's kMaxDiag 2.4387 · 2^-level radians).
            let tolerance = 2.4387 / Double(1 << level) / 2 * Earth.radiusMeters + 1e-6
            let decoded = try S2Polyline.decode(base64: S2Polyline.encode(points, snapLevel: level))
            for (g, w) in zip(decoded, points) where abs(w.latitude) < 90 {
                #expect(TestSupport.meters(g, w) <= tolerance, "level \(level): \(g) vs \(w)")
            }
            #expect(decoded.count == points.count)
        }
    }

    /// Fleet Engine's URL-safe padded base64, the standard alphabet and unpadded text all
    /// decode to the same points.
    @Test func bothBase64Alphabets() throws {
        let urlSafe = "AhYEHEkJnp6GAOIJi1_dsAIA"
        let standard = urlSafe.replacingOccurrences(of: "_", with: "/")
        let padded = "AhYFIoF_XZ6GAPV1plu2AYQNAA=="
        let unpadded = String(padded.dropLast(2))
        #expect(try S2Polyline.decode(base64: urlSafe) == S2Polyline.decode(base64: standard))
        #expect(try S2Polyline.decode(base64: padded) == S2Polyline.decode(base64: unpadded))
        #expect(try S2Polyline.decode(base64: padded.replacingOccurrences(of: "_", with: "/")).count == 5)
    }

    /// A fixture segment decodes to the vertices an independent decoder found (Python
    /// prototype of the same format), the first of which is the vehicle's snapped location
    /// (37.34308534228514, -122.069699652493) to within half a level-22 cell (1.9 m).
    @Test func knownSegment() throws {
        let decoded = try S2Polyline.decode(base64: "AhYFIoF_XZ6GAPV1plu2AYQNAA==")
        let want = [
            LatLng(latitude: 37.343082986061575, longitude: -122.06970710820153),
            LatLng(latitude: 37.34424948330199, longitude: -122.06833101360606),
            LatLng(latitude: 37.3445779408118, longitude: -122.0681756469915),
            LatLng(latitude: 37.344803151570424, longitude: -122.0681756469915),
            LatLng(latitude: 37.34478978759383, longitude: -122.06790930370653),
        ]
        expectClose(decoded, want, within: 1e-6)
        #expect(TestSupport.meters(decoded[0], LatLng(latitude: 37.34308534228514, longitude: -122.069699652493)) < 1.9)
    }

    // MARK: Errors

    /// Characters outside both alphabets and misplaced padding name their offset.
    @Test func invalidBase64() {
        #expect(failure(base64: "AhYF*oF_")?.code == .invalidBase64)
        #expect(failure(base64: "AhYF*oF_")?.offset == 4)
        #expect(failure(base64: "AhY=")?.code == .truncated)
        #expect(failure(base64: "AhYFI=")?.code == .invalidBase64)
        #expect(failure(base64: "AhYFI")?.code == .invalidBase64)
        #expect(failure(base64: "AhYF IoF_")?.offset == 4)
    }

    /// A vertex count the remaining bytes cannot hold is refused before anything is allocated.
    @Test func impossibleVertexCounts() {
        // Lossless, 2^32 - 1 vertices in no bytes.
        #expect(failure([1, 0xff, 0xff, 0xff, 0xff])?.code == .tooManyVertices)
        // Lossless, 2 vertices but only one present: cut off inside vertex 1.
        var two: [UInt8] = [1, 2, 0, 0, 0]
        two.append(contentsOf: [UInt8](repeating: 0, count: 24))
        let error = failure(two)
        #expect(error?.code == .truncated)
        #expect(error?.detail == "vertex 1 needs 8 bytes, 0 left")
        // Compressed, 1,000 vertices in 3 bytes.
        #expect(failure([2, 22, 0xe8, 0x07, 0x06, 0, 0])?.code == .truncated)
    }

    /// Faults inside the compressed point sequence are named.
    @Test func compressedFaults() {
        // A face run of zero points.
        #expect(failure([2, 22, 1, 0x04])?.code == .invalidFaceRun)
        // An off-centre index beyond the points: one level-0 point, face 0, 1 off-centre at 5.
        #expect(failure([2, 0, 1, 6, 1, 5])?.code == .vertexIndexOutOfRange)
        // More off-centre points than points.
        #expect(failure([2, 0, 1, 6, 2])?.code == .vertexIndexOutOfRange)
        // A varint longer than ten bytes.
        #expect(failure([2, 0, 1] + [UInt8](repeating: 0x80, count: 12))?.code == .malformedVarint)
        // A second point whose delta leaves the face (pi = -1 at level 1).
        #expect(failure([2, 1, 2, 12, 0, 0, 0x01, 0])?.code == .coordinateOutOfRange)
    }

    /// Bytes after the last field mean the input is not what it claims to be.
    @Test func trailingBytes() {
        let error = failure([2, 30, 0, 0, 0, 0])
        #expect(error?.code == .trailingBytes)
        #expect(error?.offset == 4)
        #expect(error?.description == "invalid S2 polyline at byte 4: trailing bytes: 2 bytes after the last vertex")
    }
}
