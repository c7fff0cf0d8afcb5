import Basemap
import Foundation
import FuzzSupport

/// Fuzzes a basemap style (the MapLibre subset `--basemap-style` reads).
@main enum MapStyleFuzz {
    static func main() {
        runFuzzer { data, size in
            _ = try? MapStyle(data: Data(fuzzInput(data, size)), name: "fuzz")
            return 0
        }
    }
}
