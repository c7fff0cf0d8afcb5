// Map tiles for web maps (DESIGN §15): the 256-pixel squares of the XYZ grid at whole zooms,
// drawn by the same path as every other picture (fills and lines directly or from the kept
// squares of RenderedSquares, whose grid is this one), and labelled so that tiles drawn one
// by one put together into one map. Contract:
// - a tile's fills and lines are those of any aligned picture that shows the same ground
//   (seams cannot show: each pixel's coverage comes from the geometry inside it alone);
// - labels are placed once per block of 4 × 4 tiles (fewer at zooms 0 and 1) over the whole
//   block, wholly inside it, and each tile draws the part of every block label that falls on
//   it: a label across a tile edge is drawn half by each neighbour, never cut off or drawn
//   twice. No label crosses a block edge (the placer keeps labels inside the picture it
//   places on), so blocks never need to agree with each other;
// - labels may keep clear of what a caller draws over the tiles (a trip's route and pins):
//   the caller gives the obstacles over the whole block under a key that names them, and
//   the block is placed around them once per key, so its tiles still agree with each other;
// - no attribution is drawn: web maps show it beside the map (TileJSON's `attribution`).

import Caching
import Foundation
import Geo
import Raster
import Synchronization

extension Basemap {
    /// The largest scale a tile is drawn at (a 1024-pixel tile).
    package static let maximumTileScale = 4.0

    /// The view of the map tile `tile` at `scale` (256 · scale device pixels a side); nil for
    /// an address outside the grid, past zoom 24, or a scale outside 1…4.
    public static func tileView(_ tile: TileID, scale: Double) -> MapView? {
        guard tile.isValid, tile.zoom <= 24, scale >= 1, scale <= maximumTileScale else { return nil }
        let side = Double(SquareGrid.side)
        let center = WebMercator.latLng(x: (Double(tile.x) + 0.5) * side, y: (Double(tile.y) + 0.5) * side, zoom: Double(tile.zoom))
        let pixels = Int((side * scale).rounded())
        return MapView(center: center, zoom: Double(tile.zoom), pixelWidth: pixels, pixelHeight: pixels, scale: scale)
    }

    /// The view of the label block holding `tile` at `scale`: the picture whose device pixels
    /// a ``TileKeepOut``'s obstacles are given in. Nil when `tileView` gives no view.
    package static func labelBlockView(containing tile: TileID, scale: Double) -> MapView? {
        guard tileView(tile, scale: scale) != nil else { return nil }
        return LabelBlock(containing: tile).view(scale: scale)
    }

