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
