import Raster

/// How one kind of route line is drawn (the Consumer SDK's polyline style options). Traffic
/// colours apply only while `isTrafficEnabled` is true: reading one with traffic off gives
/// the stroke colour, as the SDK's `trafficColorForSpeed:` does.
public struct PolylineStyleOptions: Hashable, Sendable {
    /// Stroke colour (the whole line when traffic is off).
    public var color: Color
    /// Width in pixels at scale 1.
    public var width: Double
    /// Whether the line is drawn.
    package var isVisible: Bool
    /// Lines with a higher zIndex are drawn over those with a lower one.
    package var zIndex: Int
    /// Whether runs are coloured by traffic speed.
    package var isTrafficEnabled: Bool
    /// The colours set per speed, whether or not traffic is on; read them through
    /// ``trafficColor(for:)`` or ``trafficColors``.
    private(set) var configuredTrafficColors: TrafficColors

    /// Options from their parts.
    package init(color: Color, width: Double, isVisible: Bool, zIndex: Int, isTrafficEnabled: Bool, trafficColors: TrafficColors) {
        self.color = color
        self.width = width
        self.isVisible = isVisible
        self.zIndex = zIndex
        self.isTrafficEnabled = isTrafficEnabled
        configuredTrafficColors = trafficColors
    }

    /// The colour a run of `speed` is drawn in: its traffic colour when traffic is on,
    /// the stroke colour otherwise.
    package func trafficColor(for speed: SpeedType) -> Color {
        isTrafficEnabled ? configuredTrafficColors[speed] : color
    }

    /// Sets the colour for runs of `speed` (used once traffic is on).
    public mutating func setTrafficColor(_ color: Color, for speed: SpeedType) {
        configuredTrafficColors[speed] = color
    }

    /// The traffic colours in effect: the set ones with traffic on, the stroke colour for
    /// every speed with traffic off.
    package var trafficColors: TrafficColors {
        isTrafficEnabled ? configuredTrafficColors : TrafficColors(uniform: color)
    }
}

/// One colour per traffic speed.
package struct TrafficColors: Hashable, Sendable {
    /// Runs without traffic data.
    package var noData: Color
    /// Normal traffic.
    package var normal: Color
    /// Slower traffic.
    package var slow: Color
    /// Jammed traffic.
    package var trafficJam: Color

    /// Colours from their parts.
    package init(noData: Color, normal: Color, slow: Color, trafficJam: Color) {
        self.noData = noData
        self.normal = normal
        self.slow = slow
        self.trafficJam = trafficJam
    }

    /// The same colour for every speed.
    package init(uniform color: Color) {
        self.init(noData: color, normal: color, slow: color, trafficJam: color)
    }

    /// The colour for a speed.
    package subscript(speed: SpeedType) -> Color {
        get { self[keyPath: Self.member(speed)] }
        set { self[keyPath: Self.member(speed)] = newValue }
    }

    private static func member(_ speed: SpeedType) -> WritableKeyPath<Self, Color> {
        speed.select(noData: \.noData, normal: \.normal, slow: \.slow, trafficJam: \.trafficJam)
    }
}
