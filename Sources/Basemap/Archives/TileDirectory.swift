// Loose vector tiles in a folder, as tools and test data often leave them: `z/x/y.mvt` (or
// `.pbf`) in folders, or `z-x-y.mvt` side by side, gzip'd or not (a `.gz` suffix, or gzip's
// magic bytes). Contract: the folder is listed once when opened (tiles added later are not
// seen); names that are not tile addresses are ignored; a folder without any tile is refused
// with a message naming it. Rows are XYZ (row 0 at the top), as web maps name tiles.

import Foundation
import Geo

/// A folder of loose vector tiles, opened read-only.
package final class TileDirectory: TileSource {
    package let metadata: TileArchiveMetadata
    package let identity: String
    private let files: [TileID: String]

    /// Opens a folder of tiles; throws naming the folder when it holds none.
    package init(path: String) throws(BasemapError) {
        let root = URL(fileURLWithPath: path)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw BasemapError(code: .io, message: "\(path): cannot list the folder")
        }
        var files: [TileID: String] = [:]
        var newest = 0.0
        for case let url as URL in enumerator {
            guard let id = Self.tileID(relativePath: String(url.path.dropFirst(root.path.count)).split(separator: "/").map(String.init))
            else { continue }
            files[id] = url.path
            let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate)?.timeIntervalSince1970
            newest = max(newest, modified ?? 0)
        }
        guard let zooms = files.keys.map(\.zoom).min().flatMap({ low in files.keys.map(\.zoom).max().map { (low, $0) } }) else {
            throw BasemapError(code: .notATileArchive, message: "\(path): the folder holds no tiles named z/x/y.mvt or z-x-y.mvt")
        }
        let deepest = files.keys.filter { $0.zoom == zooms.1 }
        let scale = 256.0
        let corners = deepest.flatMap { id in
            [
                WebMercator.latLng(x: Double(id.x) * scale, y: Double(id.y) * scale, zoom: Double(id.zoom)),
                WebMercator.latLng(x: Double(id.x + 1) * scale, y: Double(id.y + 1) * scale, zoom: Double(id.zoom)),
            ]
        }
        self.files = files
        identity = "directory:\(path):\(files.count):\(newest)"
        metadata = TileArchiveMetadata(format: .mvt, minZoom: zooms.0, maxZoom: zooms.1, bounds: GeoBounds(corners), name: root.lastPathComponent)
    }

    package func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        guard let path = files[id] else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BasemapError(code: .io, message: "\(path): cannot read tile \(id)")
        }
        let bytes = [UInt8](data)
        guard Inflate.isCompressed(bytes) else { return bytes }
        return try Inflate.decompress(bytes)
    }

    /// The tile a file names: `z/x/y.ext` (the last three components) or `z-x-y.ext`, with
    /// `.mvt` or `.pbf` and an optional `.gz`.
    static func tileID(relativePath components: [String]) -> TileID? {
        guard var name = components.last else { return nil }
        if name.hasSuffix(".gz") { name.removeLast(3) }
        guard name.hasSuffix(".mvt") || name.hasSuffix(".pbf") else { return nil }
        name.removeLast(4)
        let numbers: [Int]
        if name.contains("-") {
            numbers = name.split(separator: "-").compactMap { Int($0) }
            guard name.split(separator: "-").count == 3 else { return nil }
        } else {
            guard components.count >= 3 else { return nil }
            numbers = [Int(components[components.count - 3]), Int(components[components.count - 2]), Int(name)].compactMap { $0 }
        }
        guard numbers.count == 3 else { return nil }
        let id = TileID(zoom: numbers[0], x: numbers[1], y: numbers[2])
        return id.isValid ? id : nil
    }
}
