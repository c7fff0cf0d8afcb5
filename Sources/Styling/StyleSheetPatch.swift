// The JSON form of styles: every property optional, so that a style file or an API body
// names only what it overrides. Decoded with TripModel's StrictJSONDecoder, so unknown keys
// (a misspelt property, an unknown marker type) are errors naming their path; values are
// checked here (ranges) and by Raster's Color (colour syntax). Encoding writes only what is
// set, which is also how the store keeps a style's overrides.

import JSON
import Raster
import TripModel

/// A partial style sheet.
struct StyleSheetPatch: Codable, Hashable, Sendable {
    var map: MapStylePatch?
    var markers: MarkersPatch?
    var polylines: PolylinesPatch?
}

/// Partial map options.
struct MapStylePatch: Codable, Hashable, Sendable {
    var background: Color?
    var nightBackground: Color?
    var basemapStyle: String?
    var nightBasemapStyle: String?
    var showsNextTurn: Bool?
}

/// Partial options per marker type.
struct MarkersPatch: Codable, Hashable, Sendable {
    var tripPickupPoint: MarkerStylePatch?
    var tripDropoffPoint: MarkerStylePatch?
    var tripVehicle: MarkerStylePatch?
    var intermediateDestination: MarkerStylePatch?

    subscript(type: MarkerType) -> MarkerStylePatch? {
        get {
            switch type {
            case .tripPickupPoint: tripPickupPoint
            case .tripDropoffPoint: tripDropoffPoint
            case .tripVehicle: tripVehicle
            case .intermediateDestination: intermediateDestination
            }
        }
        set {
            switch type {
            case .tripPickupPoint: tripPickupPoint = newValue
            case .tripDropoffPoint: tripDropoffPoint = newValue
            case .tripVehicle: tripVehicle = newValue
            case .intermediateDestination: intermediateDestination = newValue
            }
        }
    }
}

/// Partial options per polyline type.
struct PolylinesPatch: Codable, Hashable, Sendable {
    var activeRoute: PolylineStylePatch?
    var remainingRoute: PolylineStylePatch?

    subscript(type: PolylineType) -> PolylineStylePatch? {
        get {
            switch type {
            case .activeRoute: activeRoute
            case .remainingRoute: remainingRoute
            }
        }
        set {
            switch type {
            case .activeRoute: activeRoute = newValue
            case .remainingRoute: remainingRoute = newValue
            }
        }
    }
}

/// Partial marker options.
struct MarkerStylePatch: Codable, Hashable, Sendable {
    var icon: String?
    var groundAnchor: [Double]?
    var zIndex: Int?
    var isFlat: Bool?
    var isVisible: Bool?
    var etaLabel: ETALabelPatch?

    enum CodingKeys: String, CodingKey { case icon, groundAnchor, zIndex, isFlat, isVisible, etaLabel }

    init(
        icon: String? = nil, groundAnchor: [Double]? = nil, zIndex: Int? = nil, isFlat: Bool? = nil,
        isVisible: Bool? = nil, etaLabel: ETALabelPatch? = nil
    ) {
        self.icon = icon
        self.groundAnchor = groundAnchor
        self.zIndex = zIndex
        self.isFlat = isFlat
        self.isVisible = isVisible
        self.etaLabel = etaLabel
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        icon = try c.decodeIfPresent(String.self, forKey: .icon)
        groundAnchor = try c.checked([Double].self, .groundAnchor) { anchor in
            anchor.count == 2 && anchor.allSatisfy { (0...1).contains($0) }
                ? nil : "expected [x, y] with each value from 0 to 1"
        }
        zIndex = try c.checked(Int.self, .zIndex) { StyleLimits.zIndex.contains($0) ? nil : "must be within \(StyleLimits.zIndex)" }
        isFlat = try c.decodeIfPresent(Bool.self, forKey: .isFlat)
        isVisible = try c.decodeIfPresent(Bool.self, forKey: .isVisible)
        etaLabel = try c.decodeIfPresent(ETALabelPatch.self, forKey: .etaLabel)
    }
}

/// Partial ETA badge style.
struct ETALabelPatch: Codable, Hashable, Sendable {
    var isVisible: Bool?
    var textColor: Color?
    var backgroundColor: Color?
    var outlineColor: Color?
    var fontSize: Double?

