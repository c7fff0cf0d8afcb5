// Label placement and drawing. Contract (DESIGN §7, §13): candidates are placed in priority
// order (symbol layers higher in the style first, then by `symbol-sort-key`, then tile
// order); a label is drawn only when it lies wholly inside the picture, overlaps no label
// placed before it (with `text-padding`) and not the attribution, covers no obstacle (boxes
// and stroked lines the caller draws over the map: never, whatever `text-allow-overlap`
// says), and no label with the same text is already placed (one label per name). Line labels
// follow their road glyph by glyph, are turned so they never read upside down, and are
// refused where the road bends more than `text-max-angle` under them; a road hidden under an
// obstacle line (a route along it) is named beside that line instead. Text is drawn from
// glyph outlines: the halo is the outline stroked twice the halo width, then the fill on top.

import Foundation
import Raster

/// How a label looks.
struct LabelStyle {
    let font: Font
    /// Em size in device pixels.
    let size: Double
    let color: Color
    let opacity: Double
    let haloColor: Color
    /// Halo width in device pixels.
    let haloWidth: Double
    /// Free space around the label, device pixels.
    let padding: Double
    /// Wrap width of point labels, device pixels.
    let maxWidth: Double
    /// Distance between wrapped lines, device pixels.
    let lineHeight: Double
    let anchor: String
    /// Offset of point labels, device pixels.
    let offset: Point
    /// Extra space between letters, device pixels.
    let letterSpacing: Double
    /// Largest bend between neighbouring glyphs on a line, radians.
    let maxAngle: Double
    let allowOverlap: Bool
    let ignorePlacement: Bool
}

/// A label to place.
struct LabelCandidate {
    enum Placement {
        case point(Point)
        /// Pieces of the road(s) with this name, in device pixels.
        case line([[Point]], centerOnly: Bool)
    }

    let text: String
    let layer: Int
    let sortKey: Double
    let sequence: Int
    let placement: Placement
    let style: LabelStyle
}

/// A label that found room.
struct PlacedLabel {
    let text: String
    let layer: Int
    let order: Int
    /// Its glyphs and where each goes; their outlines are built only for labels drawn (a
    /// tile block's labels are placed together, and each tile draws the few that fall on it).
    let glyphs: PlacedGlyphs
    /// The boxes it takes: the text block, or one per glyph along a line, in reading order.
    let boxes: [Rect]
    let style: LabelStyle

    /// Glyph outlines in device pixels.
    var path: Path { glyphs.outline() }
}

/// The glyphs of a placed label: its laid-out lines and, glyph by glyph, the line it is on,
/// its index there and the transform from glyph space to device pixels.
struct PlacedGlyphs {
    struct Glyph {
        let line: Int
        let index: Int
        let transform: Transform
    }

    let lines: [TextLayout]
    let glyphs: [Glyph]

    /// The glyphs' outlines, in order (a glyph whose outline cannot be read is left out).
    func outline() -> Path {
        var path = Path()
        for glyph in glyphs {
            try? lines[glyph.line].appendGlyphOutline(glyph.index, transform: glyph.transform, to: &path)
        }
        return path
    }
}

struct LabelPlacer {
    let view: MapView
    private var candidates: [LabelCandidate] = []
    private var index: CollisionIndex
    /// What the caller draws over the map (LabelObstacle).
    private var obstacles: CollisionIndex
    private(set) var placed: [PlacedLabel] = []
    private var placedTexts = Set<String>()
    private(set) var droppedCount = 0
    var placedCount: Int { placed.count }
    private let bounds: Rect

    init(view: MapView, keepOut: [LabelObstacle]) {
        self.view = view
        index = CollisionIndex(width: view.pixelWidth, height: view.pixelHeight)
        obstacles = CollisionIndex(width: view.pixelWidth, height: view.pixelHeight)
        bounds = Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        for obstacle in keepOut {
            switch obstacle {
            case .box(let rect): obstacles.insert(rect)
            case .line(let points, let width): obstacles.insertLine(points, width: width)
            }
        }
    }

    /// Keeps labels off a region (the attribution).
    mutating func reserve(_ rect: Rect) {
        index.insert(rect)
    }

    mutating func add(_ candidate: LabelCandidate) {
        candidates.append(candidate)
    }

    var candidateCount: Int { candidates.count }

    /// Places the candidates in priority order.
    mutating func place() {
        let ordered = candidates.sorted { a, b in
            if a.layer != b.layer { return a.layer > b.layer }
            if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
            return a.sequence < b.sequence
        }
        for candidate in ordered {
            guard !placedTexts.contains(candidate.text) else {
                droppedCount += 1
                continue
            }
            let result: (glyphs: PlacedGlyphs, boxes: [Rect])?
            switch candidate.placement {
            case .point(let anchor):
                result = pointLabel(candidate, at: anchor)
            case .line(let pieces, let centerOnly):
                result = lineLabel(candidate, pieces: pieces, centerOnly: centerOnly)
            }
            guard let result else {
                droppedCount += 1
                continue
            }
            if !candidate.style.ignorePlacement {
                for box in result.boxes { index.insert(box) }
            }
            placedTexts.insert(candidate.text)
            placed.append(
                PlacedLabel(
                    text: candidate.text, layer: candidate.layer, order: placed.count, glyphs: result.glyphs,
                    boxes: result.boxes, style: candidate.style))
        }
        candidates.removeAll()
    }

