// One draw of a basemap: finds the tile squares under the view and their data, then runs
// the style's layers in order — background, fills, lines and raster tiles straight onto the
// canvas; symbol layers into label candidates, placed and drawn after everything else —
// and finally the attribution. Contract (DESIGN §13, no seams): each square's geometry is
// clipped to the square, and all squares' geometry of one style layer (per combination of
// data-driven paint values) is filled as ONE polygon set, so coverage along shared square
// edges sums exactly and overlapping features are painted once.

import Foundation
import Raster

struct MapPainter {
    let basemap: Basemap
    let view: MapView
    let styleZoom: Double
    var recorder: DisplayListRecorder?
    var stats = BasemapDrawStats()
    /// The labels drawn (for tests).
    private(set) var labels: [PlacedLabel] = []
    private(set) var squares: [Square] = []
    private(set) var cover: TileCover?
    private var scratch: [Point] = []
    private var groups: [PolygonSet] = []
    /// A line layer's centre lines per paint group, for the reference display list.
    private var centerLines: [Path] = []

    /// A tile square with the data that fills it.
    struct Square {
        let tile: TileID
        let unwrappedX: Int
        let clip: ConvexClip
        let source: TileID
        let content: TileContent

        /// True when geometry with this bounding box (tile units), drawn `reach` units beyond
        /// it, stays inside the square, so that it needs no clipping. Only a square that shows
        /// its source tile whole can tell: one drawn from a lower zoom shows a part of it, and
        /// geometry inside the source tile may still reach past the square (unclipped, squares
        /// drawn from one tile would paint it twice).
        func holds(minX: Int32, minY: Int32, maxX: Int32, maxY: Int32, reach: Double, extent: Double) -> Bool {
            source == tile && Double(minX) >= reach && Double(minY) >= reach && Double(maxX) <= extent - reach
                && Double(maxY) <= extent - reach
        }
    }

    init(basemap: Basemap, view: MapView, recorder: DisplayListRecorder?, scratch: PainterScratch = PainterScratch()) {
        self.basemap = basemap
        self.view = view
        self.recorder = recorder
        styleZoom = view.styleZoom
        self.scratch = scratch.points
        groups = scratch.groups
    }

    /// The buffers this draw grew, for the next draw to reuse.
    var leftovers: PainterScratch { PainterScratch(points: scratch, groups: groups) }

    /// Draws everything (fills, lines and raster tiles only when `geometry`, labels only when
    /// `labels`), and with the labels the attribution in `attributionArea`'s bottom-right
    /// corner (the canvas's when nil) unless `attribution` is false: labels keep clear of its
    /// plate either way, so that a caller may draw it last, over what it draws on the map.
    mutating func paint(
        into canvas: inout Canvas, keepOut: [LabelObstacle], geometry: Bool = true, labels: Bool = true,
        attributionArea: Rect? = nil, attribution: Bool = true
    ) {
        guard view.isDrawable, canvas.width == view.pixelWidth, canvas.height == view.pixelHeight else { return }
        loadSquares()
        var placer = LabelPlacer(view: view, keepOut: keepOut)
        let plate = Attribution.plate(
            text: basemap.attribution, view: view, area: attributionArea,
            background: basemap.style.backgroundColor(atZoom: styleZoom))
        if let plate { placer.reserve(plate.box) }
        // A raster archive drawn with a style that has no raster layer (the built-in ones)
        // shows its images over the background.
        var rasterPending =
            geometry && basemap.source.metadata.format == .png
            && !basemap.style.layers.contains { if case .raster = $0.properties { true } else { false } }
        for layer in basemap.style.layers where layer.isVisible(atZoom: styleZoom) {
            if !geometry, layer.kind != .symbol { continue }
            if rasterPending, layer.kind != .background {
                paintRaster(nil, into: &canvas)
                rasterPending = false
            }
            switch layer.properties {
            case .background(let properties):
                paintBackground(properties, into: &canvas)
            case .fill(let properties):
                paintFill(layer, properties, into: &canvas)
            case .line(let properties):
                paintLine(layer, properties, into: &canvas)
            case .raster(let properties):
                paintRaster(properties, into: &canvas)
            case .symbol(let properties):
                if labels { collectLabels(layer, properties, into: &placer) }
            }
        }
        if rasterPending { paintRaster(nil, into: &canvas) }
        if labels {
            placer.place()
            placer.draw(into: &canvas, pictures: basemap.labelPictures)
            stats.labels = placer.placedCount
            stats.labelsDropped = placer.droppedCount
            self.labels = placer.placed
            stats.labelBoxes = placer.placed.flatMap(\.boxes)
            stats.attributionBox = plate?.box
            if attribution, let plate { Attribution.draw(plate, scale: view.scale, into: &canvas) }
        }
    }

