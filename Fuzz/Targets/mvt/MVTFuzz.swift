import Basemap
import FuzzSupport

/// Fuzzes the Mapbox Vector Tile decoder and the geometry commands of every
/// feature it yields.
@main enum MVTFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let tile = try? VectorTile(decoding: Array(fuzzInput(data, size))) else { return 0 }
            for layer in tile.layers {
                for feature in layer.features {
                    _ = layer.properties(of: feature)
                    _ = try? FeatureGeometry(decoding: feature)
                }
            }
            return 0
        }
    }
}
