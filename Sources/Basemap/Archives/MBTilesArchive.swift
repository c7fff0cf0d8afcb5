// An MBTiles archive: an SQLite database with `metadata(name, value)` and
// `tiles(zoom_level, tile_column, tile_row, tile_data)` (a table or a view), rows in TMS order
// (counted from the bottom). Contract: opened read-only through GRDB once; opening checks the
// tables and reads the metadata, so a foreign database is refused at once with a message
// naming the file; vector tiles may be gzip'd or zlib'd or plain and come back inflated.

import Foundation
import GRDB
import Geo

/// An MBTiles archive opened read-only.
package final class MBTilesArchive: TileSource {
    package let metadata: TileArchiveMetadata
    package let identity: String
    private let path: String
    private let database: DatabaseQueue

    /// Opens an MBTiles file; throws naming the file when it is not a usable MBTiles archive.
    package init(path: String) throws(BasemapError) {
        let file = try FileBytes(path: path)
        self.path = path
        identity = "mbtiles:\(path):\(file.count):\(file.modified.timeIntervalSince1970)"
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "mbtiles"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            metadata = try database.read { db in try Self.readMetadata(db, path: path) }
        } catch let error as BasemapError {
            throw error
        } catch let error as DatabaseError {
            throw BasemapError(code: .notATileArchive, message: "\(path): not a usable MBTiles file (\(error.message ?? "\(error)"))")
        } catch {
            throw BasemapError(code: .notATileArchive, message: "\(path): not a usable MBTiles file (\(error))")
        }
    }

    package func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        guard let bytes = try rawTile(id) else { return nil }
        guard metadata.format == .mvt, Inflate.isCompressed(bytes) else { return bytes }
        do {
            return try Inflate.decompress(bytes)
        } catch {
            throw BasemapError(code: .corruptCompression, message: "\(path): tile \(id): \(error.message)")
        }
    }

    package func storedTile(_ id: TileID) throws(BasemapError) -> StoredTile? {
        guard let bytes = try rawTile(id) else { return nil }
        return StoredTile(bytes: bytes, contentEncoding: metadata.format == .mvt ? StoredTile.encoding(of: bytes) : nil)
    }

    /// The tile's `tile_data` as stored, nil when the table has none (or an empty one).
    private func rawTile(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        guard id.isValid else { return nil }
        let data: Data?
        do {
            data = try database.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                    arguments: [id.zoom, id.x, id.tmsRow])
            }
        } catch {
            throw BasemapError(code: .io, message: "\(path): reading tile \(id): \(error)")
        }
        guard let data, !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    private static func readMetadata(_ db: Database, path: String) throws -> TileArchiveMetadata {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        guard tables.contains("tiles") else {
            throw BasemapError(code: .notATileArchive, message: "\(path): an SQLite database without a \"tiles\" table, not MBTiles")
        }
        do {
            _ = try Row.fetchOne(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles LIMIT 0")
        } catch {
            throw BasemapError(
                code: .notATileArchive,
                message: "\(path): the \"tiles\" table lacks zoom_level, tile_column, tile_row or tile_data")
        }
        var values: [String: String] = [:]
        if tables.contains("metadata") {
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                if let name = row["name"] as String?, let value = row["value"] as String? { values[name] = value }
            }
        }
        let format: TileFormat
        switch values["format"]?.lowercased() {
        case "pbf", "mvt": format = .mvt
        case "png": format = .png
        case "jpg", "jpeg": format = .jpeg
        case "webp": format = .webp
        case nil:
            // No format given: look at a tile.
            let sample = try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles LIMIT 1").map { [UInt8]($0) } ?? []
            format = sample.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? .png : .mvt
        case let other?:
            throw BasemapError(code: .unsupported, message: "\(path): tile format \"\(other)\" is not supported (pbf or png)")
        }
        guard format == .mvt || format == .png else {
            throw BasemapError(code: .unsupported, message: "\(path): \(format) tiles are not supported (vector MVT or PNG only)")
        }
        var minZoom = values["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var maxZoom = values["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if minZoom == nil || maxZoom == nil {
            let row = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles")
            minZoom = minZoom ?? row?[0]
            maxZoom = maxZoom ?? row?[1]
        }
        guard let minZoom, let maxZoom else {
            throw BasemapError(code: .corruptArchive, message: "\(path): the archive holds no tiles")
        }
        guard minZoom >= 0, minZoom <= maxZoom, maxZoom <= TileID.maximumZoom else {
            throw BasemapError(code: .corruptArchive, message: "\(path): metadata zoom range \(minZoom)–\(maxZoom) is invalid")
        }
        var bounds: GeoBounds?
        if let text = values["bounds"] {
            let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if numbers.count == 4 {
                bounds = TileArchiveMetadata.bounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
            }
        }
        // The layers are in the `json` value (MBTiles 1.3), a JSON object with `vector_layers`.
        let json = values["json"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return TileArchiveMetadata(
            format: format, minZoom: minZoom, maxZoom: maxZoom, bounds: bounds,
            attribution: values["attribution"], name: values["name"],
            vectorLayers: json.map(VectorLayerInfo.layers(in:)) ?? [])
    }
}