    // MARK: - Tiles

    mutating func loadSquares() {
        let metadata = basemap.source.metadata
        guard
            let cover = TileCover(
                view: view, minZoom: metadata.minZoom, maxZoom: metadata.maxZoom,
                vector: metadata.format.isVector)
        else {
            basemap.reportOnce(
                "basemap: a view of \(view.pixelWidth)×\(view.pixelHeight) px at zoom \(view.zoom) needs more than "
                    + "\(TileCover.maximumTiles) tiles of \(basemap.source.identity); not drawn")
            return
        }
        self.cover = cover
        stats.tileZoom = cover.zoom
        let loadedNow = basemap.loadMissing(cover.squares.map(\.tile))
        stats.tilesDecoded += loadedNow.count
        for (tile, unwrappedX) in cover.squares {
            var source = tile
            var found: TileContent?
            while true {
                let content: TileContent
                if let loaded = loadedNow[source] {
                    content = loaded
                } else {
                    let (cached, fresh) = basemap.content(source)
                    content = cached
                    if fresh { stats.tilesDecoded += 1 }
                }
                switch content {
                case .vector, .raster:
                    found = content
                case .failed:
                    stats.tilesFailed += 1
                case .missing:
                    break
                }
                if found != nil || source.zoom <= metadata.minZoom || source.zoom == 0 { break }
                source = source.parent
            }
            guard let found else {
                stats.tilesMissing += 1
                continue
            }
            stats.tiles += 1
            squares.append(
                Square(
                    tile: tile, unwrappedX: unwrappedX, clip: cover.clip(unwrappedX: unwrappedX, y: tile.y),
                    source: source, content: found))
        }
    }

    /// The features of a tile layer that pass a style layer's filter (all of them without
    /// one); cached in the tile when the filter does not depend on the zoom.
    func features(of tile: PreparedTile, _ tileLayer: PreparedLayer, passing layer: StyleLayer) -> [Int32] {
        guard let filter = layer.filter else { return Array(0..<Int32(tileLayer.features.count)) }
        let zoom = styleZoom
        func compute() -> [Int32] {
            var resolved = LayerFilter(filter, layer: tileLayer, zoom: zoom)
            var indices: [Int32] = []
            for index in 0..<tileLayer.features.count where resolved.passes(index) { indices.append(Int32(index)) }
            return indices
        }
        if filter.isZoomDependent { return compute() }
        return tile.memoized(
            "\(basemap.style.identity)#\(layer.id)#\(tileLayer.name)#filter", bytes: { $0.count * 4 },
            compute: compute)
    }

    /// Source tile coordinates → device pixels for a square.
    private func transform(_ square: Square, extent: Int) -> Transform {
        cover?.transform(source: square.source, squareX: square.unwrappedX, squareY: square.tile.y, extent: extent) ?? .identity
    }

    // MARK: - Background and raster

