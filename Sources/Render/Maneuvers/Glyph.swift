// The drawing of a maneuver or lane arrow in a 24 × 24 design square (y down), before it
// is scaled to an icon: arrows (a shaft polyline and a head), strokes and fills, each in the
// primary tone (what the driver does) or the secondary tone (roads not taken, roundabout
// rings, highways). Mirroring x → 24 − x turns a left maneuver into the right one, and a
// counter-clockwise roundabout into the clockwise one with the mirrored exit, which is
// how both sides of the road are drawn from one definition.

import Foundation
import Raster

/// A maneuver drawing in the 24-unit design square.
struct Glyph: Sendable {
    /// How strongly a part is drawn.
    enum Tone: Sendable {
        case primary
        case secondary
    }

    /// One drawn part.
    enum Part: Sendable {
        /// A shaft and its head: the path to follow.
        case arrow(Arrow, Tone)
        /// A stroked open polyline of `width` units.
        case line([Point], width: Double, Tone)
        /// A filled outline (polygons, even-odd so inner outlines cut holes).
        case fill([[Point]], Tone)
    }

    static let side = 24.0
    static let shaftWidth = 3.0

    var parts: [Part] = []

    mutating func add(_ arrow: Arrow, _ tone: Tone = .primary) { parts.append(.arrow(arrow, tone)) }
    mutating func line(_ points: [Point], width: Double = shaftWidth, _ tone: Tone = .secondary) {
        parts.append(.line(points, width: width, tone))
    }
    mutating func fill(_ outlines: [[Point]], _ tone: Tone = .primary) { parts.append(.fill(outlines, tone)) }

    /// The glyph seen in a mirror: x → 24 − x.
    func mirrored() -> Glyph {
        func flip(_ p: Point) -> Point { Point(x: Self.side - p.x, y: p.y) }
        return Glyph(
            parts: parts.map { part in
                switch part {
                case .arrow(let arrow, let tone):
                    .arrow(
                        Arrow(
                            points: arrow.points.map(flip), direction: Point(x: -arrow.direction.x, y: arrow.direction.y),
                            headLength: arrow.headLength, headHalfWidth: arrow.headHalfWidth), tone)
                case .line(let points, let width, let tone): .line(points.map(flip), width: width, tone)
                case .fill(let outlines, let tone): .fill(outlines.map { $0.map(flip) }, tone)
                }
            })
    }

    /// The glyph with every part in the same tone (lane arrows are drawn whole in one colour).
    func primaryParts() -> Glyph {
        Glyph(parts: parts.filter { if case .arrow(_, .primary) = $0 { true } else { false } })
    }

    /// Draws the glyph on `canvas`, mapped by `transform` from design units to pixels.
    func draw(on canvas: inout Canvas, transform: Transform, primary: Color, secondary: Color) {
        func color(_ tone: Tone) -> Color { tone == .primary ? primary : secondary }
        // Secondary parts first: what the driver does is drawn on top.
        for pass in [Tone.secondary, .primary] {
            for part in parts {
                switch part {
                case .arrow(let arrow, let tone) where tone == pass:
                    canvas.stroke(
                        .polyline(arrow.points), style: StrokeStyle(width: Self.shaftWidth, cap: .butt, join: .round),
                        color: color(tone), transform: transform)
                    canvas.fill(.polygon(arrow.head), color: color(tone), transform: transform)
                case .line(let points, let width, let tone) where tone == pass:
                    canvas.stroke(
                        .polyline(points), style: StrokeStyle(width: width, cap: .butt, join: .round),
                        color: color(tone), transform: transform)
                case .fill(let outlines, let tone) where tone == pass:
                    var path = Path()
                    for outline in outlines {
                        guard let first = outline.first else { continue }
                        path.move(to: first)
                        for p in outline.dropFirst() { path.line(to: p) }
                        path.close()
                    }
                    canvas.fill(path, color: color(tone), rule: .evenOdd, transform: transform)
                default: break
                }
            }
        }
    }
}

/// An arrow: a shaft through `points` and a triangular head beyond the last point, pointing
/// along `direction` (a unit vector).
struct Arrow: Sendable {
    var points: [Point]
    var direction: Point
    var headLength = 5.0
    var headHalfWidth = 4.5

    /// The head's corners: tip, then the two base corners.
    var head: [Point] {
        guard let end = points.last else { return [] }
        let d = direction
        let tip = Point(x: end.x + d.x * headLength, y: end.y + d.y * headLength)
        // The base sits a little inside the shaft's end so the two overlap without a seam.
        let base = Point(x: end.x - d.x * 0.5, y: end.y - d.y * 0.5)
        return [
            tip, Point(x: base.x - d.y * headHalfWidth, y: base.y + d.x * headHalfWidth),
            Point(x: base.x + d.y * headHalfWidth, y: base.y - d.x * headHalfWidth),
        ]
    }
}

/// Draws a shaft like a turtle: a position and a heading (degrees clockwise from up), moving
/// forward and turning along circular arcs, so corners are rounded as on road signs.
struct Turtle {
    private(set) var points: [Point]
    private(set) var heading: Double

    init(at start: Point, heading: Double = 0) {
        points = [start]
        self.heading = heading
    }

    var position: Point { points[points.count - 1] }

    static func direction(_ heading: Double) -> Point {
        let radians = heading * .pi / 180
        return Point(x: sin(radians), y: -cos(radians))
    }

    mutating func forward(_ distance: Double) {
        let d = Self.direction(heading)
        points.append(Point(x: position.x + d.x * distance, y: position.y + d.y * distance))
    }

    /// Turns by `angle` degrees (positive: right) along an arc of `radius` units.
    mutating func turn(_ angle: Double, radius: Double) {
        let side = angle >= 0 ? 1.0 : -1.0
        func right(_ h: Double) -> Point { Point(x: cos(h * .pi / 180), y: sin(h * .pi / 180)) }
        let r0 = right(heading)
        let center = Point(x: position.x + r0.x * radius * side, y: position.y + r0.y * radius * side)
        let steps = max(2, Int(abs(angle) / 5))
        let start = heading
        for k in 1...steps {
            let h = start + angle * Double(k) / Double(steps)
            let r = right(h)
            points.append(Point(x: center.x - r.x * radius * side, y: center.y - r.y * radius * side))
        }
        heading = start + angle
    }

    /// The arrow drawn so far.
    func arrow(headLength: Double = 5, headHalfWidth: Double = 4.5) -> Arrow {
        Arrow(points: points, direction: Self.direction(heading), headLength: headLength, headHalfWidth: headHalfWidth)
    }
}
