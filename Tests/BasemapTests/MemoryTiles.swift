import Basemap
import Foundation
import Synchronization

/// Tiles held in memory (the loose San Francisco .mvt files have no archive).
struct MemoryTiles: TileSource {
    let metadata: TileArchiveMetadata
    let tiles: [TileID: [UInt8]]
    var identity: String { "memory:\(metadata.name ?? "")" }

    func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? { tiles[id] }

    /// The nine z15 San Francisco tiles (Mapbox Streets v7).
    static func sanFrancisco() throws -> MemoryTiles {
        var tiles: [TileID: [UInt8]] = [:]
        for tile in try SharedFixtures.sanFranciscoTiles() {
            tiles[TileID(zoom: tile.zoom, x: tile.x, y: tile.y)] = tile.bytes
        }
        return MemoryTiles(
            metadata: TileArchiveMetadata(
                format: .mvt, minZoom: 15, maxZoom: 15,
                attribution: "© Mapbox © OpenStreetMap contributors", name: "sanfrancisco"),
            tiles: tiles)
    }

    /// The Streets v7 example style.
    static func streetsStyle() throws -> MapStyle {
        let url = SharedFixtures.testsDirectory.appendingPathComponent("Fixtures/mapbox-streets-v7.json")
        return try MapStyle(data: try Data(contentsOf: url), name: "mapbox-streets-v7")
    }
}

/// Messages a basemap reports, collected thread-safely.
final class Reports: Sendable {
    private let list = Mutex<[String]>([])
    var messages: [String] { list.withLock { $0 } }
    func add(_ message: String) { list.withLock { $0.append(message) } }
}
