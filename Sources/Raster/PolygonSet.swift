// A set of closed polygons in device pixels that is filled as one shape: what map layers
// draw with. Contract: rings and stroke outlines are appended flat (no per-ring arrays),
// each optionally clipped to a convex polygon first; filling the set runs the scan
// converter once, so coverage of shapes that meet along an edge sums exactly (no seams) and
// overlapping parts under the nonzero rule are painted once (no double blending). A set
// holding hairlines' stroke outlines (under `thinStroke` device pixels wide), which overlap
// wherever lines meet or run along each other and whose every pixel there is partly
// covered, also covers overlaps inside a pixel once (see ScanConverter). Other sets keep the
// cheaper summed area: rings, which on maps abut or nest, are exact with it, and where thick
// strokes overlap, most pixels are inside both, where the sum is clamped to full anyway.

/// Closed polygons in device pixels, filled together.
package struct PolygonSet: Sendable {
    var contours = Contours()
    private var scratch: [Point] = []
    private var next: [Point] = []
    private var strokeScratch = Contours()
    /// The last stroker used: building one computes its pen, which many lines share.
    private var stroker: Stroker?
    /// True once a thin line's stroke outline has been added with `addStroke` (until `removeAll`).
    private(set) var holdsThinStrokes = false
    /// Strokes thinner than this (device pixels) make the set resolve overlaps: below one pixel
    /// every overlap is partial; resolving up to 2 px gave SF z15 a further 0.006 MAD but cost
    /// the navigation screen half its draw time (measured on this benchmarks).
    static let thinStroke = 1.0

    /// An empty set.
    package init() {}

    /// True when nothing has been added.
    package var isEmpty: Bool { contours.ends.isEmpty }

    /// The number of points held (for tests and cost estimates).
    package var pointCount: Int { contours.points.count }

    /// Forgets every contour, keeping the memory for reuse.
    package mutating func removeAll() {
        contours.removeAll()
        holdsThinStrokes = false
    }

    /// Adds one closed ring (its last point joins its first), clipped to `clip` if given.
    package mutating func addRing(_ points: ArraySlice<Point>, clip: ConvexClip? = nil) {
        guard points.count >= 3 else { return }
        append(points, clip: clip)
    }

    /// Adds the outline of a stroked polyline (closed or open; dashed when the style says
    /// so), each outline contour clipped to `clip` if given.
    package mutating func addStroke(_ points: ArraySlice<Point>, closed: Bool = false, style: StrokeStyle, clip: ConvexClip? = nil) {
        guard !points.isEmpty else { return }
        if style.width < Self.thinStroke { holdsThinStrokes = true }
        strokeScratch.removeAll()
        let stroker: Stroker
        if let cached = self.stroker, cached.style == style {
            stroker = cached
        } else {
            stroker = Stroker(style: style)
            self.stroker = stroker
        }
        let polyline = Polyline(points: Array(points), isClosed: closed)
        stroker.stroke(polyline, dash: style.dash, into: &strokeScratch)
        var start = 0
        for end in strokeScratch.ends {
            append(strokeScratch.points[start..<end], clip: clip)
            start = end
        }
    }

    /// Adds every subpath of a path as a closed ring, curves flattened to within `tolerance`
    /// pixels (coarser tolerances suit small text, whose curves are tiny).
    package mutating func addPath(_ path: Path, tolerance: Double = 0.1) {
        for polyline in path.flattened(tolerance: tolerance) where polyline.points.count >= 3 {
            append(polyline.points[...], clip: nil)
        }
    }

    /// Adds the stroke outline of every subpath of a path (closed subpaths as loops), curves
    /// flattened to within `tolerance` pixels. These are text halos, which do not make the set
    /// resolve overlaps: a halo's overlaps lie almost wholly inside it, and resolving a word's
    /// tangle of outlines costs more than drawing the whole map.
    package mutating func addPathStroke(_ path: Path, style: StrokeStyle, tolerance: Double = 0.1) {
        strokeScratch.removeAll()
        let stroker = Stroker(style: style, tolerance: tolerance)
        for polyline in path.flattened(tolerance: tolerance) {
            stroker.stroke(polyline, dash: style.dash, into: &strokeScratch)
        }
        var start = 0
        for end in strokeScratch.ends {
            append(strokeScratch.points[start..<end], clip: nil)
            start = end
        }
    }

    private mutating func append(_ points: ArraySlice<Point>, clip: ConvexClip?) {
        guard let clip else {
            contours.points.append(contentsOf: points)
            contours.closeContour()
            return
        }
        switch clip.relation(of: points) {
        case .outside:
            return
        case .inside:
            contours.points.append(contentsOf: points)
        case .crossing:
            clip.clip(points, into: &contours.points, scratch: &scratch, next: &next)
        }
        contours.closeContour()
    }

    /// The set as a path of closed polygons (for display lists and reference renderers).
    package var path: Path {
        var path = Path()
        var start = 0
        for end in contours.ends {
            path.move(to: contours.points[start])
            for point in contours.points[(start + 1)..<end] { path.line(to: point) }
            path.close()
            start = end
        }
        return path
    }
}

extension Canvas {
    /// Fills every polygon of the set as one shape.
    package mutating func fill(_ polygons: PolygonSet, color: Color, rule: FillRule = .nonZero, opacity: Double = 1) {
        composite(polygons.contours, color: color, rule: rule, opacity: opacity, resolvesOverlaps: polygons.holdsThinStrokes)
    }
}