    private mutating func paintBackground(_ properties: BackgroundProperties, into canvas: inout Canvas) {
        let color = properties.color.value(zoom: styleZoom)
        let opacity = properties.opacity.value(zoom: styleZoom)
        let path = Path.rectangle(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        canvas.fill(path, color: color, opacity: opacity)
        recorder?.operations.append(.fill(.init(path: path, color: color, opacity: opacity)))
    }

    private mutating func paintRaster(_ properties: RasterProperties?, into canvas: inout Canvas) {
        let opacity = properties?.opacity.value(zoom: styleZoom) ?? 1
        for square in squares {
            guard case .raster(let image) = square.content else { continue }
            let map = transform(square, extent: image.width)
            // Image pixels → source tile units (the image spans the tile, whatever its size).
            let imageToTile = Transform.scale(x: 1, y: Double(image.width) / Double(max(image.height, 1)))
            canvas.drawTile(image, transform: imageToTile.concatenating(map), clip: square.clip, opacity: opacity)
        }
    }

    // MARK: - Fills and lines

    private mutating func paintFill(_ layer: StyleLayer, _ properties: FillProperties, into canvas: inout Canvas) {
        guard let sourceLayer = layer.sourceLayer else { return }
        var keys: [FillKey: Int] = [:]
        var order: [FillKey] = []
        let dataDriven =
            properties.color.isFeatureDependent || properties.opacity.isFeatureDependent
            || (properties.outlineColor?.isFeatureDependent ?? false)
        let constant = FillKey(
            color: properties.color.value(zoom: styleZoom), opacity: properties.opacity.value(zoom: styleZoom),
            outline: properties.outlineColor?.value(zoom: styleZoom))
        let constantVisible = constant.color.alpha > 0 || constant.outline != nil
        if !dataDriven && (!constantVisible || constant.opacity <= 0) { return }
        for square in squares {
            guard case .vector(let tile) = square.content, let tileLayer = tile.layers[sourceLayer] else { continue }
            let map = transform(square, extent: tileLayer.extent)
            let extent = Int32(tileLayer.extent)
            // Arrays read once: reading a class's array property in the loop retains it each time.
            let features = tileLayer.features
            let points = tileLayer.points
            let constantGroup = dataDriven ? 0 : groupIndex(for: constant, in: &keys, order: &order)
            // Features off the canvas change no pixel: most of an overzoomed tile is.
            let visible = VisibleBox(map, view: view, margin: 1)
            for selected in self.features(of: tile, tileLayer, passing: layer) {
                let index = Int(selected)
                let feature = features[index]
                guard feature.type == .polygon, feature.maxX >= 0, feature.maxY >= 0, feature.minX <= extent, feature.minY <= extent,
                    visible.overlaps(feature.minX, feature.minY, feature.maxX, feature.maxY)
                else { continue }
                var group = constantGroup
                if dataDriven {
                    let context = EvaluationContext(zoom: styleZoom, feature: FeatureView(layer: tileLayer, index: index))
                    let key = FillKey(
                        color: properties.color.value(context), opacity: properties.opacity.value(context),
                        outline: properties.outlineColor?.value(context))
                    guard key.color.alpha > 0 || key.outline != nil, key.opacity > 0 else { continue }
                    group = groupIndex(for: key, in: &keys, order: &order)
                }
                let inside = square.holds(
                    minX: feature.minX, minY: feature.minY, maxX: feature.maxX, maxY: feature.maxY, reach: 0, extent: Double(extent))
                for part in feature.parts {
                    transform(points[tileLayer.part(Int(part))], map)
                    groups[group].addRing(scratch[...], clip: inside ? nil : square.clip)
                }
            }
        }
        for (group, key) in order.enumerated() {
            if key.color.alpha > 0 {
                canvas.fill(groups[group], color: key.color, opacity: key.opacity)
                recorder?.operations.append(.fill(.init(path: groups[group].path, color: key.color, opacity: key.opacity)))
            }
        }
        // Outlines: one device pixel per scale unit, over the fills, as MapLibre draws them.
        for (group, key) in order.enumerated() {
            guard let outline = key.outline, outline.alpha > 0 else { continue }
            let rings = groups[group].path
            let style = StrokeStyle(width: view.scale, cap: .butt, join: .miter, miterLimit: 2)
            canvas.stroke(rings, style: style, color: outline, opacity: key.opacity)
            recorder?.operations.append(.stroke(.init(path: rings, color: outline, style: style, opacity: key.opacity)))
        }
    }

    private mutating func paintLine(_ layer: StyleLayer, _ properties: LineProperties, into canvas: inout Canvas) {
        guard let sourceLayer = layer.sourceLayer else { return }
        var keys: [LineKey: Int] = [:]
        var order: [LineKey] = []
        centerLines.removeAll()
        let dataDriven = [
            properties.color.isFeatureDependent, properties.width.isFeatureDependent,
            properties.opacity.isFeatureDependent, properties.dashArray?.isFeatureDependent ?? false,
            properties.cap.isFeatureDependent, properties.join.isFeatureDependent,
            properties.offset?.isFeatureDependent ?? false, properties.gapWidth?.isFeatureDependent ?? false,
        ]
        .contains(true)
        let constant = lineKey(properties, EvaluationContext(zoom: styleZoom))
        for square in squares {
            guard case .vector(let tile) = square.content, let tileLayer = tile.layers[sourceLayer] else { continue }
            let map = transform(square, extent: tileLayer.extent)
            let extent = Double(tileLayer.extent)
            let devicePerUnit = (map.a * map.a + map.b * map.b).squareRoot()
            if !dataDriven && recorder == nil {
                paintJoinedLines(layer, constant, tile, tileLayer, square, map, keys: &keys, order: &order)
                continue
            }
            let visible = VisibleBox(map, view: view, margin: 0)
            // Open line pieces per paint group, joined before stroking (see LineChains).
            var pieces: [Int: (lines: [[TilePoint]], inside: Bool)] = [:]
            for selected in features(of: tile, tileLayer, passing: layer) {
                let index = Int(selected)
                let feature = tileLayer.features[index]
                guard feature.type == .lineString || feature.type == .polygon else { continue }
                let context = EvaluationContext(zoom: styleZoom, feature: FeatureView(layer: tileLayer, index: index))
                let key = dataDriven ? lineKey(properties, context) : constant
                guard key.width > 0, key.color.alpha > 0, key.opacity > 0 else { continue }
                // Tile units the stroke reaches beyond its centre line (miters included).
                let reach = (key.width * 1.5 + abs(key.offset) + key.gap / 2) / max(devicePerUnit, 1e-9)
                guard Double(feature.maxX) >= -reach, Double(feature.maxY) >= -reach,
                    Double(feature.minX) <= extent + reach, Double(feature.minY) <= extent + reach,
                    visible.overlaps(feature.minX, feature.minY, feature.maxX, feature.maxY, by: reach)
                else { continue }
                let inside = square.holds(
                    minX: feature.minX, minY: feature.minY, maxX: feature.maxX, maxY: feature.maxY, reach: reach, extent: extent)
                let group = groupIndex(for: key, in: &keys, order: &order)
                if recorder != nil && centerLines.count <= group { centerLines.append(Path()) }
                let closed = feature.type == .polygon
                // Dashes restart on every feature (as in MapLibre) and offsets depend on the
                // direction, so those lines are stroked as they come; others are joined.
                let joinable = key.offsets == [0] && key.strokeStyle.dash == nil
                for part in feature.parts {
                    let range = tileLayer.part(Int(part))
                    if recorder != nil {
                        transform(tileLayer.points[range], map)
                        record(key, group: group, closed: closed, clip: square.clip)
                    }
                    guard joinable else {
                        transform(tileLayer.points[range], map)
                        strokeScratch(key, closed: closed, group: group, clip: inside ? nil : square.clip)
                        continue
                    }
                    var entry = pieces[group] ?? ([], true)
                    if closed {
                        // A ring as its edges, so that walls shared with a neighbour are stroked once.
                        for index in range {
                            let next = index + 1 < range.upperBound ? index + 1 : range.lowerBound
                            entry.lines.append([tileLayer.points[index], tileLayer.points[next]])
                        }
                    } else {
                        entry.lines.append(Array(tileLayer.points[range]))
                    }
                    entry.inside = entry.inside && inside
                    pieces[group] = entry
                }
            }
            for (group, entry) in pieces.sorted(by: { $0.key < $1.key }) {
                for chain in LineChains.join(entry.lines) {
                    let closed = chain.count > 3 && chain.first == chain.last
                    transform(closed ? chain.dropLast() : chain[...], map)
                    strokeScratch(order[group], closed: closed, group: group, clip: entry.inside ? nil : square.clip)
                }
            }
        }
        for (group, key) in order.enumerated() {
            canvas.fill(groups[group], color: key.color, opacity: key.opacity)
            if recorder != nil {
                recorder?.operations.append(
                    .stroke(
                        .init(
                            path: centerLines[group], color: key.color, style: key.strokeStyle,
                            opacity: key.opacity)))
            }
        }
    }

    /// A line layer painted alike throughout: its lines are joined once per tile (kept with
    /// the tile), then culled and stroked each draw.
    private mutating func paintJoinedLines(
        _ layer: StyleLayer, _ key: LineKey, _ tile: PreparedTile, _ tileLayer: PreparedLayer,
        _ square: Square, _ map: Transform, keys: inout [LineKey: Int],
        order: inout [LineKey]
    ) {
        guard key.width > 0, key.color.alpha > 0, key.opacity > 0 else { return }
        let group = groupIndex(for: key, in: &keys, order: &order)
        let extent = Double(tileLayer.extent)
        let reach = (key.width * 1.5 + abs(key.offset) + key.gap / 2) / max((map.a * map.a + map.b * map.b).squareRoot(), 1e-9)
        let joinable = key.offsets == [0] && key.strokeStyle.dash == nil
        let selected = features(of: tile, tileLayer, passing: layer)
        let memoKey = "\(basemap.style.identity)#\(layer.id)#\(tileLayer.name)#\(joinable)"
        let size: ([JoinedLine]) -> Int = { $0.reduce(0) { $0 + 48 + $1.points.count * 8 } }
        let lines: [JoinedLine] = tile.memoized(memoKey, bytes: size) {
            var pieces: [[TilePoint]] = []
            var closedRings: [[TilePoint]] = []
            for index in selected {
                let feature = tileLayer.features[Int(index)]
                guard feature.type == .lineString || feature.type == .polygon else { continue }
                for part in feature.parts {
                    let range = tileLayer.part(Int(part))
                    if feature.type == .lineString {
                        pieces.append(Array(tileLayer.points[range]))
                    } else if joinable {
                        // A ring as its edges, so that walls shared with a neighbour are stroked once.
                        for index in range {
                            let next = index + 1 < range.upperBound ? index + 1 : range.lowerBound
                            pieces.append([tileLayer.points[index], tileLayer.points[next]])
                        }
                    } else {
                        closedRings.append(Array(tileLayer.points[range]) + [tileLayer.points[range.lowerBound]])
                    }
                }
            }
            return (joinable ? LineChains.join(pieces) : pieces).map { JoinedLine($0, closed: false) }
                + closedRings.map { JoinedLine($0, closed: true) }
        }
        let visible = VisibleBox(map, view: view, margin: 0)
        for line in lines {
            guard Double(line.maxX) >= -reach, Double(line.maxY) >= -reach, Double(line.minX) <= extent + reach,
                Double(line.minY) <= extent + reach, visible.overlaps(line.minX, line.minY, line.maxX, line.maxY, by: reach)
            else { continue }
            let inside = square.holds(minX: line.minX, minY: line.minY, maxX: line.maxX, maxY: line.maxY, reach: reach, extent: extent)
            let closed = line.closed || (line.points.count > 3 && line.points.first == line.points.last)
            transform(closed ? line.points.dropLast() : line.points[...], map)
            strokeScratch(key, closed: closed, group: group, clip: inside ? nil : square.clip)
        }
    }

    /// Records the line in `scratch` for the reference renderer: as decoded (not joined), cut
    /// to the tile square it is drawn in (so that tile buffers are not drawn twice), each
    /// dashed piece as its own stroke with the dash phase it has at the cut.
    private mutating func record(_ key: LineKey, group: Int, closed: Bool, clip: ConvexClip) {
        for offset in key.offsets {
            var line = offset == 0 ? scratch : LineOffset.offset(scratch, by: offset, closed: closed)
            if closed, let first = line.first { line.append(first) }
            let path = LabelPath(line)
            for piece in clip.clipPolyline(line[...]) {
                guard var style = key.strokeStyle.dash.map({ _ in key.strokeStyle }), let first = piece.first else {
                    Self.append(piece, closed: false, to: &centerLines[group])
                    continue
                }
                // Where along the whole line the piece starts: the dash phase there.
                let start = path.distance(to: first)
                style.dash?.offset += start
                var single = Path()
                Self.append(piece, closed: false, to: &single)
                recorder?.operations.append(.stroke(.init(path: single, color: key.color, style: style, opacity: key.opacity)))
            }
        }
    }

    /// Strokes the line in `scratch` (each of its offsets) into a paint group.
    private mutating func strokeScratch(_ key: LineKey, closed: Bool, group: Int, clip: ConvexClip?) {
        let style = key.strokeStyle
        for offset in key.offsets {
            let line = offset == 0 ? scratch : LineOffset.offset(scratch, by: offset, closed: closed)
            groups[group].addStroke(line[...], closed: closed, style: style, clip: clip)
        }
    }

    private static func append(_ points: [Point], closed: Bool, to path: inout Path) {
        guard let first = points.first else { return }
        path.move(to: first)
        for point in points.dropFirst() { path.line(to: point) }
        if closed { path.close() }
    }

    private func lineKey(_ properties: LineProperties, _ context: EvaluationContext) -> LineKey {
        LineKey(
            color: properties.color.value(context), width: properties.width.value(context) * view.scale,
            opacity: properties.opacity.value(context), dash: properties.dashArray?.value(context) ?? [],
            cap: properties.cap.value(context), join: properties.join.value(context),
            miterLimit: properties.miterLimit.value(context), offset: (properties.offset?.value(context) ?? 0) * view.scale,
            gap: (properties.gapWidth?.value(context) ?? 0) * view.scale)
    }

    /// The index of a paint group, creating (or reusing) its polygon set.
    private mutating func groupIndex<Key: Hashable>(for key: Key, in keys: inout [Key: Int], order: inout [Key]) -> Int {
        if let index = keys[key] { return index }
        let index = order.count
        keys[key] = index
        order.append(key)
        if groups.count <= index { groups.append(PolygonSet()) }
        groups[index].removeAll()
        return index
    }

    /// Device points of tile points into `scratch`.
    private mutating func transform(_ points: ArraySlice<TilePoint>, _ map: Transform) {
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(points.count)
        points.withUnsafeBufferPointer { source in
            for point in source {
                let x = Double(point.x)
                let y = Double(point.y)
                scratch.append(Point(x: map.a * x + map.c * y + map.tx, y: map.b * x + map.d * y + map.ty))
            }
        }
    }
}

/// The part of a source tile that can show on the canvas, in tile units: the canvas, grown by
/// a margin in device pixels, mapped back into the tile as a box (a turned view's box holds
/// more than it shows, never less).
struct VisibleBox {
    let minX: Double, minY: Double, maxX: Double, maxY: Double

