// An axis-aligned rectangle in pixels or points: clip and keep-out regions, and the
// navigation screen's layout (Render), whose rectangles are in points until scaled.

/// An axis-aligned rectangle: origin at its top-left corner, y down.
public struct Rect: Hashable, Sendable, Codable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width (negative widths count as empty).
    public var width: Double
    /// Height (negative heights count as empty).
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    package var maxX: Double { x + width }
    /// The bottom edge.
    package var maxY: Double { y + height }
    /// The horizontal centre.
    package var midX: Double { x + width / 2 }
    /// The vertical centre.
    package var midY: Double { y + height / 2 }
    /// True when it covers no area.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// True when the two rectangles share interior area.
    package func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// True when `other` lies wholly inside this rectangle.
    package func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// True when the point lies inside (edges included).
    package func contains(_ point: Point) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }

    /// True when the point (`px`, `py`) lies inside (edges included).
    package func contains(x px: Double, y py: Double) -> Bool { px >= x && px <= maxX && py >= y && py <= maxY }

    /// The rectangle times `factor` (points to device pixels, say).
    package func scaled(by factor: Double) -> Rect {
        Rect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// The rectangle grown by `amount` on every side (shrunk for negative amounts).
    package func insetBy(_ amount: Double) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// The smallest rectangle holding both.
    package func union(_ other: Rect) -> Rect {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }
}
