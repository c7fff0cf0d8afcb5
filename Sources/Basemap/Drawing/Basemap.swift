// The basemap: a tile archive, a style and caches of decoded tiles, of drawn grid squares
// (RenderedSquares) and of drawn labels (LabelPictures), drawn onto Raster canvases by any
// number of renders at once (DESIGN §13). Contract: `draw` never throws and
// never traps: tiles that cannot be read or decoded are skipped and reported once each
// through `report`; views that cannot be drawn (non-finite, absurd zoom) draw nothing.
// Everything drawn depends only on the archive's content, the style, the view and the
// keep-out rectangles, which `identity` fingerprints for caches and ETags.

import Foundation
import Raster
import Synchronization

/// A tile archive drawn with a map style.
public final class Basemap: Sendable {
    /// The default bound on decoded tiles kept in memory: 64 MB.
    public static let defaultCacheBytes = 64 << 20

    /// The tiles.
    public let source: any TileSource
    /// How they are drawn.
    public let style: MapStyle
    /// The attribution drawn in a corner: the archive's, HTML stripped, else OpenStreetMap's.
    package let attribution: String
    let cache: TileCache
    /// Pictures of the fills and lines of grid squares, for aligned views (RenderedSquares).
    let renderedSquares: RenderedSquares
    /// Pictures of placed labels (LabelPictures).
    let labelPictures: LabelPictures
    /// Labels placed over blocks of map tiles (Basemap+MapTiles).
    let labelBlocks: LabelBlocks
    private let report: @Sendable (String) -> Void
    private let reported = Mutex(Set<String>())
    /// Drawing buffers (scan-converter cells, paths, paint groups), kept grown between draws
    /// and shared by every basemap of the process: a day and a night style, or a basemap
    /// made anew, draw with buffers that already have their size, not ones that grow (and
    /// fault their pages in) again.
    static let scratchPool = Mutex<[PainterScratch]>([])

