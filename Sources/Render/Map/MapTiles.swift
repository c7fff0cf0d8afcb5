// Map tiles as web maps fetch them (DESIGN §15): PNG pictures of the XYZ grid drawn by
// Basemap, in each style the basemap layer draws with, kept once drawn. Contract:
// - a tile is drawn at most once per process while it stays in the memory cache (bounded in
//   bytes, least recently used first out) and at most once per archive and style while it
//   stays in the tile directory, when one is given;
// - a tile outside the archive (Basemap.hasData(near:)) is `.empty` (no picture, nothing kept
//   on disk);
// - the tag changes whenever the pixels may: with the archive, the style, the address, the
//   scale and `drawingVersion`; a picture found on disk was drawn from the same archive and
//   style (its folder is named after them);
// - a tile with a trip on top (TripTileObstacles) has its labels placed clear of the trip's
//   route and pins; where the trip touches none of the tile's label block it is the plain
//   tile (same picture, same tag); elsewhere it is kept in memory only, under the trip's key,
//   and its tag adds that key.

import Basemap
import Caching
import Foundation
import Raster
import Styling
import Synchronization

/// Drawn map tiles of a basemap layer, cached.
package final class MapTiles: Sendable {
    /// A tile's answer.
    package enum Tile: Sendable, Equatable {
        /// The PNG, and its tag (an HTTP entity tag without quotes).
        case picture(png: [UInt8], tag: String)
        /// No map data there at any zoom.
        case empty(tag: String)

        /// The tag either way.
        package var tag: String {
            switch self {
            case .picture(_, let tag), .empty(let tag): tag
            }
        }
    }

    /// Changes when the drawing of tiles changes, so old pictures on disk and in browsers go.
    package static let drawingVersion = "tiles-1"
    /// The scales a tile is drawn at (256, 512, 768 or 1024 pixels).
    package static let scales = 1...4

    /// The tiles and styles.
    package let layer: BasemapLayer
    /// Basemaps by the name tile URLs use.
    private let basemaps: [String: Basemap]
    private let pictures: BoundedCache<Key, Tile>
    /// Glyph ranges by font stack and first code point (they depend on neither archive nor style).
    private let glyphRanges = BoundedCache<String, [UInt8]>(capacity: 256, costLimit: 16 << 20)
    /// Where drawn tiles are kept across restarts; nil for memory only.
    package let directory: String?
    private let report: @Sendable (String) -> Void
    private let reportedWriteFailure = Mutex(false)

    private struct Key: Hashable, Sendable {
        let style: String
        let tile: TileID
        let scale: Int
        /// The TripTileObstacles key its labels keep clear of; empty for none.
        var avoiding = ""
    }

    /// Tiles of `layer`, at most `memoryBytes` of PNGs kept in memory, and every tile drawn
    /// kept in `directory` when given (created when missing). `report` hears of tiles that
    /// cannot be written to the directory, once per process.
    package init(
        layer: BasemapLayer, memoryBytes: Int = 32 << 20, directory: String? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.layer = layer
        var basemaps: [String: Basemap] = [:]
        for name in layer.styleNames {
            guard let basemap = layer.basemap(named: name) else { continue }
            basemaps[Self.urlName(name)] = basemap
        }
        self.basemaps = basemaps
        pictures = BoundedCache(capacity: max(memoryBytes / 2_048, 16), costLimit: max(memoryBytes, 0))
        self.directory = directory
        self.report = report
    }

    /// The style names tile URLs take, sorted.
    package var styleNames: [String] { basemaps.keys.sorted() }

    /// The basemap behind a style name of tile URLs.
    package func basemap(style: String) -> Basemap? { basemaps[style] }

    /// The name a style goes by in URLs: a built-in name as it is, a style file by its file
    /// name without `.json`, reduced to letters, digits, `-` and `_`.
    static func urlName(_ name: String) -> String {
        let file = (name as NSString).lastPathComponent
        let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        let kept = stem.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "-" || scalar == "_" ? String(scalar) : "-"
        }.joined()
        return kept.isEmpty ? "style" : kept
    }

    /// The tag of a tile without drawing it (for `If-None-Match`); nil for an unknown style,
    /// an address outside the grid or a scale outside `scales`.
    package func tag(style: String, tile: TileID, scale: Int) -> String? {
        guard let basemap = basemaps[style], Self.scales.contains(scale), Basemap.tileView(tile, scale: Double(scale)) != nil else {
            return nil
        }
        var fingerprint = Fingerprint()
        fingerprint.add(Self.drawingVersion)
        fingerprint.add(basemap.identity)
        fingerprint.add("\(tile.zoom)/\(tile.x)/\(tile.y)@\(scale)")
        return "t" + fingerprint.hex
    }

    /// The tile `tile` of `style` at `scale`: kept, or drawn now (and kept). Nil for an
    /// unknown style, an address outside the grid or a scale outside `scales`.
    package func tile(style: String, tile: TileID, scale: Int) -> Tile? {
        guard let tag = tag(style: style, tile: tile, scale: scale), let basemap = basemaps[style] else { return nil }
        let key = Key(style: style, tile: tile, scale: scale)
        if let kept = pictures.value(forKey: key) { return kept }
        let file = path(for: key, basemap: basemap)
        if let file, let bytes = FileManager.default.contents(atPath: file) {
            let found = Tile.picture(png: [UInt8](bytes), tag: tag)
            pictures.setValue(found, forKey: key, cost: bytes.count + 64)
            return found
        }
        let drawn = draw(basemap, key, tag: tag)
        if case .picture(let png, _) = drawn, let file { keep(png, at: file) }
        pictures.setValue(drawn, forKey: key, cost: Self.cost(drawn))
        return drawn
    }

    /// The tile as kept in memory now, without reading the directory or drawing: nil when it is
    /// not there (then ``tile(style:tile:scale:)`` or ``tile(style:tile:scale:avoiding:)``,
    /// which may take a while, gives it). With `trip`, the tile with its labels clear of it.
    package func keptTile(style: String, tile: TileID, scale: Int, avoiding trip: TripTileObstacles? = nil) -> Tile? {
        var key = Key(style: style, tile: tile, scale: scale)
        if let trip, keepOut(tile: tile, scale: scale, avoiding: trip) != nil { key.avoiding = trip.key }
        return pictures.value(forKey: key)
    }

    /// The tag of `tile` with its labels clear of `trip`, without drawing it (for
    /// `If-None-Match`): the plain tile's where the trip touches none of its label block.
    /// Nil as for ``tag(style:tile:scale:)``.
    package func tag(style: String, tile: TileID, scale: Int, avoiding trip: TripTileObstacles) -> String? {
        guard let plain = tag(style: style, tile: tile, scale: scale) else { return nil }
        return keepOut(tile: tile, scale: scale, avoiding: trip) == nil ? plain : plain + trip.key
    }

    /// The tile `tile` of `style` at `scale` with its labels placed clear of `trip`'s routes
    /// and pins: the plain tile where the trip touches none of its label block, else kept or
    /// drawn now (and kept in memory). Nil as for ``tile(style:tile:scale:)``.
    package func tile(style: String, tile: TileID, scale: Int, avoiding trip: TripTileObstacles) -> Tile? {
        guard let plain = tag(style: style, tile: tile, scale: scale), let basemap = basemaps[style] else { return nil }
        guard let keepOut = keepOut(tile: tile, scale: scale, avoiding: trip) else { return self.tile(style: style, tile: tile, scale: scale) }
        let key = Key(style: style, tile: tile, scale: scale, avoiding: trip.key)
        if let kept = pictures.value(forKey: key) { return kept }
        let drawn = draw(basemap, key, tag: plain + trip.key, keepOut: keepOut)
        pictures.setValue(drawn, forKey: key, cost: Self.cost(drawn))
        return drawn
    }

    /// What the labels of `tile`'s block keep clear of: nil where the trip touches none of it.
    private func keepOut(tile: TileID, scale: Int, avoiding trip: TripTileObstacles) -> TileKeepOut? {
        guard let view = Basemap.labelBlockView(containing: tile, scale: Double(scale)) else { return nil }
        let obstacles = trip.obstacles(in: view)
        return obstacles.isEmpty ? nil : TileKeepOut(key: trip.key, obstacles: obstacles)
    }

    /// The glyphs of code points `first`…`first + 255` of `fontStack` for MapLibre clients
    /// (GlyphRange), kept once made; nil for a range that is not one.
    package func glyphs(fontStack: String, first: Int) -> [UInt8]? {
        let key = "\(first)|\(fontStack)"
        if let kept = glyphRanges.value(forKey: key) { return kept }
        guard let made = GlyphRange.pbf(fontStack: fontStack, first: first) else { return nil }
        glyphRanges.setValue(made, forKey: key, cost: made.count + 64)
        return made
    }

    /// Bytes of PNGs held in memory now.
    package var memoryByteCount: Int { pictures.totalCost }

    private func draw(_ basemap: Basemap, _ key: Key, tag: String, keepOut: TileKeepOut? = nil) -> Tile {
        guard basemap.hasData(near: key.tile), let drawn = basemap.drawTile(key.tile, scale: Double(key.scale), keepOut: keepOut),
            drawn.stats.tiles > 0,
            let png = try? PNGCodec.encode(drawn.image)
        else { return .empty(tag: tag) }
        return .picture(png: png, tag: tag)
    }

    private static func cost(_ tile: Tile) -> Int {
        switch tile {
        case .picture(let png, _): png.count + 64
        case .empty: 64
        }
    }

    /// The tile's file: `DIR/<archive and style>/<style>/<z>/<x>/<y>@<scale>x.png`.
    private func path(for key: Key, basemap: Basemap) -> String? {
        guard let directory else { return nil }
        var fingerprint = Fingerprint()
        fingerprint.add(Self.drawingVersion)
        fingerprint.add(basemap.identity)
        return "\(directory)/\(fingerprint.hex)/\(key.style)/\(key.tile.zoom)/\(key.tile.x)/\(key.tile.y)@\(key.scale)x.png"
    }

    /// Writes a tile's file whole or not at all (a temporary file renamed into place), so a
    /// reader never sees half a picture; the first failure is reported.
    private func keep(_ png: [UInt8], at path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).\(UUID().uuidString).tmp"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(png).write(to: URL(fileURLWithPath: temporary))
            if rename(temporary, path) != 0 { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            guard
                !reportedWriteFailure.withLock({ reported in
                    defer { reported = true }
                    return reported
                })
            else { return }
            report("map tiles: cannot keep tiles in \(directory ?? folder) (\(error.localizedDescription)); drawing them each time instead")
        }
    }
}