    /// Draws the placed labels, lower style layers first; per layer every halo, then every
    /// text (as MapLibre does), so that a halo never covers a neighbour's letters. Each part
    /// of a label is a picture kept in `pictures` and copied here. Glyph curves are flattened
    /// to a fifth of a pixel (a third for halos), invisible at label sizes.
    func draw(into canvas: inout Canvas, pictures: LabelPictures) {
        Self.draw(placed, into: &canvas, shiftedBy: (0, 0), pictures: pictures)
    }

    /// Draws `labels` as `draw(into:pictures:)` does, each `shift` device pixels up and left
    /// of where it was placed: labels placed on a larger picture, drawn on a part of it.
    static func draw(_ labels: [PlacedLabel], into canvas: inout Canvas, shiftedBy shift: (x: Int, y: Int), pictures: LabelPictures) {
        // New pictures are drawn with the canvas's grown buffers.
        var scratch = CanvasScratch()
        canvas.exchangeScratch(&scratch)
        defer { canvas.exchangeScratch(&scratch) }
        let byLayer = Dictionary(grouping: labels, by: \.layer)
        for layer in byLayer.keys.sorted() {
            let drawn = (byLayer[layer] ?? []).sorted { $0.order < $1.order }.compactMap { label in
                pictures.pictures(of: label, tolerance: textTolerance, haloTolerance: haloTolerance, scratch: &scratch)
            }
            for picture in drawn.compactMap(\.halo) + drawn.map(\.text) {
                canvas.draw(picture.image, transform: .translation(x: Double(picture.x - shift.x), y: Double(picture.y - shift.y)))
            }
        }
    }

    /// How closely glyph curves are followed, device pixels.
    static let textTolerance = 0.2
    /// The same for halos: soft edges around the letters, where a coarser outline does not show.
    static let haloTolerance = 0.35

    /// Draws `label`'s pictures into `pictures` unless they are kept there (ahead of `draw`,
    /// which then copies them), with `scratch`'s buffers.
    static func drawPictures(of label: PlacedLabel, into pictures: LabelPictures, scratch: inout CanvasScratch) {
        _ = pictures.pictures(of: label, tolerance: textTolerance, haloTolerance: haloTolerance, scratch: &scratch)
    }

    // MARK: - Boxes

    /// True when the box is inside the picture, clear of the obstacles, and free of other
    /// labels (unless overlap is allowed).
    private func fits(_ box: Rect, _ style: LabelStyle) -> Bool {
        guard bounds.contains(box) else { return false }
        let padded = box.insetBy(-style.padding)
        guard !obstacles.collides(padded) else { return false }
        return style.allowOverlap || !index.collides(padded)
    }

    // MARK: - Point labels

    private func pointLabel(_ candidate: LabelCandidate, at anchor: Point) -> (glyphs: PlacedGlyphs, boxes: [Rect])? {
        let style = candidate.style
        let lines = Self.wrap(candidate.text, style: style)
        guard !lines.isEmpty else { return nil }
        let layouts = lines.compactMap { try? TextLayout(text: $0, font: style.font, size: style.size) }
        guard layouts.count == lines.count, let first = layouts.first else { return nil }
        let widths = layouts.map { $0.width + style.letterSpacing * Double(max($0.glyphCount - 1, 0)) }
        let blockWidth = widths.max() ?? 0
        let blockHeight = Double(layouts.count - 1) * style.lineHeight + first.ascent + first.descent
        let point = anchor + style.offset
        var left = point.x - blockWidth / 2
        var top = point.y - blockHeight / 2
        if style.anchor.contains("left") { left = point.x }
        if style.anchor.contains("right") { left = point.x - blockWidth }
        if style.anchor.hasPrefix("top") { top = point.y }
        if style.anchor.hasPrefix("bottom") { top = point.y - blockHeight }
        let box = Rect(x: left, y: top, width: blockWidth, height: blockHeight)
        guard fits(box, style) else { return nil }
        var glyphs: [PlacedGlyphs.Glyph] = []
        for (line, layout) in layouts.enumerated() {
            let x = left + (blockWidth - widths[line]) / 2
            let baseline = top + first.ascent + Double(line) * style.lineHeight
            for glyph in 0..<layout.glyphCount {
                let origin = Point(x + layout.glyphOffset(glyph) + style.letterSpacing * Double(glyph), baseline)
                glyphs.append(PlacedGlyphs.Glyph(line: line, index: glyph, transform: .translation(x: origin.x, y: origin.y)))
            }
        }
        return (PlacedGlyphs(lines: layouts, glyphs: glyphs), [box])
    }

