import Foundation
import Testing

@testable import Raster

/// Polygon sets clipped to convex polygons: the basis of seamless map tiles.
@Suite struct PolygonSetTests {
    /// The coverage a polygon set gives on a small canvas.
    static func coverage(_ set: PolygonSet, width: Int = 40, height: Int = 40) -> [UInt8] {
        Canvas(width: width, height: height).coverage(of: set.contours, rule: .nonZero)
    }

    /// A rotated square split at a slanted line into two clipped halves covers every pixel
    /// exactly as the unsplit square does: the shared edge leaves no seam.
    @Test func clippedHalvesSumToTheWhole() {
        let square = [Point(8.3, 3.1), Point(35.7, 9.4), Point(29.2, 36.8), Point(2.6, 30.5)]
        var whole = PolygonSet()
        whole.addRing(square[...])
        // Two clip quads sharing the edge (5, 0)–(33, 40), covering everything.
        let left = ConvexClip(corners: [Point(-10, -10), Point(5, 0), Point(33, 40), Point(-10, 50)])
        let right = ConvexClip(corners: [Point(5, 0), Point(60, -10), Point(60, 50), Point(33, 40)])
        var halves = PolygonSet()
        halves.addRing(square[...], clip: left)
        halves.addRing(square[...], clip: right)
        let a = Self.coverage(whole)
        let b = Self.coverage(halves)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest coverage difference \(worst)")
        #expect(a.reduce(0) { $0 + Int($1) } > 100 * 255)
    }

    /// Strokes cut at a clip edge continue seamlessly in the neighbouring clip.
    @Test func clippedStrokesMeetWithoutSeam() {
        let line = [Point(2, 20.3), Point(38, 17.6)]
        let style = StrokeStyle(width: 6, cap: .round, join: .round)
        var whole = PolygonSet()
        whole.addStroke(line[...], style: style)
        var halves = PolygonSet()
        halves.addStroke(line[...], style: style, clip: ConvexClip(rect: Rect(x: -5, y: -5, width: 24.4, height: 50)))
        halves.addStroke(line[...], style: style, clip: ConvexClip(rect: Rect(x: 19.4, y: -5, width: 40, height: 50)))
        let a = Self.coverage(whole)
        let b = Self.coverage(halves)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest coverage difference \(worst)")
    }

    /// Parts outside the clip are dropped; a ring wholly inside is kept as it is.
    @Test func outsideIsDroppedInsideIsKept() {
        let clip = ConvexClip(rect: Rect(x: 10, y: 10, width: 20, height: 20))
        var set = PolygonSet()
        set.addRing([Point(0, 0), Point(5, 0), Point(5, 5)][...], clip: clip)
        #expect(set.isEmpty)
        set.addRing([Point(12, 12), Point(20, 12), Point(20, 20)][...], clip: clip)
        #expect(set.pointCount == 3)
        let mask = Self.coverage(set)
        #expect(mask[15 * 40 + 18] == 255)
        #expect(mask[5 * 40 + 5] == 0)
    }

