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
            let lead = LatLng(latitude: points[0].latitude - 0.000_123_4, longitude: points[0].longitude + 0.000_056_7)
            for index in points.indices {
                let rest = Array(points[index...])
                #expect(suffixes.encoding(from: index) == EncodedPolyline.encode(rest), "\(count) points, from \(index)")
                #expect(suffixes.encoding(from: index, after: lead) == EncodedPolyline.encode([lead] + rest), "\(count) points, from \(index), led")
            }
        }
    }

    /// The line's own polyline is kept (its storage shared) when it is the encoding, and not
    /// when it is another line's.
    @Test func knownEncodingIsKeptOnlyWhenExact() throws {
        let points = try EncodedPolyline.decode(EncodedPolyline.encode(Self.line(count: 100, seed: 7)))
        let encoded = EncodedPolyline.encode(points)
        #expect(EncodedPolylineSuffixes(points, known: encoded).encoded == encoded)
        let other = EncodedPolylineSuffixes(points, known: EncodedPolyline.encode(Array(points.dropLast())))
        #expect(other.encoded == encoded)
        #expect(other.encoding(from: 50) == EncodedPolyline.encode(Array(points[50...])))
    }
}
