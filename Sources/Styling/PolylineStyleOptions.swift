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
    public var isVisible: Bool
    /// Lines with a higher zIndex are drawn over those with a lower one.
    public var zIndex: Int
    /// Whether runs are coloured by traffic speed.
    public var isTrafficEnabled: Bool
    /// The colours set per speed, whether or not traffic is on; read them through
    /// ``trafficColor(for:)`` or ``trafficColors``.
    private(set) var configuredTrafficColors: TrafficColors

    /// Options from their parts.
    public init(color: Color, width: Double, isVisible: Bool, zIndex: Int, isTrafficEnabled: Bool, trafficColors: TrafficColors) {
        self.color = color
        self.width = width
        self.isVisible = isVisible
        self.zIndex = zIndex
        self.isTrafficEnabled = isTrafficEnabled
        configuredTrafficColors = trafficColors
    }

    /// The colour a run of `speed` is drawn in: its traffic colour when traffic is on,
    /// the stroke colour otherwise.
    public func trafficColor(for speed: SpeedType) -> Color {
        isTrafficEnabled ? configuredTrafficColors[speed] : color
    }

    /// Sets the colour for runs of `speed` (used once traffic is on).
    public mutating func setTrafficColor(_ color: Color, for speed: SpeedType) {
        configuredTrafficColors[speed] = color
    }

    /// The traffic colours in effect: the set ones with traffic on, the stroke colour for
    /// every speed with traffic off.
    public var trafficColors: TrafficColors {
        isTrafficEnabled ? configuredTrafficColors : TrafficColors(uniform: color)
    }
}

/// One colour per traffic speed.
public struct TrafficColors: Hashable, Sendable {
    /// Runs without traffic data.
    public var noData: Color
    /// Normal traffic.
    public var normal: Color
    /// Slower traffic.
    public var slow: Color
    /// Jammed traffic.
    public var trafficJam: Color

    /// Colours from their parts.
    public init(noData: Color, normal: Color, slow: Color, trafficJam: Color) {
        self.noData = noData
        self.normal = normal
        self.slow = slow
        self.trafficJam = trafficJam
    }

    /// The same colour for every speed.
    public init(uniform color: Color) {
        self.init(noData: color, normal: color, slow: color, trafficJam: color)
    }

    /// The colour for a speed.
    public subscript(speed: SpeedType) -> Color {
        get { self[keyPath: Self.member(speed)] }
        set { self[keyPath: Self.member(speed)] = newValue }
    }

    private static func member(_ speed: SpeedType) -> WritableKeyPath<Self, Color> {
        speed.select(noData: \.noData, normal: \.normal, slow: \.slow, trafficJam: \.trafficJam)
    }
}
