// What is drawn over the map and must not hide a street or place name, nor be hidden by one
// (DESIGN §7, §13): boxes (a marker's icon, a badge, a screen's panel) and lines stroked to a
// width (a route), in device pixels. The basemap knows nothing of trips: callers say what
// they will draw, and labels are placed clear of it.

import Raster

/// A region street and place names stay out of.
public enum LabelObstacle: Hashable, Sendable {
    /// A rectangle (device pixels).
    case box(Rect)
    /// A polyline stroked `width` device pixels wide, with round caps and joins.
    case line([Point], width: Double)
}

extension LabelObstacle {
    /// The smallest rectangle holding the obstacle (a line with its stroke's width).
    package var bounds: Rect {
        switch self {
        case .box(let rect): return rect
        case .line(let points, let width):
            guard let first = points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
            for point in points.dropFirst() {
                minX = min(minX, point.x)
                minY = min(minY, point.y)
                maxX = max(maxX, point.x)
                maxY = max(maxY, point.y)
            }
            let half = width / 2
            return Rect(x: minX - half, y: minY - half, width: maxX - minX + width, height: maxY - minY + width)
        }
    }
}