    init(_ map: Transform, view: MapView, margin: Double) {
        guard let inverse = map.inverted() else {
            // A degenerate map draws nothing anyway: keep everything.
            (minX, minY, maxX, maxY) = (-.infinity, -.infinity, .infinity, .infinity)
            return
        }
        let width = Double(view.pixelWidth) + margin
        let height = Double(view.pixelHeight) + margin
        let corners = [Point(-margin, -margin), Point(width, -margin), Point(width, height), Point(-margin, height)]
            .map(inverse.apply)
        minX = corners.map(\.x).min() ?? 0
        minY = corners.map(\.y).min() ?? 0
        maxX = corners.map(\.x).max() ?? 0
        maxY = corners.map(\.y).max() ?? 0
    }

    /// True when a tile-unit box, grown by `reach` tile units, meets the visible box.
    @inline(__always)
    func overlaps(_ boxMinX: Int32, _ boxMinY: Int32, _ boxMaxX: Int32, _ boxMaxY: Int32, by reach: Double = 0) -> Bool {
        Double(boxMaxX) + reach >= minX && Double(boxMinX) - reach <= maxX && Double(boxMaxY) + reach >= minY
            && Double(boxMinY) - reach <= maxY
    }
}

/// Buffers a draw grows (polygon sets of thousands of features, point scratch, the canvas's scan
/// converter cells), kept between draws so steady drawing does not allocate and fault them in again.
struct PainterScratch: Sendable {
    var points: [Point] = []
    var groups: [PolygonSet] = []
    /// The canvas's scan converter and contour buffers.
    var canvas = CanvasScratch()
}

/// A line of a tile as a layer strokes it (joined, or a ring, or a piece as decoded), with
/// its bounding box in tile coordinates.
struct JoinedLine: Sendable {
    let points: [TilePoint]
    /// A ring (its first point repeated at the end).
    let closed: Bool
    let minX: Int32, minY: Int32, maxX: Int32, maxY: Int32

