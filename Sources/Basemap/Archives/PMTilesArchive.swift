// A PMTiles v3 archive (one file: header, root directory, JSON metadata, leaf directories,
// tile data). Contract: opening reads and checks the header, the root directory and the
// metadata, so a damaged or foreign file is refused at once with a message naming it; tile
// lookups walk at most `maximumDepth` directory levels; leaf directories are cached (a
// bounded number, shared by all threads); tiles come back decompressed.

import Foundation
import Geo
import Synchronization

/// A PMTiles v3 archive opened read-only.
public final class PMTilesArchive: TileSource {
    public let metadata: TileArchiveMetadata
    public let identity: String
    private let source: any ByteSource
    private let header: PMTilesHeader
    private let root: [PMTilesEntry]
    private let leaves = Mutex(LeafCache())

    /// Directory levels below the root that a lookup follows (real archives use one).
    static let maximumDepth = 4
    /// Leaf directories kept decoded.
    static let leafCacheCount = 64

    /// Opens an archive file; throws naming the file when it is not a valid PMTiles v3 archive.
    public convenience init(path: String) throws(BasemapError) {
        let file = try FileBytes(path: path)
        let identity = "pmtiles:\(path):\(file.count):\(file.modified.timeIntervalSince1970)"
        try self.init(source: file, identity: identity)
    }

    /// An archive held in memory (tests, fuzzing); `name` stands for the file in messages.
    public convenience init(bytes: [UInt8], name: String = "<memory>") throws(BasemapError) {
        try self.init(source: MemoryBytes(bytes: bytes, name: name), identity: "pmtiles:\(name):\(bytes.count)")
    }

