// Opening a tile archive by looking at its first bytes: "PMTiles" for PMTiles v3, "SQLite
// format 3" for MBTiles; a folder is read as loose tiles (TileDirectory). Contract: anything
// else (or a file that cannot be read) is refused with a message naming the file and what it
// is, so `serve` can refuse to start with it.

import Foundation

/// Opens tile archives of either format.
public enum TileArchive {
    /// Opens a PMTiles or MBTiles file, chosen by its content (not its name), or a folder of
    /// loose tiles.
    public static func open(path: String) throws(BasemapError) -> any TileSource {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return try TileDirectory(path: path)
        }
        let file = try FileBytes(path: path)
        guard file.count > 0 else {
            throw BasemapError(code: .notATileArchive, message: "\(path): the file is empty, not a tile archive")
        }
        let head = try file.read(offset: 0, length: min(16, file.count))
        if head.starts(with: Array("PMTiles".utf8)) {
            return try PMTilesArchive(path: path)
        }
        if head.starts(with: Array("SQLite format 3\0".utf8)) {
            return try MBTilesArchive(path: path)
        }
        let shown = head.prefix(8).map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "."
        }.joined()
        throw BasemapError(
            code: .notATileArchive,
            message: "\(path): not a tile archive (expected PMTiles v3 or MBTiles/SQLite; the file starts with "
                + "\"\(shown)\")")
    }
}
