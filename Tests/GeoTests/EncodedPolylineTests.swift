import Geo
import TestKit
import Testing

@Suite struct EncodedPolylineTests {
    static let googleExample = [
        LatLng(latitude: 38.5, longitude: -120.2),
        LatLng(latitude: 40.7, longitude: -120.95),
        LatLng(latitude: 43.252, longitude: -126.453),
    ]

    /// The example from Google's documentation encodes and decodes exactly.
    @Test func googleDocumentationExample() throws {
        #expect(EncodedPolyline.encode(Self.googleExample) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == Self.googleExample)
    }

    /// Precision 6 (Valhalla) scales by 10^6: the same points give another, longer string.
    @Test func precisionSix() throws {
        let points = Array(Self.googleExample.prefix(2))
        #expect(EncodedPolyline.encode(points, precision: 6) == "_izlhA~rlgdF_{geC~ywl@")
        #expect(try EncodedPolyline.decode("_izlhA~rlgdF_{geC~ywl@", precision: 6) == points)
        // Read at the wrong precision, the same string lands ten times too far out.
        let wrong = try EncodedPolyline.decode("_izlhA~rlgdF_{geC~ywl@", precision: 5)
        #expect(wrong[0].latitude == 385)
    }

    /// Values that round to zero encode as zero and decode to +0, never -0.
    @Test func negativeZero() throws {
        let encoded = EncodedPolyline.encode([LatLng(latitude: 0.000004, longitude: -0.000004)])
        #expect(encoded == "??")
        let decoded = try EncodedPolyline.decode(encoded)
        #expect(decoded[0].latitude == 0 && decoded[0].latitude.sign == .plus)
        #expect(decoded[0].longitude == 0 && decoded[0].longitude.sign == .plus)
        #expect(EncodedPolyline.encode([LatLng(latitude: -0.0, longitude: -0.0)]) == "??")
    }

    /// Deltas that change sign around zero keep their signs.
    @Test func signChangesAroundZero() throws {
        let points = [
            LatLng(latitude: 0.00001, longitude: -0.00001),
            LatLng(latitude: -0.00001, longitude: 0.00001),
            LatLng(latitude: 0, longitude: 0),
        ]
        #expect(EncodedPolyline.encode(points) == "A@BCA@")
        #expect(try EncodedPolyline.decode("A@BCA@") == points)
    }

    /// Halves round up, as Google's own utilities do (JavaScript's and Java's Math.round).
    @Test func halvesRoundUp() {
        // 0.5 and -0.5 units of 1e-5 degree: up to 1 and to 0.
        #expect(EncodedPolyline.encode([LatLng(latitude: 0.5e-5, longitude: -0.5e-5)]) == "A?")
    }

    /// Crossing the antimeridian is a jump of almost 360 degrees, coded and decoded exactly.
    @Test func antimeridian() throws {
        let points = [
            LatLng(latitude: 0, longitude: 179.99999),
            LatLng(latitude: 0, longitude: -179.99999),
            LatLng(latitude: 0, longitude: 180),
            LatLng(latitude: 0, longitude: -180),
        ]
        let encoded = EncodedPolyline.encode(points)
        #expect(encoded == "?}fsia@?zngtcA?}ngtcA?~ngtcA")
        #expect(try EncodedPolyline.decode(encoded) == points)
    }

    /// The poles and a pole-to-pole jump survive.
    @Test func poles() throws {
        let points = [
            LatLng(latitude: 90, longitude: 0),
            LatLng(latitude: -90, longitude: 0),
            LatLng(latitude: 90, longitude: 180),
        ]
        let encoded = EncodedPolyline.encode(points)
        #expect(encoded == "_cidP?~fsia@?_gsia@_gsia@")
        #expect(try EncodedPolyline.decode(encoded) == points)
    }

    /// An empty string is an empty line, and an empty line an empty string.
    @Test func empty() throws {
        #expect(try EncodedPolyline.decode("").isEmpty)
        #expect(EncodedPolyline.encode([]) == "")
    }

    /// 100,000 random points round-trip within half a unit of the precision, and the string
    /// re-encodes identically.
    @Test func hundredThousandPoints() throws {
        var rng = SplitMix64(seed: 42)
        var points: [LatLng] = []
        var lat = 10.0
        var lng = 170.0
        for index in 0..<100_000 {
            if index % 997 == 0 {
                lat = Double.random(in: -89...89, using: &rng)
                lng = Double.random(in: -180...180, using: &rng)
            } else {
                lat = max(-89, min(89, lat + Double.random(in: -0.01...0.01, using: &rng)))
                lng += Double.random(in: -0.01...0.01, using: &rng)
                if lng > 180 { lng -= 360 } else if lng < -180 { lng += 360 }
            }
            points.append(LatLng(latitude: lat, longitude: lng))
        }
        for precision in [5, 6] {
            let encoded = EncodedPolyline.encode(points, precision: precision)
            let decoded = try EncodedPolyline.decode(encoded, precision: precision)
            #expect(decoded.count == points.count)
            let tolerance = 0.5000001 / (precision == 5 ? 1e5 : 1e6)
            let worst =
                zip(points, decoded).map {
                    max(abs($0.latitude - $1.latitude), abs($0.longitude - $1.longitude))
                }.max() ?? .infinity
            #expect(worst <= tolerance)
            #expect(EncodedPolyline.encode(decoded, precision: precision) == encoded)
        }
    }

    /// The error decoding `s` throws, nil when it decodes.
    private func failure(_ s: String) -> EncodedPolyline.DecodingError? {
        do {
            _ = try EncodedPolyline.decode(s)
            return nil
        } catch {
            return error
        }
    }

    /// A byte outside the alphabet is reported at its offset, ASCII or not.
    @Test func badCharacter() {
        #expect(failure("_p~iF~ps|U _ulL")?.code == .badCharacter)
        #expect(failure("_p~iF~ps|U _ulL")?.offset == 10)
        // "é" is two UTF-8 bytes; the first one (0xC3) is where decoding stops.
        #expect(failure("??é?")?.code == .badCharacter)
        #expect(failure("??é?")?.offset == 2)
        #expect(failure("??\u{7f}?")?.offset == 2)
    }

    /// A value cut off inside its continuation bytes is reported where the input ends.
    @Test func truncatedValue() {
        #expect(failure("_p~iF~ps|U_")?.code == .truncatedValue)
        #expect(failure("_p~iF~ps|U_")?.offset == 11)
    }

    /// A final latitude without a longitude is an error at the end of the input.
    @Test func latitudeWithoutLongitude() {
        let error = #expect(throws: EncodedPolyline.DecodingError.self) {
            try EncodedPolyline.decode("_p~iF~ps|U_ulL")
        }
        #expect(error?.code == .latitudeWithoutLongitude)
        #expect(error?.offset == 14)
        #expect(error?.description == "invalid encoded polyline at byte 14: latitude without longitude")
    }

    /// A value longer than 64 bits is refused rather than silently wrapped.
    @Test func valueTooLong() {
        let error = failure(String(repeating: "~", count: 20))
        #expect(error?.code == .valueTooLong)
        #expect(error?.offset == 13)
    }
}
