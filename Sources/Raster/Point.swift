// A point or vector in device or user space, in pixels. Raster shares only plain numbers
// with the rest of the project; this is the one geometric primitive.

/// A 2-D point (or vector) in pixels; y grows downwards, pixel edges lie on integers.
public struct Point: Hashable, Sendable {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate, downwards.
    public var y: Double

    /// A point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point (x, y).
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite.
    package var isFinite: Bool { x.isFinite && y.isFinite }
    /// The distance from the origin.
    package var length: Double { (x * x + y * y).squareRoot() }
    var lengthSquared: Double { x * x + y * y }

    /// The sum of two points (vectors).
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The difference of two points: the vector from b to a.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// A vector scaled.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

    func dot(_ other: Point) -> Double { x * other.x + y * other.y }
    func cross(_ other: Point) -> Double { x * other.y - y * other.x }
}

extension Collection where Element == Point {
    /// The smallest and largest x and y of the points: their bounding box's edges (infinite,
    /// min above max, when there are none).
    @inlinable
    package var extremes: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for point in self {
            minX = Swift.min(minX, point.x)
            minY = Swift.min(minY, point.y)
            maxX = Swift.max(maxX, point.x)
            maxY = Swift.max(maxY, point.y)
        }
        return (minX, minY, maxX, maxY)
    }
}

extension Point: Codable {
    /// Decodes from `[x, y]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let x = try container.decode(Double.self)
        let y = try container.decode(Double.self)
        self.init(x: x, y: y)
    }

    /// Encodes as `[x, y]`, compact for long polylines in display lists.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}
