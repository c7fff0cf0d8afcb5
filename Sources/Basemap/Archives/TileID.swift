// Tile addresses in the XYZ scheme of web maps: zoom z, column x from the antimeridian
// eastwards, row y from the north downwards, each 0..<2^z. MBTiles stores rows the other way
// round (TMS); PMTiles numbers tiles along a Hilbert curve (PMTiles+Directory).

/// The address of one tile: zoom, column, row (XYZ, row 0 at the top).
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    /// The largest zoom any archive format here addresses (PMTiles ids fit in 64 bits to z31;
    /// no real archive goes past z22).
    public static let maximumZoom = 30

    /// Zoom level.
    public var zoom: Int
    /// Column, 0 at longitude -180.
    public var x: Int
    /// Row, 0 at the top (north).
    public var y: Int

    /// A tile address (not checked; see `isValid`).
    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// True when the zoom is in 0...maximumZoom and x, y lie inside its 2^zoom × 2^zoom grid.
    public var isValid: Bool {
        guard zoom >= 0, zoom <= Self.maximumZoom else { return false }
        let size = 1 << zoom
        return x >= 0 && y >= 0 && x < size && y < size
    }

    /// The tile one zoom level up that contains this one (itself at zoom 0).
    package var parent: TileID {
        zoom > 0 ? TileID(zoom: zoom - 1, x: x >> 1, y: y >> 1) : self
    }

    /// The row as MBTiles (TMS) numbers it: counted from the bottom.
    var tmsRow: Int { (1 << zoom) - 1 - y }

    /// "z/x/y".
    public var description: String { "\(zoom)/\(x)/\(y)" }
}