    enum CodingKeys: String, CodingKey { case isVisible, textColor, backgroundColor, outlineColor, fontSize }

    init(
        isVisible: Bool? = nil, textColor: Color? = nil, backgroundColor: Color? = nil, outlineColor: Color? = nil,
        fontSize: Double? = nil
    ) {
        self.isVisible = isVisible
        self.textColor = textColor
        self.backgroundColor = backgroundColor
        self.outlineColor = outlineColor
        self.fontSize = fontSize
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isVisible = try c.decodeIfPresent(Bool.self, forKey: .isVisible)
        textColor = try c.decodeIfPresent(Color.self, forKey: .textColor)
        backgroundColor = try c.decodeIfPresent(Color.self, forKey: .backgroundColor)
        outlineColor = try c.decodeIfPresent(Color.self, forKey: .outlineColor)
        fontSize = try c.checked(Double.self, .fontSize) {
            StyleLimits.fontSize.contains($0) ? nil : "must be from \(StyleLimits.fontSize.lowerBound) to \(StyleLimits.fontSize.upperBound) pixels"
        }
    }
}

/// Partial polyline options.
struct PolylineStylePatch: Codable, Hashable, Sendable {
    var color: Color?
    var width: Double?
    var isVisible: Bool?
    var zIndex: Int?
    var isTrafficEnabled: Bool?
    var trafficColors: TrafficColorsPatch?

    enum CodingKeys: String, CodingKey { case color, width, isVisible, zIndex, isTrafficEnabled, trafficColors }

    init(
        color: Color? = nil, width: Double? = nil, isVisible: Bool? = nil, zIndex: Int? = nil,
        isTrafficEnabled: Bool? = nil, trafficColors: TrafficColorsPatch? = nil
    ) {
        self.color = color
        self.width = width
        self.isVisible = isVisible
        self.zIndex = zIndex
        self.isTrafficEnabled = isTrafficEnabled
        self.trafficColors = trafficColors
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        color = try c.decodeIfPresent(Color.self, forKey: .color)
        width = try c.checked(Double.self, .width) {
            StyleLimits.lineWidth.contains($0)
                ? nil : "must be from \(StyleLimits.lineWidth.lowerBound) to \(StyleLimits.lineWidth.upperBound) pixels"
        }
        isVisible = try c.decodeIfPresent(Bool.self, forKey: .isVisible)
        zIndex = try c.checked(Int.self, .zIndex) { StyleLimits.zIndex.contains($0) ? nil : "must be within \(StyleLimits.zIndex)" }
        isTrafficEnabled = try c.decodeIfPresent(Bool.self, forKey: .isTrafficEnabled)
        trafficColors = try c.decodeIfPresent(TrafficColorsPatch.self, forKey: .trafficColors)
    }
}

/// Partial traffic colours.
struct TrafficColorsPatch: Codable, Hashable, Sendable {
    var noData: Color?
    var normal: Color?
    var slow: Color?
    var trafficJam: Color?

    subscript(speed: SpeedType) -> Color? {
        get { self[keyPath: Self.member(speed)] }
        set { self[keyPath: Self.member(speed)] = newValue }
    }

    private static func member(_ speed: SpeedType) -> WritableKeyPath<Self, Color?> {
        speed.select(noData: \.noData, normal: \.normal, slow: \.slow, trafficJam: \.trafficJam)
    }
}

/// The bounds style values must keep.
enum StyleLimits {
    /// Stacking order.
    static let zIndex = -1_000_000...1_000_000
    /// Route widths in pixels at scale 1 (0 draws nothing).
    static let lineWidth = 0.0...64.0
    /// Badge text sizes in pixels at scale 1.
    static let fontSize = 6.0...48.0
}

extension KeyedDecodingContainer {
    /// Decodes an optional value and checks it; `problem` returns what is wrong, or nil.
    func checked<T: Decodable>(_ type: T.Type, _ key: Key, _ problem: (T) -> String?) throws -> T? {
        guard let value = try decodeIfPresent(type, forKey: key) else { return nil }
        if let message = problem(value) {
            throw FieldValidationError(codingPath: codingPath + [key], message: message)
        }
        return value
    }
}
