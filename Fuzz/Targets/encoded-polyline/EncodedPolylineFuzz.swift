import FuzzSupport
import Geo
import TripModel

/// Fuzzes Google encoded polylines at precisions 5 and 6 (OSRM and Valhalla shapes), and
/// route strings as the API reads them (Google or S2, RouteGeometry). A polyline of valid
/// coordinates encodes back to a string that decodes to it; one off the globe may not (its
/// values exceed what a Double holds exactly) and is refused by RouteGeometry instead.
@main enum EncodedPolylineFuzz {
    static func main() {
        runFuzzer { data, size in
            let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
            for precision in [5, 6] {
                guard let points = try? EncodedPolyline.decode(text, precision: precision), points.allSatisfy(\.isValid) else {
                    continue
                }
                let again = try? EncodedPolyline.decode(EncodedPolyline.encode(points, precision: precision), precision: precision)
                guard again == points else { fatalError("precision \(precision): \(points.count) points do not survive encoding") }
            }
            if let points = try? RouteGeometry.decode(text, path: "route"), !points.allSatisfy(\.isValid) {
                fatalError("RouteGeometry accepted a point off the globe")
            }
            return 0
        }
    }
}
