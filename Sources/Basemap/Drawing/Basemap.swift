// The basemap: a tile archive, a style and a cache of decoded tiles, drawn onto Raster
// canvases by any number of renders at once (DESIGN §13). Contract: `draw` never throws and
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
    public let attribution: String
    let cache: TileCache
    private let report: @Sendable (String) -> Void
    private let reported = Mutex(Set<String>())
    /// Drawing buffers (scan-converter cells, paths, paint groups), kept grown between draws
    /// and shared by every basemap of the process: a day and a night style, or a basemap
    /// made anew, draw with buffers that already have their size, not ones that grow (and
    /// fault their pages in) again.
    private static let scratchPool = Mutex<[PainterScratch]>([])

    /// A basemap over an opened archive. `cacheBytes` bounds the decoded tiles kept;
    /// `report` receives one message per tile that cannot be used, and the style's warning.
    public convenience init(
        source: any TileSource, style: MapStyle, cacheBytes: Int = Basemap.defaultCacheBytes,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(source: source, style: style, cache: TileCache(capacity: cacheBytes), report: report)
    }

    private init(source: any TileSource, style: MapStyle, cache: TileCache, report: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.style = style
        self.report = report
        self.cache = cache
        attribution = Attribution.text(from: source.metadata.attribution)
        if let warning = style.warning { report(warning) }
    }

    /// The same archive drawn with another style, sharing this basemap's decoded tiles (they
    /// do not depend on the style) and so its memory bound: a day and a night style cost one cache.
    public func restyled(_ style: MapStyle) -> Basemap {
        Basemap(source: source, style: style, cache: cache, report: report)
    }

    /// Changes when anything that decides the pictures changes: the archive file and the style.
    public var identity: String { "\(source.identity)|\(style.identity)" }

    /// What the style asks for that is not drawn (at most one message).
    public var warnings: [String] { style.warning.map { [$0] } ?? [] }

    /// Draws the basemap for `view` onto `canvas` (which must be the view's device size):
    /// background, fills, lines, then labels placed clear of `keepOut` (device pixels) and of
    /// each other, then the attribution in the bottom-right corner of `attributionArea` (the
    /// part of the picture the map stays visible in; the whole canvas when nil).
    @discardableResult
    public func draw(into canvas: inout Canvas, view: MapView, keepOut: [Rect] = [], attributionArea: Rect? = nil) -> BasemapDrawStats {
        var scratch = Self.scratchPool.withLock { $0.popLast() } ?? PainterScratch()
        // The canvas draws the map with the pool's grown scan-converter buffers, then gets its own back.
        var canvasScratch = scratch.canvas
        scratch.canvas = CanvasScratch()
        canvas.exchangeScratch(&canvasScratch)
        var painter = MapPainter(basemap: self, view: view, recorder: nil, scratch: scratch)
        painter.paint(into: &canvas, keepOut: keepOut, attributionArea: attributionArea)
        canvas.exchangeScratch(&canvasScratch)
        var leftovers = painter.leftovers
        leftovers.canvas = canvasScratch
        Self.scratchPool.withLock { pool in
            if pool.count < Self.scratchPoolSize { pool.append(leftovers) }
        }
        return painter.stats
    }

    /// Scratch buffers kept for reuse: as many as draws that commonly run at once.
    static let scratchPoolSize = 4

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

    /// Draws and returns the labels placed (for tests of placement).
    func placedLabels(into canvas: inout Canvas, view: MapView, keepOut: [Rect]) -> [PlacedLabel] {
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
    public var tileZoom = 0
    /// Tile squares drawn with data.
    public var tiles = 0
    /// Tiles decoded during this draw (the rest came from the cache).
    public var tilesDecoded = 0
    /// Squares with no data at any zoom.
    public var tilesMissing = 0
    /// Tiles skipped because they could not be read or decoded.
    public var tilesFailed = 0
    /// Labels drawn.
    public var labels = 0
    /// Label candidates not drawn (overlaps, keep-outs, duplicates, no room).
    public var labelsDropped = 0

    /// All zeros.
    public init() {}
}