    /// Overlapping rings in one set are painted once: the overlap is not darker.
    @Test func overlapsArePaintedOnce() {
        var set = PolygonSet()
        set.addRing([Point(0, 0), Point(30, 0), Point(30, 30), Point(0, 30)][...])
        set.addRing([Point(10, 10), Point(40, 10), Point(40, 40), Point(10, 40)][...])
        var canvas = Canvas(width: 40, height: 40, background: .white)
        canvas.fill(set, color: Color(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(canvas.pixel(x: 5, y: 5) == canvas.pixel(x: 20, y: 20))
    }

    /// Polylines are clipped to the parts inside, in order.
    @Test func polylineClipping() {
        let clip = ConvexClip(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        let parts = clip.clipPolyline([Point(-5, 5), Point(5, 5), Point(5, 15), Point(8, 15), Point(8, 5)][...])
        #expect(parts.count == 2)
        #expect(parts.first == [Point(0, 5), Point(5, 5), Point(5, 10)])
        #expect(parts.last == [Point(8, 10), Point(8, 5)])
    }
}

/// Dashes cut lines as Cairo's cairo_set_dash does.
@Suite struct DashTests {
    /// A 10-on/5-off pattern over a 40-pixel line leaves dashes at 0–10, 15–25, 30–40.
    @Test func dashesFollowThePattern() {
        var canvas = Canvas(width: 50, height: 10, background: .white)
        canvas.stroke(
            .polyline([Point(5, 5), Point(45, 5)]),
            style: StrokeStyle(
                width: 4, cap: .butt, join: .miter,
                dash: DashPattern(lengths: [10, 5])), color: .black)
        func dark(_ x: Int) -> Bool { canvas.pixel(x: x, y: 5).red < 128 }
        #expect(dark(7) && dark(14) && !dark(17) && dark(22) && !dark(32) && dark(37) && dark(44))
    }

    /// A pattern that cannot be drawn leaves the line solid; zero-length dashes with round
    /// caps are dots.
    @Test func degeneratePatterns() {
        let line = Polyline(points: [Point(0, 0), Point(100, 0)], isClosed: false)
        #expect(Dasher.dash(line, pattern: DashPattern(lengths: [])) == nil)
        #expect(Dasher.dash(line, pattern: DashPattern(lengths: [0, 0])) == nil)
        #expect(Dasher.dash(line, pattern: DashPattern(lengths: [-1, 2])) == nil)
        #expect(Dasher.dash(line, pattern: DashPattern(lengths: [1e-9, 1e-9])) == nil, "too many dashes")
        let dots = Dasher.dash(line, pattern: DashPattern(lengths: [0, 10])) ?? []
        #expect(dots.count == 10)
        #expect(dots.allSatisfy { $0.points.count == 1 })
    }

    /// The offset shifts the pattern along the line.
    @Test func offsetShiftsPattern() {
        let line = Polyline(points: [Point(0, 0), Point(30, 0)], isClosed: false)
        let pieces = Dasher.dash(line, pattern: DashPattern(lengths: [10, 10], offset: 5)) ?? []
        #expect(pieces.map { $0.points.map(\.x) } == [[0, 5], [15, 25]])
    }
}

/// Text from glyph outlines: the same shapes as FreeType's bitmaps, at any angle.
@Suite struct GlyphOutlineTests {
    /// Filling a word's outline covers about the same pixels as FreeType's rendering of it.
    @Test func outlinesMatchBitmaps() throws {
        let font = try Font.dejaVuSans()
        let layout = try TextLayout(text: "Kaivokatu", font: font, size: 24)
        var bitmap = Canvas(width: 140, height: 40, background: .white)
        try bitmap.draw(layout, at: Point(4, 30), color: .black)
        var outline = Canvas(width: 140, height: 40, background: .white)
        outline.fill(try layout.outline(transform: .translation(x: 4, y: 30)), color: .black)
        var total = 0
        var ink = 0
        for y in 0..<40 {
            for x in 0..<140 {
                let a = Int(bitmap.pixel(x: x, y: y).red)
                let b = Int(outline.pixel(x: x, y: y).red)
                total += abs(a - b)
                ink += 255 - a
            }
        }
        #expect(ink > 100_000, "the word was drawn")
        #expect(Double(total) / Double(ink) < 0.05, "outline and bitmap differ by \(Double(total) / Double(ink)) of the ink")
    }

    /// Glyph offsets and advances add up to the layout's width.
    @Test func advancesSumToWidth() throws {
        let layout = try TextLayout(text: "Aleksanterinkatu", font: try Font.dejaVuSans(), size: 13)
        let last = layout.glyphCount - 1
        #expect(abs(layout.glyphOffset(last) + layout.glyphAdvance(last) - layout.width) < 1e-9)
        #expect(layout.glyphOffset(0) == 0)
    }

    /// A space has no outline; rotated text lands where its transform puts it.
    @Test func rotatedGlyphs() throws {
        let layout = try TextLayout(text: "I I", font: try Font.dejaVuSans(), size: 20)
        var path = Path()
        try layout.appendGlyphOutline(1, transform: .identity, to: &path)
        #expect(path.isEmpty)
        var canvas = Canvas(width: 40, height: 40, background: .white)
        try layout.appendGlyphOutline(0, transform: Transform.rotation(radians: .pi / 2).translatedBy(x: 20, y: 5), to: &path)
        canvas.fill(path, color: .black)
        // "I" turned a quarter clockwise lies horizontally: its height (up, −y) now runs to
        // +x from x = 20, its stem 2.7–5.3 px right of the pen now lies 2.7–5.3 px below y = 5.
        #expect(canvas.pixel(x: 27, y: 8).red < 64)
        #expect(canvas.pixel(x: 12, y: 8).red == 255)
        #expect(canvas.pixel(x: 27, y: 20).red == 255)
    }
}

/// Image tiles drawn side by side: no seams, no overlap.
@Suite struct TileBlitTests {
    /// Four tiles of one colour, rotated and scaled, cover their area with exactly that colour.
    @Test func tilesMeetWithoutSeams() throws {
        let tile = try Image(
            width: 4, height: 4,
            straightRGBA: [UInt8](repeating: 0, count: 64).enumerated().map { index, _ in
                index % 4 == 3 ? 255 : (index % 4 == 0 ? 200 : 40)
            })
        var canvas = Canvas(width: 64, height: 64, background: .white)
        let base = Transform.scale(x: 5.3, y: 5.3).rotatedBy(radians: 0.4).translatedBy(x: 30, y: 2)
        for (tx, ty) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let map = Transform.translation(x: Double(tx * 4), y: Double(ty * 4)).concatenating(base)
            let corners = [Point(0, 0), Point(4, 0), Point(4, 4), Point(0, 4)].map(map.apply)
            canvas.drawTile(tile, transform: map, clip: ConvexClip(corners: corners))
        }
        // The shared centre of the four tiles, and points along the shared edges.
        for point in [Point(4, 4), Point(2, 4), Point(4, 2), Point(6, 4), Point(4, 6)].map(base.apply) {
            let pixel = canvas.pixel(x: Int(point.x), y: Int(point.y))
            #expect(pixel == Color(red: 200, green: 40, blue: 40).premultiplied, "seam at \(point)")
        }
    }
}
