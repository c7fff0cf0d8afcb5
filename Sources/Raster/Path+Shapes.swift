// Ready-made shapes as paths: rectangles, polygons, circles and rounded rectangles. Arcs are
// cubic Béziers (a quarter circle each, the standard 0.5523 control distance, radial error
// below 0.03% of the radius).

extension Path {
    /// Control distance for a quarter circle of radius 1.
    private static let kappa = 0.5522847498307936

    /// An axis-aligned rectangle, clockwise on screen.
    package static func rectangle(x: Double, y: Double, width: Double, height: Double) -> Path {
        var path = Path()
        path.move(to: Point(x, y))
        path.line(to: Point(x + width, y))
        path.line(to: Point(x + width, y + height))
        path.line(to: Point(x, y + height))
        path.close()
        return path
    }

    /// A closed polygon through the points.
    package static func polygon(_ points: [Point]) -> Path {
        var path = Path()
        guard let first = points.first else { return path }
        path.move(to: first)
        for point in points.dropFirst() { path.line(to: point) }
        path.close()
        return path
    }

    /// An open polyline through the points.
    package static func polyline(_ points: [Point]) -> Path {
        var path = Path()
        guard let first = points.first else { return path }
        path.move(to: first)
        for point in points.dropFirst() { path.line(to: point) }
        return path
    }

    /// A circle, clockwise on screen from its rightmost point.
    package static func circle(center: Point, radius: Double) -> Path {
        ellipse(center: center, radiusX: radius, radiusY: radius)
    }

    /// An axis-aligned ellipse.
    package static func ellipse(center: Point, radiusX: Double, radiusY: Double) -> Path {
        var path = Path()
        let kx = radiusX * kappa
        let ky = radiusY * kappa
        let cx = center.x
        let cy = center.y
        path.move(to: Point(cx + radiusX, cy))
        path.cubic(to: Point(cx, cy + radiusY), control1: Point(cx + radiusX, cy + ky), control2: Point(cx + kx, cy + radiusY))
        path.cubic(to: Point(cx - radiusX, cy), control1: Point(cx - kx, cy + radiusY), control2: Point(cx - radiusX, cy + ky))
        path.cubic(to: Point(cx, cy - radiusY), control1: Point(cx - radiusX, cy - ky), control2: Point(cx - kx, cy - radiusY))
        path.cubic(to: Point(cx + radiusX, cy), control1: Point(cx + kx, cy - radiusY), control2: Point(cx + radiusX, cy - ky))
        path.close()
        return path
    }

    /// A rectangle with circular corners; the radius is clamped to half the shorter side.
    package static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> Path {
        let r = max(0, min(radius, min(width, height) / 2))
        guard r > 0 else { return rectangle(x: x, y: y, width: width, height: height) }
        let k = r * kappa
        let right = x + width
        let bottom = y + height
        var path = Path()
        path.move(to: Point(x + r, y))
        path.line(to: Point(right - r, y))
        path.cubic(to: Point(right, y + r), control1: Point(right - r + k, y), control2: Point(right, y + r - k))
        path.line(to: Point(right, bottom - r))
        path.cubic(to: Point(right - r, bottom), control1: Point(right, bottom - r + k), control2: Point(right - r + k, bottom))
        path.line(to: Point(x + r, bottom))
        path.cubic(to: Point(x, bottom - r), control1: Point(x + r - k, bottom), control2: Point(x, bottom - r + k))
        path.line(to: Point(x, y + r))
        path.cubic(to: Point(x + r, y), control1: Point(x, y + r - k), control2: Point(x + r - k, y))
        path.close()
        return path
    }
}
