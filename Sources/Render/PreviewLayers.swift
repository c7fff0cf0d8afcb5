/// Which layers of a preview to draw (the camera always fits the whole content, so a
/// partial list has exactly the geometry of the full one).
public struct PreviewLayers: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The route lines.
    public static let routes = PreviewLayers(rawValue: 1)
    /// The markers.
    public static let markers = PreviewLayers(rawValue: 2)
    /// The pickup ETA badge.
    package static let etaBadge = PreviewLayers(rawValue: 4)
    /// Everything.
    public static let all: PreviewLayers = [.routes, .markers, .etaBadge]
}