    /// A basemap over an opened archive. `cacheBytes` bounds the decoded tiles kept, and half
    /// as much again the pictures of squares kept (RenderedSquares); `report` receives one
    /// message per tile that cannot be used, and the style's warning.
    public convenience init(
        source: any TileSource, style: MapStyle, cacheBytes: Int = Basemap.defaultCacheBytes,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            source: source, style: style, cache: TileCache(capacity: cacheBytes), squares: RenderedSquares(capacity: cacheBytes / 2),
            labels: LabelPictures(capacity: cacheBytes / 8), blocks: LabelBlocks(capacity: cacheBytes / 16), report: report)
    }

    private init(
        source: any TileSource, style: MapStyle, cache: TileCache, squares: RenderedSquares, labels: LabelPictures,
        blocks: LabelBlocks, report: @escaping @Sendable (String) -> Void
    ) {
        self.source = source
        self.style = style
        self.report = report
        self.cache = cache
        renderedSquares = squares
        labelPictures = labels
        labelBlocks = blocks
        attribution = Attribution.text(from: source.metadata.attribution)
        if let warning = style.warning { report(warning) }
    }

    /// The same archive drawn with another style, sharing this basemap's decoded tiles (they
    /// do not depend on the style) and so its memory bound: a day and a night style cost one cache.
    package func restyled(_ style: MapStyle) -> Basemap {
        Basemap(
            source: source, style: style, cache: cache, squares: renderedSquares, labels: labelPictures, blocks: labelBlocks,
            report: report)
    }

    /// Changes when anything that decides the pictures changes: the archive file and the style.
    public var identity: String { "\(source.identity)|\(style.identity)" }

    /// What the style asks for that is not drawn (at most one message).
    package var warnings: [String] { style.warning.map { [$0] } ?? [] }

    /// Draws the basemap for `view` onto `canvas` (which must be the view's device size):
    /// background, fills, lines, then labels placed clear of `keepOut` (what the caller will
    /// draw over the map, device pixels) and of each other, then the attribution in the
    /// bottom-right corner of `attributionArea` (the part of the picture the map stays visible
    /// in; the whole canvas when nil). With `attribution` false the labels keep clear of the
    /// attribution's place but it is not drawn: the caller draws it last
    /// (``drawAttribution(into:view:area:)``), over its own drawing.
    @discardableResult
    public func draw(
        into canvas: inout Canvas, view: MapView, keepOut: [LabelObstacle] = [], attributionArea: Rect? = nil,
        attribution: Bool = true
    ) -> BasemapDrawStats {
        var scratch = Self.scratchPool.withLock { $0.popLast() } ?? PainterScratch()
        let fromSquares = drawSquares(into: &canvas, view: view, scratch: &scratch)
        let stats = paint(view, into: &canvas, scratch: &scratch) { painter, canvas in
            painter.paint(
                into: &canvas, keepOut: keepOut, geometry: !fromSquares, attributionArea: attributionArea, attribution: attribution)
        }
        Self.scratchPool.withLock { pool in
            if pool.count < Self.scratchPoolSize { pool.append(scratch) }
        }
        return stats
    }

    /// Runs `paint` with a painter for `view` on `canvas`, both drawing with `scratch`'s grown
    /// buffers; the canvas gets its own buffers back, and `scratch` the ones grown meanwhile.
    /// The buffers are moved, never shared: a second reference would make the first write to
    /// them copy them (copy on write).
    func paint(
        _ view: MapView, into canvas: inout Canvas, scratch: inout PainterScratch, _ paint: (inout MapPainter, inout Canvas) -> Void
    ) -> BasemapDrawStats {
        var buffers = PainterScratch()
        swap(&buffers, &scratch)
        var canvasScratch = CanvasScratch()
        swap(&canvasScratch, &buffers.canvas)
        canvas.exchangeScratch(&canvasScratch)
        var painter = MapPainter(basemap: self, view: view, recorder: nil, scratch: consume buffers)
        paint(&painter, &canvas)
        canvas.exchangeScratch(&canvasScratch)
        scratch = painter.leftovers
        scratch.canvas = canvasScratch
        return painter.stats
    }

    /// Scratch buffers kept for reuse: as many as draws that commonly run at once.
    static let scratchPoolSize = 4

    /// Puts the view's fills and lines together from pictures of its grid squares, drawing
    /// those missing when the view's squares were asked for before (RenderedSquares); false
    /// when the view is not on the grid or its squares are not drawn yet: the caller then
    /// draws the fills and lines directly.
    func drawSquares(into canvas: inout Canvas, view: MapView, scratch: inout PainterScratch) -> Bool {
        guard let grid = SquareGrid(view: view), canvas.width == view.pixelWidth, canvas.height == view.pixelHeight else { return false }
        let squares = grid.squares
        let keys = squares.map {
            RenderedSquares.Key(style: style.identity, zoom: Int(view.zoom), scale: view.scale, column: $0.column, row: $0.row)
        }
        var pictures = keys.map(renderedSquares.picture)
        if pictures.contains(where: { $0 == nil }) {
            guard renderedSquares.askedBefore(keys) else { return false }
            for index in pictures.indices where pictures[index] == nil {
                let picture = drawSquare(grid.squareView(column: squares[index].column, row: squares[index].row, margin: margin(view)), &scratch)
                renderedSquares.store(picture, for: keys[index])
                pictures[index] = picture
            }
        }
        for (index, picture) in pictures.enumerated() {
            guard let picture else { continue }
            let x = squares[index].column * SquareGrid.side - grid.left
            let y = squares[index].row * SquareGrid.side - grid.top
            if picture.isOpaque {
                canvas.replacePixels(with: picture.image, x: x, y: y)
            } else {
                canvas.draw(picture.image, transform: .translation(x: Double(x), y: Double(y)))
            }
        }
        return true
    }

    /// Map drawn around a square: more than half the widest line (and its anti-aliasing).
    private func margin(_ view: MapView) -> Int { Int((48 * view.scale).rounded(.up)) }

    /// Draws one square's fills and lines with its margin (`squareView`), and keeps the square.
    private func drawSquare(_ squareView: MapView, _ scratch: inout PainterScratch) -> RenderedSquares.Picture {
        var canvas = Canvas(width: squareView.pixelWidth, height: squareView.pixelHeight)
        _ = paint(squareView, into: &canvas, scratch: &scratch) { painter, canvas in painter.paint(into: &canvas, keepOut: [], labels: false) }
        let margin = (squareView.pixelWidth - SquareGrid.side) / 2
        var square = Canvas(width: SquareGrid.side, height: SquareGrid.side)
        square.replacePixels(with: canvas.image, x: -margin, y: -margin)
        let image = square.image
        return RenderedSquares.Picture(image: image, isOpaque: image.isOpaque)
    }

    /// The fills and lines `draw` would draw, as a display list in device pixels (fills as
    /// the polygons drawn, lines as centre lines with their stroke styles), for comparing
    /// the rasteriser with a reference renderer. Labels and the attribution are left out.
    public func geometryDisplayList(view: MapView) -> DisplayList {
        var recorder = DisplayListRecorder()
        var painter = MapPainter(basemap: self, view: view, recorder: recorder)
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        painter.paint(into: &canvas, keepOut: [], labels: false)
        recorder = painter.recorder ?? recorder
        return DisplayList(width: view.pixelWidth, height: view.pixelHeight, background: nil, operations: recorder.operations)
    }

    /// The attribution's plate for `view` in the bottom-right corner of `area` (the whole
    /// picture when nil), device pixels; nil when the picture is too small to carry it.
    public func attributionBox(view: MapView, area: Rect? = nil) -> Rect? {
        Attribution.plate(text: attribution, view: view, area: area, background: style.backgroundColor(atZoom: view.styleZoom))?.box
    }

    /// Draws the attribution where ``draw(into:view:keepOut:attributionArea:attribution:)``
    /// keeps its place, and returns its plate: for a caller that draws over the map first.
    @discardableResult
    public func drawAttribution(into canvas: inout Canvas, view: MapView, area: Rect? = nil) -> Rect? {
        guard view.isDrawable,
            let plate = Attribution.plate(text: attribution, view: view, area: area, background: style.backgroundColor(atZoom: view.styleZoom))
        else { return nil }
        Attribution.draw(plate, scale: view.scale, into: &canvas)
        return plate.box
    }

    /// Draws and returns the labels placed (for tests of placement).
    func placedLabels(into canvas: inout Canvas, view: MapView, keepOut: [LabelObstacle]) -> [PlacedLabel] {
        var painter = MapPainter(basemap: self, view: view, recorder: nil)
        painter.paint(into: &canvas, keepOut: keepOut)
        return painter.labels
    }

    /// Reports a problem once per distinct message.
    func reportOnce(_ message: String) {
        let isNew = reported.withLock { $0.insert(message).inserted }
        if isNew { report(message) }
    }
}

/// What one `draw` did, for logs and tests.
public struct BasemapDrawStats: Hashable, Sendable {
    /// The zoom of the tiles drawn (after clamping to the archive's range).
    package var tileZoom = 0
    /// Tile squares drawn with data.
    package var tiles = 0
    /// Tiles decoded during this draw (the rest came from the cache).
    package var tilesDecoded = 0
    /// Squares with no data at any zoom.
    package var tilesMissing = 0
    /// Tiles skipped because they could not be read or decoded.
    package var tilesFailed = 0
    /// Labels drawn.
    package var labels = 0
    /// Label candidates not drawn (overlaps, keep-outs, duplicates, no room).
    package var labelsDropped = 0
    /// The boxes of the labels drawn, device pixels: a point label's text block, a line
    /// label's glyphs one by one.
    package var labelBoxes: [Rect] = []
    /// The attribution's plate (drawn or only kept free), device pixels.
    package var attributionBox: Rect?

    /// All zeros.
    package init() {}
}
