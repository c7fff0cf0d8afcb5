// A tile's bytes exactly as its archive keeps them, for serving vector tiles to clients that
// draw them themselves (MapLibre): no inflate and deflate again on the way out. Contract:
// `contentEncoding` names the compression of `bytes` in HTTP's words ("gzip", "deflate" for
// a zlib stream), nil when they are not compressed; inflating them gives `tileData`'s bytes.

/// A tile as stored, with its compression.
public struct StoredTile: Hashable, Sendable {
    /// The stored bytes.
    public var bytes: [UInt8]
    /// The HTTP `Content-Encoding` of the bytes: "gzip", "deflate" (zlib), or nil for none.
    package var contentEncoding: String?

    /// A stored tile.
    package init(bytes: [UInt8], contentEncoding: String?) {
        self.bytes = bytes
        self.contentEncoding = contentEncoding
    }

    /// The encoding that compressed bytes announce by their first bytes (gzip's magic number,
    /// a zlib header); nil for anything else.
    static func encoding(of bytes: [UInt8]) -> String? {
        if Inflate.isGzip(bytes) { return "gzip" }
        if Inflate.isZlib(bytes) { return "deflate" }
        return nil
    }
}

extension TileSource {
    /// Sources that keep tiles uncompressed (or that cannot tell): the inflated bytes, as they are.
    public func storedTile(_ id: TileID) throws(BasemapError) -> StoredTile? {
        try tileData(id).map { StoredTile(bytes: $0, contentEncoding: nil) }
    }
}