    /// Draws the map tile `tile` (XYZ address, 256 pixels a side at scale 1) at `scale`: the
    /// background, fills and lines, and the labels of its block that fall on it, placed clear
    /// of `keepOut` when given; with what the draw did (`tiles` is 0 where the archive has no
    /// data at any zoom: the picture is then the style's background alone; `labelBoxes` are
    /// the boxes of the labels drawn on it, in the tile's device pixels). Nil when `tileView`
    /// gives no view.
    public func drawTile(_ tile: TileID, scale: Double, keepOut: TileKeepOut? = nil) -> (image: Image, stats: BasemapDrawStats)? {
        guard let view = Self.tileView(tile, scale: scale) else { return nil }
        let block = LabelBlock(containing: tile)
        let shift = block.shift(of: tile, scale: scale)
        let area = Rect(x: Double(shift.x), y: Double(shift.y), width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        let kept = keptBlockLabels(block, scale: scale, keepOut: keepOut)
        // The first tile of a block loads the block's source tiles together (in parallel, the
        // tile's own among them).
        if kept == nil { loadSquares(of: block.view(scale: scale)) }
        // Two parts at once: one places the block's labels (unless kept) and then draws the
        // pictures of those on the tile; the other draws the tile's fills and lines and then
        // helps with the pictures. The labels are copied onto the tile at the end.
        let pictures = LabelPictureQueue(kept.map { Self.labels($0, on: area) })
        let drawn = Mutex<(Canvas, BasemapDrawStats)?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                if kept == nil { pictures.start(Self.labels(blockLabels(block, scale: scale, keepOut: keepOut), on: area)) }
            } else {
                let geometry = drawGeometry(view)
                drawn.withLock { $0 = geometry }
            }
            drawPictures(pictures)
        }
        guard let geometry = drawn.withLock({ $0 }) else { return nil }
        var (canvas, stats) = geometry
        let onTile = pictures.labels
        LabelPlacer.draw(onTile, into: &canvas, shiftedBy: shift, pictures: labelPictures)
        stats.labels = onTile.count
        stats.labelBoxes = onTile.flatMap(\.boxes).map {
            Rect(x: $0.x - Double(shift.x), y: $0.y - Double(shift.y), width: $0.width, height: $0.height)
        }
        return (canvas.image, stats)
    }

    /// The labels among a block's whose letters or halo reach into `area` (block device pixels).
    private static func labels(_ labels: [PlacedLabel], on area: Rect) -> [PlacedLabel] {
        labels.filter { label in
            // The boxes hold the letters; the halo and its anti-aliasing reach a little past them.
            let reach = label.style.haloWidth + 2
            return label.boxes.contains { $0.insetBy(-reach).intersects(area) }
        }
    }

    /// Draws the pictures of the queue's labels not yet taken (kept in `labelPictures`, where
    /// drawing the labels finds them), with buffers from the pool; returns at once while the
    /// labels are not placed yet.
    private func drawPictures(_ queue: LabelPictureQueue) {
        guard var label = queue.take() else { return }
        var scratch = Self.scratchPool.withLock { $0.popLast() } ?? PainterScratch()
        while true {
            LabelPlacer.drawPictures(of: label, into: labelPictures, scratch: &scratch.canvas)
            guard let next = queue.take() else { break }
            label = next
        }
        Self.scratchPool.withLock { pool in
            if pool.count < Self.scratchPoolSize { pool.append(scratch) }
        }
    }

    /// The tile's background, fills and lines (from kept squares where it can), on a new canvas.
    private func drawGeometry(_ view: MapView) -> (Canvas, BasemapDrawStats) {
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        var scratch = Self.scratchPool.withLock { $0.popLast() } ?? PainterScratch()
        let fromSquares = drawSquares(into: &canvas, view: view, scratch: &scratch)
        let stats = paint(view, into: &canvas, scratch: &scratch) { painter, canvas in
            painter.paint(into: &canvas, keepOut: [], geometry: !fromSquares, labels: false)
        }
        Self.scratchPool.withLock { pool in
            if pool.count < Self.scratchPoolSize { pool.append(scratch) }
        }
        return (canvas, stats)
    }

    /// Loads (and caches) the source tiles `view` is drawn from, several at once.
    private func loadSquares(of view: MapView) {
        var painter = MapPainter(basemap: self, view: view, recorder: nil)
        painter.loadSquares()
    }

    /// Zoom levels a tile may be drawn from below its own and still count as inside the archive.
    static let nearbyLevels = 2

    /// True when the archive has data for `tile`'s ground: inside its bounds (when it gives
    /// them) and with a tile at the zoom `tile` is drawn from or at most `nearbyLevels` below.
    /// Drawing falls back further (a sparse archive), but a tile whose only data is many zooms
    /// away lies outside the archive: its picture would be the background alone.
    public func hasData(near tile: TileID) -> Bool {
        guard tile.isValid else { return false }
        let metadata = source.metadata
        if let bounds = metadata.bounds {
            let side = 256.0
            let north = WebMercator.latLng(x: Double(tile.x) * side, y: Double(tile.y) * side, zoom: Double(tile.zoom))
            let south = WebMercator.latLng(x: Double(tile.x + 1) * side, y: Double(tile.y + 1) * side, zoom: Double(tile.zoom))
            guard north.longitude <= bounds.east, south.longitude >= bounds.west, south.latitude <= bounds.north,
                north.latitude >= bounds.south
            else { return false }
        }
        // The zoom a picture of the tile takes its data from (TileCover's rule).
        let wanted = metadata.format.isVector ? tile.zoom - 1 : tile.zoom
        var zoom = min(max(wanted, metadata.minZoom, 0), metadata.maxZoom)
        let lowest = max(zoom - Self.nearbyLevels, metadata.minZoom, 0)
        while zoom >= lowest {
            let levels = tile.zoom - zoom
            let id =
                levels >= 0
                ? TileID(zoom: zoom, x: tile.x >> levels, y: tile.y >> levels) : TileID(zoom: zoom, x: tile.x << -levels, y: tile.y << -levels)
            switch content(id).content {
            case .vector, .raster: return true
            case .missing, .failed: zoom -= 1
            }
        }
        return false
    }

    /// The tiles whose labels are placed together with `tile`'s (its label block), row by row.
    public static func labelBlockTiles(containing tile: TileID) -> [TileID] {
        let block = LabelBlock(containing: tile)
        let side = block.side
        return (0..<side * side).map { TileID(zoom: tile.zoom, x: block.column * side + $0 % side, y: block.row * side + $0 / side) }
    }

    /// The labels placed over `block` at `scale` clear of `keepOut` when they are kept; nil
    /// when they are not placed yet.
    func keptBlockLabels(_ block: LabelBlock, scale: Double, keepOut: TileKeepOut?) -> [PlacedLabel]? {
        labelBlocks.kept(LabelBlocks.Key(style: style.identity, block: block, scale: scale, keepOut: keepOut?.key ?? ""))
    }

    /// The labels placed over `block` at `scale` clear of `keepOut`, in the block's device
    /// pixels: kept, or placed now.
    func blockLabels(_ block: LabelBlock, scale: Double, keepOut: TileKeepOut? = nil) -> [PlacedLabel] {
        let key = LabelBlocks.Key(style: style.identity, block: block, scale: scale, keepOut: keepOut?.key ?? "")
        return labelBlocks.labels(key) {
            var painter = MapPainter(basemap: self, view: block.view(scale: scale), recorder: nil)
            return painter.placeLabels(keepOut: keepOut?.obstacles ?? [])
        }
    }
}

