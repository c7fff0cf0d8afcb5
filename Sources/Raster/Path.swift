// A vector path: subpaths of lines, quadratic and cubic Béziers, optionally closed. Paths are
// plain values in user space; `flattened` turns them into polylines in device space with a
// bounded error, which is all the stroker and the scan converter ever see.

/// A sequence of subpaths built from moves, lines, Bézier curves and closes.
package struct Path: Hashable, Sendable {
    /// One drawing command.
    package enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case move(Point)
        /// A straight line to a point.
        case line(Point)
        /// A quadratic Bézier through a control point to a point.
        case quad(control: Point, to: Point)
        /// A cubic Bézier through two control points to a point.
        case cubic(control1: Point, control2: Point, to: Point)
        /// Closes the current subpath back to its start.
        case close
    }

    /// Every point of the path in order, control points included (so its bounding box holds
    /// the curves).
    package var points: [Point] {
        var points: [Point] = []
        points.reserveCapacity(elements.count * 2)
        for element in elements {
            switch element {
            case .move(let point), .line(let point): points.append(point)
            case .quad(let control, let point):
                points.append(control)
                points.append(point)
            case .cubic(let control1, let control2, let point):
                points.append(control1)
                points.append(control2)
                points.append(point)
            case .close: break
            }
        }
        return points
    }

    /// The commands, in order.
    package private(set) var elements: [Element] = []

    /// An empty path.
    package init() {}

    /// A path from commands.
    package init(elements: [Element]) {
        self.elements = elements
    }

    /// Starts a new subpath.
    package mutating func move(to point: Point) { elements.append(.move(point)) }
    /// Adds a straight line (starting a subpath there if none is open).
    package mutating func line(to point: Point) { elements.append(.line(point)) }
    /// Adds a quadratic Bézier.
    package mutating func quad(to point: Point, control: Point) {
        elements.append(.quad(control: control, to: point))
    }
    /// Adds a cubic Bézier.
    package mutating func cubic(to point: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1: control1, control2: control2, to: point))
    }
    /// Closes the current subpath.
    package mutating func close() { elements.append(.close) }
    /// Appends another path's subpaths.
    package mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }

    /// The path with every point, control points included, mapped by `transform` (affine maps
    /// preserve Béziers).
    package func applying(_ transform: Transform) -> Path {
        Path(elements: elements.map { $0.applying(transform) })
    }

    /// True when the path has no drawing commands.
    package var isEmpty: Bool { elements.isEmpty }
}

/// A flattened subpath: points in device space, closed or open.
struct Polyline {
    var points: [Point]
    var isClosed: Bool
}

extension Path {
    /// The path as polylines in device space: curves are subdivided so that no point of a
    /// flattened curve lies farther than `tolerance` pixels from the true curve (Wang's
    /// bound on the second differences). Affine maps preserve Béziers, so control points
    /// are transformed first.
    func flattened(transform: Transform = .identity, tolerance: Double = 0.1) -> [Polyline] {
        var result: [Polyline] = []
        var current: [Point] = []
        var start = Point.zero
        var last = Point.zero
        let tolerance = max(tolerance, 1e-3)

        func finish(closed: Bool) {
            if current.count > 1 || (closed && !current.isEmpty) {
                result.append(Polyline(points: current, isClosed: closed))
            } else if current.count == 1 {
                // A lone point still matters to strokes with round or square caps.
                result.append(Polyline(points: current, isClosed: false))
            }
            current = []
        }

        for element in elements {
            switch element {
            case .move(let point):
                finish(closed: false)
                let device = transform.apply(point)
                current = [device]
                start = device
                last = device
            case .line(let point):
                let device = transform.apply(point)
                if current.isEmpty {
                    current = [last]
                    start = last
                }
                current.append(device)
                last = device
            case .quad(let control, let point):
                if current.isEmpty {
                    current = [last]
                    start = last
                }
                let p1 = transform.apply(control)
                let p2 = transform.apply(point)
                let deviation = (last - p1 * 2 + p2).length
                let count = segmentCount(deviation * 0.25, tolerance)
                let p0 = last
                for step in 1..<count {
                    let t = Double(step) / Double(count)
                    let u = 1 - t
                    current.append(p0 * (u * u) + p1 * (2 * u * t) + p2 * (t * t))
                }
                current.append(p2)
                last = p2
            case .cubic(let control1, let control2, let point):
                if current.isEmpty {
                    current = [last]
                    start = last
                }
                let p1 = transform.apply(control1)
                let p2 = transform.apply(control2)
                let p3 = transform.apply(point)
                let p0 = last
                let deviation = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
                let count = segmentCount(deviation * 0.75, tolerance)
                for step in 1..<count {
                    let t = Double(step) / Double(count)
                    let u = 1 - t
                    let a = p0 * (u * u * u) + p1 * (3 * u * u * t)
                    current.append(a + p2 * (3 * u * t * t) + p3 * (t * t * t))
                }
                current.append(p3)
                last = p3
            case .close:
                if !current.isEmpty {
                    finish(closed: true)
                }
                last = start
            }
        }
        finish(closed: false)
        return result
    }
}