    init(source: any ByteSource, identity: String) throws(BasemapError) {
        self.source = source
        self.identity = identity
        let name = source.name
        guard source.count >= PMTilesHeader.size else {
            throw BasemapError(
                code: .notATileArchive,
                message: "\(name): \(source.count) bytes is too short for a PMTiles archive")
        }
        header = try PMTilesHeader(try source.read(offset: 0, length: PMTilesHeader.size), fileSize: source.count, name: name)
        for (what, compression) in [("directories", header.internalCompression), ("tiles", header.tileCompression)] {
            guard compression == .none || compression == .gzip || (what == "tiles" && compression == .unknown) else {
                throw BasemapError(
                    code: .unsupported,
                    message: "\(name): \(what) are compressed with \(compression); only gzip and none are supported")
            }
        }
        let format: TileFormat
        switch header.tileType {
        case 1: format = .mvt
        case 2: format = .png
        case 3: format = .jpeg
        case 4: format = .webp
        case 5: format = .avif
        default:
            throw BasemapError(code: .unsupported, message: "\(name): unknown tile type \(header.tileType)")
        }
        guard format == .mvt || format == .png else {
            throw BasemapError(code: .unsupported, message: "\(name): \(format) tiles are not supported (vector MVT or PNG only)")
        }
        let rootBytes = try source.read(offset: header.rootOffset, length: header.rootLength)
        root = try Self.directory(rootBytes, compression: header.internalCompression, what: "root directory", name: name)
        var attribution: String?
        var archiveName: String?
        var vectorLayers: [VectorLayerInfo] = []
        if header.metadataLength > 0 {
            let raw = try source.read(offset: header.metadataOffset, length: header.metadataLength)
            let json = try Self.decompress(raw, header.internalCompression, what: "metadata", name: name)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
                throw BasemapError(code: .corruptArchive, message: "\(name): the metadata is not a JSON object")
            }
            attribution = object["attribution"] as? String
            archiveName = object["name"] as? String
            vectorLayers = VectorLayerInfo.layers(in: object)
        }
        metadata = TileArchiveMetadata(
            format: format, minZoom: header.minZoom, maxZoom: header.maxZoom,
            bounds: TileArchiveMetadata.bounds(west: header.west, south: header.south, east: header.east, north: header.north),
            attribution: attribution, name: archiveName, vectorLayers: vectorLayers)
    }

    public func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        guard let raw = try rawTile(id) else { return nil }
        return try tile(raw, id: id)
    }

    public func storedTile(_ id: TileID) throws(BasemapError) -> StoredTile? {
        guard let raw = try rawTile(id) else { return nil }
        switch header.tileCompression {
        case .gzip: return StoredTile(bytes: raw, contentEncoding: "gzip")
        case .unknown: return StoredTile(bytes: raw, contentEncoding: StoredTile.encoding(of: raw))
        default: return StoredTile(bytes: raw, contentEncoding: nil)
        }
    }

    /// The tile's bytes as stored in the tile data section, nil when the directories have none.
    private func rawTile(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        guard id.isValid, id.zoom >= header.minZoom, id.zoom <= header.maxZoom else { return nil }
        let tileID = PMTilesDirectory.tileID(id)
        var entries = root
        for depth in 0...Self.maximumDepth {
            guard let entry = PMTilesDirectory.find(tileID, in: entries) else { return nil }
            if entry.runLength > 0 {
                guard entry.offset <= UInt64(header.tileDataLength),
                    entry.length <= UInt64(header.tileDataLength) - entry.offset
                else {
                    throw BasemapError(code: .corruptArchive, message: "\(source.name): tile \(id) lies outside the tile data")
                }
                return try source.read(offset: header.tileDataOffset + Int(entry.offset), length: Int(entry.length))
            }
            guard depth < Self.maximumDepth else { break }
            entries = try leaf(entry)
        }
        throw BasemapError(
            code: .corruptArchive,
            message: "\(source.name): leaf directories nest deeper than \(Self.maximumDepth) levels at tile \(id)")
    }

    private func tile(_ raw: [UInt8], id: TileID) throws(BasemapError) -> [UInt8] {
        switch header.tileCompression {
        case .gzip:
            return try Self.decompress(raw, .gzip, what: "tile \(id)", name: source.name)
        case .unknown where Inflate.isGzip(raw):
            return try Self.decompress(raw, .gzip, what: "tile \(id)", name: source.name)
        default:
            return raw
        }
    }

    private func leaf(_ entry: PMTilesEntry) throws(BasemapError) -> [PMTilesEntry] {
        if let cached = leaves.withLock({ $0.entries(at: entry.offset) }) { return cached }
        guard entry.offset <= UInt64(header.leafLength), entry.length <= UInt64(header.leafLength) - entry.offset else {
            throw BasemapError(
                code: .corruptArchive,
                message: "\(source.name): a leaf directory lies outside the leaf directory section")
        }
        let raw = try source.read(offset: header.leafOffset + Int(entry.offset), length: Int(entry.length))
        let entries = try Self.directory(raw, compression: header.internalCompression, what: "leaf directory", name: source.name)
        leaves.withLock { $0.insert(entries, at: entry.offset, limit: Self.leafCacheCount) }
        return entries
    }

    private static func directory(
        _ raw: [UInt8], compression: PMTilesHeader.Compression, what: String,
        name: String
    ) throws(BasemapError) -> [PMTilesEntry] {
        let bytes = try decompress(raw, compression, what: what, name: name)
        do throws(ProtobufReader.Failure) {
            return try PMTilesDirectory.decode(bytes)
        } catch {
            throw BasemapError(code: .corruptArchive, message: "\(name): the \(what) is damaged: \(error.reason)")
        }
    }

    private static func decompress(
        _ raw: [UInt8], _ compression: PMTilesHeader.Compression, what: String,
        name: String
    ) throws(BasemapError) -> [UInt8] {
        guard compression == .gzip else { return raw }
        do {
            return try Inflate.decompress(raw)
        } catch {
            throw BasemapError(code: .corruptArchive, message: "\(name): the \(what) does not inflate: \(error.message)")
        }
    }
}

/// Decoded leaf directories by offset, least recently inserted dropped first.
private struct LeafCache {
    private var directories: [UInt64: [PMTilesEntry]] = [:]
    private var order: [UInt64] = []

    func entries(at offset: UInt64) -> [PMTilesEntry]? { directories[offset] }

    mutating func insert(_ entries: [PMTilesEntry], at offset: UInt64, limit: Int) {
        guard directories[offset] == nil else { return }
        if order.count >= limit {
            directories[order.removeFirst()] = nil
        }
        directories[offset] = entries
        order.append(offset)
    }
}
