import FuzzSupport
import JSON
import Navigation
import TripModel

/// Fuzzes a route with steps as `PUT .../vehicles/{id}/route` takes it, decoded
/// strictly and then checked.
@main enum NavRouteFuzz {
    static func main() {
        runFuzzer { data, size in
            let bytes = fuzzInput(data, size)
            guard let route = try? StrictJSONDecoder().decode(NavRoute.self, from: bytes, root: "route") else { return 0 }
            _ = try? route.validate()
            return 0
        }
    }
}