    init(_ points: [TilePoint], closed: Bool) {
        self.points = points
        self.closed = closed
        minX = points.map(\.x).min() ?? 0
        minY = points.map(\.y).min() ?? 0
        maxX = points.map(\.x).max() ?? 0
        maxY = points.map(\.y).max() ?? 0
    }
}

/// A fill layer's paint values for one group of features.
struct FillKey: Hashable {
    let color: Color
    let opacity: Double
    let outline: Color?
}

/// A line layer's paint values (device pixels) for one group of features.
struct LineKey: Hashable {
    let color: Color
    let width: Double
    let opacity: Double
    let dash: [Double]
    let cap: String
    let join: String
    let miterLimit: Double
    let offset: Double
    let gap: Double

    /// Offsets of the lines drawn: the line itself, or its two casings around a gap.
    var offsets: [Double] {
        gap > 0 ? [offset - (gap + width) / 2, offset + (gap + width) / 2] : [offset]
    }

    var strokeStyle: StrokeStyle {
        let usableDash = dash.count >= 2 && dash.allSatisfy { $0 >= 0 && $0.isFinite } && dash.contains { $0 > 0 }
        return StrokeStyle(
            width: width, cap: LineCap(rawValue: cap) ?? .butt, join: LineJoin(rawValue: join) ?? .miter,
            miterLimit: miterLimit,
            dash: usableDash ? DashPattern(lengths: dash.map { $0 * width }) : nil)
    }
}