/// Segments needed so a curve with second-difference bound `scaled` (already multiplied by
/// Wang's constant) stays within `tolerance`; capped so degenerate input stays cheap.
private func segmentCount(_ scaled: Double, _ tolerance: Double) -> Int {
    guard scaled.isFinite, scaled > 0 else { return 1 }
    let count = (scaled / tolerance).squareRoot().rounded(.up)
    return Int(min(max(count, 1), 1000))
}

extension Path: Codable {
    /// Decodes from `[["M",x,y],["L",x,y],["Q",cx,cy,x,y],["C",c1x,c1y,c2x,c2y,x,y],["Z"]]`.
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            var command = try container.nestedUnkeyedContainer()
            let verb = try command.decode(String.self)
            func point() throws -> Point {
                let x = try command.decode(Double.self)
                return Point(x: x, y: try command.decode(Double.self))
            }
            switch verb {
            case "M": elements.append(.move(try point()))
            case "L": elements.append(.line(try point()))
            case "Q":
                let control = try point()
                elements.append(.quad(control: control, to: try point()))
            case "C":
                let control1 = try point()
                let control2 = try point()
                elements.append(.cubic(control1: control1, control2: control2, to: try point()))
            case "Z": elements.append(.close)
            default:
                throw DecodingError.dataCorruptedError(
                    in: command, debugDescription: "unknown path command \"\(verb)\" (expected M, L, Q, C or Z)")
            }
        }
        self.init(elements: elements)
    }

    /// Encodes in the compact form `init(from:)` reads.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements {
            var command = container.nestedUnkeyedContainer()
            switch element {
            case .move(let p):
                try command.encode("M")
                try command.encode(p.x)
                try command.encode(p.y)
            case .line(let p):
                try command.encode("L")
                try command.encode(p.x)
                try command.encode(p.y)
            case .quad(let c, let p):
                try command.encode("Q")
                for value in [c.x, c.y, p.x, p.y] { try command.encode(value) }
            case .cubic(let c1, let c2, let p):
                try command.encode("C")
                for value in [c1.x, c1.y, c2.x, c2.y, p.x, p.y] { try command.encode(value) }
            case .close: try command.encode("Z")
            }
        }
    }
}

extension Path.Element {
    /// The element with its points mapped by `transform`.
    package func applying(_ transform: Transform) -> Path.Element {
        switch self {
        case .move(let point): .move(transform.apply(point))
        case .line(let point): .line(transform.apply(point))
        case .quad(let control, let point): .quad(control: transform.apply(control), to: transform.apply(point))
        case .cubic(let control1, let control2, let point):
            .cubic(control1: transform.apply(control1), control2: transform.apply(control2), to: transform.apply(point))
        case .close: .close
        }
    }
}
