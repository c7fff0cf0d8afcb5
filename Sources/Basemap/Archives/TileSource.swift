// The one seam between tile archives and drawing (DESIGN §13): a source opened once,
// read-only, shared by every request. Contract: `tileData` returns the tile's bytes already
// decompressed (an MVT protobuf, or an image file), nil when the archive has no tile at that
// address (an empty tile, not an error), and throws only when the archive itself is damaged.
// Implementations are safe to call from many threads at once.

import Geo

/// What a tile archive's tiles are.
public enum TileFormat: String, Hashable, Sendable, CustomStringConvertible {
    /// Mapbox Vector Tiles (protobuf).
    case mvt
    /// PNG images.
    case png
    /// JPEG images (listed so they can be refused by name; not drawn).
    case jpeg
    /// WebP images (listed so they can be refused by name; not drawn).
    case webp
    /// AVIF images (listed so they can be refused by name; not drawn).
    case avif

    /// True for vector tiles.
    package var isVector: Bool { self == .mvt }

    /// The format's name.
    public var description: String { rawValue }
}

/// What an archive says about itself.
public struct TileArchiveMetadata: Hashable, Sendable {
    /// The tiles' format.
    public var format: TileFormat
    /// The lowest zoom with tiles.
    public var minZoom: Int
    /// The highest zoom with tiles; views past it are drawn from its tiles, scaled up.
    public var maxZoom: Int
    /// The area with tiles; nil when the archive gives none (or gives zeros, as some do).
    package var bounds: GeoBounds?
    /// The attribution text as the archive gives it (it may hold HTML).
    package var attribution: String?
    /// The archive's name, if it gives one.
    public var name: String?
    /// The layers of its vector tiles, as its metadata lists them (empty when it does not).
    package var vectorLayers: [VectorLayerInfo]

    /// Metadata from its parts.
    public init(
        format: TileFormat, minZoom: Int, maxZoom: Int, bounds: GeoBounds? = nil, attribution: String? = nil,
        name: String? = nil, vectorLayers: [VectorLayerInfo] = []
    ) {
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.attribution = attribution
        self.name = name
        self.vectorLayers = vectorLayers
    }

    /// Bounds from west, south, east, north in degrees; nil when all are zero or any is
    /// out of range (zeros mean "not given" in files made by some tools).
    static func bounds(west: Double, south: Double, east: Double, north: Double) -> GeoBounds? {
        let values = [west, south, east, north]
        guard values.allSatisfy(\.isFinite), values.contains(where: { $0 != 0 }) else { return nil }
        guard abs(west) <= 180, abs(east) <= 180, abs(south) <= 90, abs(north) <= 90, south <= north else { return nil }
        return GeoBounds(south: south, west: west, north: north, east: east)
    }
}

/// A tile archive opened read-only, shared by all requests.
public protocol TileSource: Sendable {
    /// What the archive says about itself.
    var metadata: TileArchiveMetadata { get }
    /// A string that changes when the archive's content does (the file's path, size and
    /// modification time), for caches and HTTP ETags.
    var identity: String { get }
    /// The tile's decompressed bytes, or nil when the archive has no tile at `id`. Throws
    /// when the archive is damaged.
    func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]?
    /// The tile's bytes as the archive keeps them (compressed or not), or nil when the archive
    /// has no tile at `id`; throws when the archive is damaged.
    func storedTile(_ id: TileID) throws(BasemapError) -> StoredTile?
}
