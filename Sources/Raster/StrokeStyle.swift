// How a line is stroked: width, caps, joins, miter limit (Cairo's names and defaults).

/// The shape at the open ends of a stroked line.
package enum LineCap: String, Hashable, Sendable, Codable {
    /// Ends exactly at the end point.
    case butt
    /// A half disc of the line's width around the end point.
    case round
    /// A half square: extends past the end by half the width.
    case square
}

/// The shape where two segments of a stroked line meet.
package enum LineJoin: String, Hashable, Sendable, Codable {
    /// Sharp corners, cut to a bevel beyond the miter limit.
    case miter
    /// Rounded corners.
    case round
    /// Corners cut straight across.
    case bevel
}

/// Width, caps, joins and miter limit of a stroke.
package struct StrokeStyle: Hashable, Sendable, Codable {
    /// Line width in user-space pixels.
    package var width: Double
    /// The ends of open subpaths.
    package var cap: LineCap
    /// The corners.
    package var join: LineJoin
    /// The longest miter, as a multiple of the line width, before it becomes a bevel
    /// (Cairo's rule and default, 10).
    package var miterLimit: Double
    /// Dashes, or nil for a solid line.
    package var dash: DashPattern?

    /// A stroke style; defaults are Cairo's except the round caps and joins routes use.
    package init(width: Double, cap: LineCap = .round, join: LineJoin = .round, miterLimit: Double = 10, dash: DashPattern? = nil) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dash = dash
    }
}

/// Alternating dash and gap lengths along a line, as Cairo's cairo_set_dash takes them.
package struct DashPattern: Hashable, Sendable, Codable {
    /// Dash, gap, dash, gap, ... lengths in user-space pixels; an odd count repeats once
    /// more with the roles swapped. Each dash gets the stroke's caps (a dash of length 0
    /// with round caps is a dot).
    package var lengths: [Double]
    /// How far into the pattern the line starts.
    package var offset: Double

    /// A pattern from its lengths and start offset.
    package init(lengths: [Double], offset: Double = 0) {
        self.lengths = lengths
        self.offset = offset
    }
}
