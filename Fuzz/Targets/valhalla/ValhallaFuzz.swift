import Foundation
import FuzzSupport
import Navigation

/// Fuzzes the Valhalla route importer (`tripshare import valhalla`), and the route
/// check every imported route then goes through.
@main enum ValhallaFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let route = try? ValhallaImporter.route(from: Data(fuzzInput(data, size))) else { return 0 }
            _ = try? route.validate()
            return 0
        }
    }
}
