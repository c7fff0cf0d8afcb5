import Geo
import Testing

/// Suffixes cut from a polyline encoded once are what encoding those points gives (issue 30).
@Suite struct EncodedPolylineSuffixesTests {
    /// A winding line of `count` points, deterministic, with steps of a few metres and a few
    /// repeated points.
    static func line(count: Int, seed: UInt64) -> [LatLng] {
        var state = seed
        let next: () -> Double = {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var points = [LatLng(latitude: 60.17 - next(), longitude: -122 + 200 * next())]
        for _ in 1..<count {
            let last = points[points.count - 1]
            let step = next() < 0.05 ? 0 : 0.0002 * (next() - 0.5)
            points.append(LatLng(latitude: last.latitude + step, longitude: last.longitude + 0.0003 * (next() - 0.3)))
        }
        return points
    }

    /// Every suffix, with and without a point of one's own before it, across checkpoints.
    @Test func everySuffixIsItsEncoding() {
        for (count, seed) in [(1, 1), (2, 2), (63, 3), (64, 4), (65, 5), (300, 6)] as [(Int, UInt64)] {
            let points = Self.line(count: count, seed: seed)
            let suffixes = EncodedPolylineSuffixes(points)
            #expect(suffixes.encoded == EncodedPolyline.encode(points))
            let decoded = MeasuredPolyline.decoding(suffixes.encoded)
            #expect(decoded?.exact == true)
            #expect(decoded.map { EncodedPolylineSuffixes(exactEncodingOf: $0.line).encoding(from: count / 2) } == suffixes.encoding(from: count / 2))
            let lead = LatLng(latitude: points[0].latitude - 0.000_123_4, longitude: points[0].longitude + 0.000_056_7)
            for index in points.indices {
                let rest = Array(points[index...])
                #expect(suffixes.encoding(from: index) == EncodedPolyline.encode(rest), "\(count) points, from \(index)")
                #expect(suffixes.encoding(from: index, after: lead) == EncodedPolyline.encode([lead] + rest), "\(count) points, from \(index), led")
            }
        }
    }

    /// A polyline is decoded to the points EncodedPolyline decodes, and where it is their
    /// encoding its suffixes are cut from it the same; one that writes a value in more bytes
    /// than needed is not exact, and one that does not decode, not at all.
    @Test func decodingTellsWhetherTheEncodingIsExact() throws {
        let points = try EncodedPolyline.decode(EncodedPolyline.encode(Self.line(count: 150, seed: 7)))
        let encoded = EncodedPolyline.encode(points)
        let decoded = try #require(MeasuredPolyline.decoding(encoded))
        #expect(decoded.measure.points == points && decoded.exact)
        let read = EncodedPolylineSuffixes(exactEncodingOf: decoded.line)
        #expect(read.encoded == encoded && read.count == points.count)
        for index in [0, 1, 63, 64, 65, 100, 149] {
            #expect(read.encoding(from: index) == EncodedPolyline.encode(Array(points[index...])))
        }
        // "A_?" is "A?" (one point, 1e-5 degrees north) with its zero longitude in two groups.
        #expect(try EncodedPolyline.decode("A_?") == EncodedPolyline.decode("A?"))
        #expect(MeasuredPolyline.decoding("A?")?.exact == true)
        #expect(try MeasuredPolyline.decoding("A_?")?.measure.points == EncodedPolyline.decode("A_?"))
        #expect(MeasuredPolyline.decoding("A_?")?.exact == false)
        for broken in ["A_", "A", "A ?", String(repeating: "_", count: 14) + "?", ""] {
            #expect(MeasuredPolyline.decoding(broken) == nil, "\(broken)")
        }
    }
}
