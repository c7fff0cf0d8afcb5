import Geo
import Testing

@Suite struct EncodedPolylineTests {
    /// The example from Google's documentation encodes and decodes exactly.
    @Test func googleDocumentationExample() throws {
        let points = [
            LatLng(latitude: 38.5, longitude: -120.2),
            LatLng(latitude: 40.7, longitude: -120.95),
            LatLng(latitude: 43.252, longitude: -126.453),
        ]
        #expect(EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
    }
}
