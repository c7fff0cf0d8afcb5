// How a line is stroked: width, caps, joins, miter limit (Cairo's names and defaults).

/// The shape at the open ends of a stroked line.
public enum LineCap: String, Hashable, Sendable, Codable {
    /// Ends exactly at the end point.
    case butt
    /// A half disc of the line's width around the end point.
    case round
    /// A half square: extends past the end by half the width.
    case square
}

/// The shape where two segments of a stroked line meet.
public enum LineJoin: String, Hashable, Sendable, Codable {
    /// Sharp corners, cut to a bevel beyond the miter limit.
    case miter
    /// Rounded corners.
    case round
    /// Corners cut straight across.
    case bevel
}

/// Width, caps, joins and miter limit of a stroke.
public struct StrokeStyle: Hashable, Sendable, Codable {
    /// Line width in user-space pixels.
    public var width: Double
    /// The ends of open subpaths.
    public var cap: LineCap
    /// The corners.
    public var join: LineJoin
    /// The longest miter, as a multiple of the line width, before it becomes a bevel
    /// (Cairo's rule and default, 10).
    public var miterLimit: Double

    /// A stroke style; defaults are Cairo's except the round caps and joins routes use.
    public init(width: Double, cap: LineCap = .round, join: LineJoin = .round, miterLimit: Double = 10) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
    }
}
