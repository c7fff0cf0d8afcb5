// The fixed 127-byte header of a PMTiles v3 archive: magic "PMTiles", version 3, then
// little-endian offsets and lengths of the root directory, the metadata, the leaf directories
// and the tile data, three counts, the clustered flag, internal and tile compression, tile
// type, zoom range, bounds and centre (degrees × 10^7). Contract: parsing checks the magic,
// the version and that every section lies inside the file, so later reads only need to
// check offsets inside sections.

/// A PMTiles v3 header.
struct PMTilesHeader: Hashable, Sendable {
    /// The header's size in bytes.
    static let size = 127

    /// How directories, metadata or tiles are compressed.
    enum Compression: UInt8 {
        case unknown = 0
        case none = 1
        case gzip = 2
        case brotli = 3
        case zstd = 4
    }

    let rootOffset: Int
    let rootLength: Int
    let metadataOffset: Int
    let metadataLength: Int
    let leafOffset: Int
    let leafLength: Int
    let tileDataOffset: Int
    let tileDataLength: Int
    let internalCompression: Compression
    let tileCompression: Compression
    let tileType: UInt8
    let minZoom: Int
    let maxZoom: Int
    let west: Double
    let south: Double
    let east: Double
    let north: Double

    /// Parses and checks a header against the size of its file; `name` goes into messages.
    init(_ bytes: [UInt8], fileSize: Int, name: String) throws(BasemapError) {
        guard bytes.count >= Self.size, Array(bytes[0..<7]) == Array("PMTiles".utf8) else {
            throw BasemapError(code: .notATileArchive, message: "\(name): not a PMTiles archive (no \"PMTiles\" magic)")
        }
        guard bytes[7] == 3 else {
            throw BasemapError(code: .unsupported, message: "\(name): PMTiles version \(bytes[7]); only version 3 is supported")
        }
        func u64(_ at: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
            return value
        }
        func i32(_ at: Int) -> Double {
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(bytes[at + index]) << (8 * UInt32(index)) }
            return Double(Int32(bitPattern: value)) / 10_000_000
        }
        func section(_ at: Int, _ what: String) throws(BasemapError) -> (Int, Int) {
            let offset = u64(at)
            let length = u64(at + 8)
            guard offset <= UInt64(fileSize), length <= UInt64(fileSize) - offset else {
                throw BasemapError(
                    code: .corruptArchive,
                    message: "\(name): the \(what) (\(length) bytes at \(offset)) lies past the end of the "
                        + "\(fileSize)-byte file; is the file truncated?")
            }
            return (Int(offset), Int(length))
        }
        (rootOffset, rootLength) = try section(8, "root directory")
        (metadataOffset, metadataLength) = try section(24, "metadata")
        (leafOffset, leafLength) = try section(40, "leaf directories")
        (tileDataOffset, tileDataLength) = try section(56, "tile data")
        guard let internalCompression = Compression(rawValue: bytes[97]),
            let tileCompression = Compression(rawValue: bytes[98])
        else {
            throw BasemapError(code: .corruptArchive, message: "\(name): unknown compression codes \(bytes[97]), \(bytes[98])")
        }
        self.internalCompression = internalCompression
        self.tileCompression = tileCompression
        tileType = bytes[99]
        minZoom = Int(bytes[100])
        maxZoom = Int(bytes[101])
        west = i32(102)
        south = i32(106)
        east = i32(110)
        north = i32(114)
        guard rootLength > 0 else { throw BasemapError(code: .corruptArchive, message: "\(name): the root directory is empty") }
        guard minZoom <= maxZoom, maxZoom <= TileID.maximumZoom else {
            throw BasemapError(code: .corruptArchive, message: "\(name): zoom range \(minZoom)–\(maxZoom) is invalid")
        }
    }
}
