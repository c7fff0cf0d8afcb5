import Geo
import Testing
import TripModel

/// Route strings as the API reads them (RouteGeometry).
@Suite struct RouteGeometryTests {
    /// Found by fuzzing (scripts/fuzz encoded-polyline): 189 printable bytes that decode as a
    /// Google polyline of 22 points whose coordinates run far off the globe (64-bit deltas
    /// add up) and do not even survive re-encoding. The API refuses such a route, naming the
    /// first point out of range.
    @Test func polylineFarOffTheGlobeIsRefused() throws {
        let text =
            "ovecF~vbgSStringtringod@?ovOptiovOptionalngvbhV?od@?OptionalSaring??opdodod@nalngvbhV?od@?"
            + "OpotiovOond@al??odovOptiovOptionalngvbhV?od@?Optional??opdodod@nalngvbhV?od@?OptiovOodopdtiod@d@od@"
        let points = try EncodedPolyline.decode(text)
        #expect(points.count == 22)
        let bad = try #require(points.firstIndex { !$0.isValid })
        let error = try #require(throws: StatusError.self) { try RouteGeometry.decode(text, path: "currentRouteSegment") }
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix("currentRouteSegment[\(bad)]: decodes to"), "\(error.message)")
        #expect(error.message.hasSuffix("outside the valid coordinate range"))
    }
}
