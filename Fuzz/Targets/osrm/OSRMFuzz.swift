import Foundation
import FuzzSupport
import Navigation

/// Fuzzes the OSRM v5 route importer (`tripshare import osrm`), and the route
/// check every imported route then goes through (`PUT .../route`).
@main enum OSRMFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let route = try? OSRMImporter.route(from: Data(fuzzInput(data, size))) else { return 0 }
            _ = try? route.validate()
            return 0
        }
    }
}