    /// Greedy word wrap to the style's width (a single word longer than it stays whole).
    static func wrap(_ text: String, style: LabelStyle) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var current = ""
            for word in paragraph.split(separator: " ") {
                let trial = current.isEmpty ? String(word) : current + " " + word
                let width = (try? TextLayout(text: trial, font: style.font, size: style.size).width) ?? 0
                if width > style.maxWidth && !current.isEmpty {
                    lines.append(current)
                    current = String(word)
                } else {
                    current = trial
                }
            }
            if !current.isEmpty { lines.append(current) }
        }
        return lines
    }

    // MARK: - Line labels

    private func lineLabel(_ candidate: LabelCandidate, pieces: [[Point]], centerOnly: Bool) -> (glyphs: PlacedGlyphs, boxes: [Rect])? {
        let style = candidate.style
        guard let layout = try? TextLayout(text: candidate.text, font: style.font, size: style.size), layout.glyphCount > 0 else {
            return nil
        }
        let spacing = style.letterSpacing
        let total = layout.width + spacing * Double(layout.glyphCount - 1)
        let chains = LabelPath.chains(pieces).map(LabelPath.init).sorted { $0.length > $1.length }
        let margin = style.size * 0.5
        let fractions = centerOnly ? [0.5] : [0.5, 0.35, 0.65, 0.2, 0.8]
        for chain in chains where chain.length >= total + 2 * margin {
            for fraction in fractions {
                let center = min(max(chain.length * fraction, total / 2 + margin), chain.length - total / 2 - margin)
                if let label = lineLabel(layout, along: chain, center: center, total: total, style: style) { return label }
            }
        }
        guard obstacles.hasLines else { return nil }
        // The road runs under an obstacle line (a route along this street): name it beside
        // the line, on either side, where the road is hidden.
        let clearance = obstacles.widestHalfLine + (layout.ascent + layout.descent) / 2 + style.padding + 1.5 * view.scale
        for chain in chains where chain.length >= total + 2 * margin {
            for fraction in fractions {
                let center = min(max(chain.length * fraction, total / 2 + margin), chain.length - total / 2 - margin)
                let point = chain.position(at: center).point
                guard obstacles.lineCovers(point) else { continue }
                for side in [clearance, -clearance] {
                    let beside = LabelPath(LineOffset.offset(chain.points, by: side, closed: false))
                    guard beside.length >= total + 2 * margin else { continue }
                    let middle = min(max(beside.distance(to: point), total / 2 + margin), beside.length - total / 2 - margin)
                    if let label = lineLabel(layout, along: beside, center: middle, total: total, style: style) { return label }
                }
            }
        }
        return nil
    }

    private func lineLabel(
        _ layout: TextLayout, along chain: LabelPath, center: Double, total: Double,
        style: LabelStyle
    ) -> (glyphs: PlacedGlyphs, boxes: [Rect])? {
        var path = chain
        var middle = center
        // Upright: read left to right along the chord of the label's ends.
        let start = path.position(at: middle - total / 2).point
        let end = path.position(at: middle + total / 2).point
        if end.x < start.x {
            path = chain.reversed
            middle = chain.length - center
        }
        // Baseline below the centre line so the text's box is centred on the road.
        let shift = (layout.ascent - layout.descent) / 2
        var transforms: [Transform] = []
        var boxes: [Rect] = []
        var previousAngle: Double?
        for glyph in 0..<layout.glyphCount {
            let advance = layout.glyphAdvance(glyph)
            let distance = middle - total / 2 + layout.glyphOffset(glyph) + style.letterSpacing * Double(glyph) + advance / 2
            let (point, angle) = path.position(at: distance)
            if let previousAngle {
                var turn = abs(angle - previousAngle)
                if turn > .pi { turn = 2 * .pi - turn }
                if turn > style.maxAngle { return nil }
            }
            previousAngle = angle
            let transform = Transform.translation(x: -advance / 2, y: shift).rotatedBy(radians: angle)
                .translatedBy(x: point.x, y: point.y)
            transforms.append(transform)
            // The glyph's turned box, bounded without temporary arrays: this runs for every glyph
            // of every position tried.
            let a = transform.apply(Point(0, -layout.ascent))
            let b = transform.apply(Point(advance, -layout.ascent))
            let c = transform.apply(Point(advance, layout.descent))
            let d = transform.apply(Point(0, layout.descent))
            let minX = min(min(a.x, b.x), min(c.x, d.x))
            let minY = min(min(a.y, b.y), min(c.y, d.y))
            let maxX = max(max(a.x, b.x), max(c.x, d.x))
            let maxY = max(max(a.y, b.y), max(c.y, d.y))
            let box = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
            // Most positions tried collide: give up at the first glyph that does.
            guard fits(box, style) else { return nil }
            boxes.append(box)
        }
        // A label whose outlines cannot be read is not placed; they are built when it is drawn.
        do {
            try layout.loadOutlines()
        } catch {
            return nil
        }
        let glyphs = transforms.enumerated().map { PlacedGlyphs.Glyph(line: 0, index: $0.offset, transform: $0.element) }
        return (PlacedGlyphs(lines: [layout], glyphs: glyphs), boxes)
    }
}