extension MapPainter {
    /// Places the labels of every visible symbol layer over the whole view, clear of
    /// `keepOut`, without drawing anything (the labels of a block of tiles).
    mutating func placeLabels(keepOut: [LabelObstacle]) -> [PlacedLabel] {
        guard view.isDrawable else { return [] }
        loadSquares()
        var placer = LabelPlacer(view: view, keepOut: keepOut)
        for layer in basemap.style.layers where layer.isVisible(atZoom: styleZoom) {
            if case .symbol(let properties) = layer.properties { collectLabels(layer, properties, into: &placer) }
        }
        placer.place()
        return placer.placed
    }
}

/// The labels of a tile whose pictures are still to draw, handed out one at a time to the
/// parts of a tile's draw that have time for them.
final class LabelPictureQueue: Sendable {
    private let state: Mutex<(labels: [PlacedLabel]?, next: Int)>

    /// A queue of `labels`, or one waiting for them (`start`) when nil.
    init(_ labels: [PlacedLabel]?) {
        state = Mutex((labels, 0))
    }

    /// Hands out `labels` (once they are placed).
    func start(_ labels: [PlacedLabel]) {
        state.withLock { $0.labels = labels }
    }

    /// The next label not yet taken; nil when all are, or before `start`.
    func take() -> PlacedLabel? {
        state.withLock { state in
            guard let labels = state.labels, state.next < labels.count else { return nil }
            state.next += 1
            return labels[state.next - 1]
        }
    }

    /// Every label (empty before `start`).
    var labels: [PlacedLabel] { state.withLock { $0.labels ?? [] } }
}

/// A square block of map tiles at one zoom whose labels are placed together.
struct LabelBlock: Hashable, Sendable {
    /// Tiles per side of a block (fewer where the world is smaller).
    static let tilesPerSide = 4

    let zoom: Int
    /// The block's column and row among blocks of its zoom.
    let column: Int
    let row: Int

    /// The block holding `tile`.
    init(containing tile: TileID) {
        zoom = tile.zoom
        let side = Self.side(zoom: tile.zoom)
        column = tile.x / side
        row = tile.y / side
    }

    /// Tiles per side at `zoom`: 4, or the whole world where it is smaller.
    static func side(zoom: Int) -> Int { min(tilesPerSide, 1 << zoom) }

    var side: Int { Self.side(zoom: zoom) }

    /// The view of the whole block at `scale`.
    func view(scale: Double) -> MapView {
        let tile = Double(SquareGrid.side)
        let blockSide = Double(side) * tile
        let center = WebMercator.latLng(
            x: (Double(column) + 0.5) * blockSide, y: (Double(row) + 0.5) * blockSide, zoom: Double(zoom))
        let pixels = side * Int((tile * scale).rounded())
        return MapView(center: center, zoom: Double(zoom), pixelWidth: pixels, pixelHeight: pixels, scale: scale)
    }

    /// Where `tile`'s top-left corner lies in the block's view, in device pixels.
    func shift(of tile: TileID, scale: Double) -> (x: Int, y: Int) {
        let pixels = Int((Double(SquareGrid.side) * scale).rounded())
        return ((tile.x - column * side) * pixels, (tile.y - row * side) * pixels)
    }
}

/// Label placements of tile blocks, shared by a basemap and its restyled twins, bounded in bytes.
final class LabelBlocks: Sendable {
    struct Key: Hashable, Sendable {
        let style: String
        let block: LabelBlock
        let scale: Double
        /// The ``TileKeepOut`` key the labels keep clear of; empty for none.
        let keepOut: String
    }

    private let placements: BoundedCache<Key, [PlacedLabel]>

    /// At most `capacity` bytes of placed labels (their outlines).
    init(capacity: Int) {
        placements = BoundedCache(capacity: 4_096, costLimit: max(capacity, 0))
    }

    /// The labels kept for `key`, if any.
    func kept(_ key: Key) -> [PlacedLabel]? {
        placements.value(forKey: key)
    }

    /// The labels kept for `key`, else `place()`'s, kept.
    func labels(_ key: Key, place: () -> [PlacedLabel]) -> [PlacedLabel] {
        placements.value(forKey: key, cost: Self.cost, orMake: place)
    }

    /// Bytes held now.
    var byteCount: Int { placements.totalCost }

    private static func cost(_ labels: [PlacedLabel]) -> Int {
        labels.reduce(256) { total, label in
            total + 128 + label.glyphs.glyphs.count * 64 + label.glyphs.lines.count * 64 + label.boxes.count * 32
        }
    }
}

/// What the labels of a tile's block keep clear of: what a caller draws over the tiles (a
/// trip's route and pins), in the device pixels of the block's view
/// (``Basemap/labelBlockView(containing:scale:)``), under a key that changes whenever the
/// obstacles do (placements are kept by block and key, and all tiles of a block must be drawn
/// from the same one).
public struct TileKeepOut: Sendable {
    /// Names the obstacles (with the block: the caller computes them per block).
    package let key: String
    /// The obstacles, in the block view's device pixels.
    package let obstacles: [LabelObstacle]

    /// Obstacles `obstacles` under `key`.
    package init(key: String, obstacles: [LabelObstacle]) {
        self.key = key
        self.obstacles = obstacles
    }
}
