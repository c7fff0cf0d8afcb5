import Basemap
import FuzzSupport

/// Fuzzes a PMTiles v3 archive held in memory: its header, root directory and
/// metadata, then the lookup of a few tiles through the leaf directories.
@main enum PMTilesFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let archive = try? PMTilesArchive(bytes: Array(fuzzInput(data, size)), name: "fuzz") else { return 0 }
            let zoom = min(max(archive.metadata.minZoom, 0), TileID.maximumZoom)
            for (x, y) in [(0, 0), (1, 1), (37, 18)] {
                let side = 1 << zoom
                _ = try? archive.tileData(TileID(zoom: zoom, x: x % side, y: y % side))
            }
            return 0
        }
    }
}
