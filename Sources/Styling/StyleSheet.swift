// A complete style: every property of every marker and polyline type and of the map has a
// value. Style files and API bodies are partial (see StyleSheetPatch); they become a
// StyleSheet only on top of a complete base, ultimately styles/default.json.

/// Map, marker and polyline style options for a trip preview, complete.
public struct StyleSheet: Hashable, Sendable {
    /// The map under everything.
    public var map: MapStyleOptions
    private var pickup: MarkerStyleOptions
    private var dropoff: MarkerStyleOptions
    private var vehicle: MarkerStyleOptions
    private var intermediate: MarkerStyleOptions
    private var active: PolylineStyleOptions
    private var remaining: PolylineStyleOptions

    /// A sheet from the options of every type (asked for once per type).
    package init<E: Error>(
        map: MapStyleOptions, markers: (MarkerType) throws(E) -> MarkerStyleOptions,
        polylines: (PolylineType) throws(E) -> PolylineStyleOptions
    ) throws(E) {
        self.map = map
        pickup = try markers(.tripPickupPoint)
        dropoff = try markers(.tripDropoffPoint)
        vehicle = try markers(.tripVehicle)
        intermediate = try markers(.intermediateDestination)
        active = try polylines(.activeRoute)
        remaining = try polylines(.remainingRoute)
    }

    /// The options of a marker type.
    public subscript(marker type: MarkerType) -> MarkerStyleOptions {
        get {
            switch type {
            case .tripPickupPoint: pickup
            case .tripDropoffPoint: dropoff
            case .tripVehicle: vehicle
            case .intermediateDestination: intermediate
            }
        }
        set {
            switch type {
            case .tripPickupPoint: pickup = newValue
            case .tripDropoffPoint: dropoff = newValue
            case .tripVehicle: vehicle = newValue
            case .intermediateDestination: intermediate = newValue
            }
        }
    }

    /// The options of a polyline type.
    public subscript(polyline type: PolylineType) -> PolylineStyleOptions {
        get {
            switch type {
            case .activeRoute: active
            case .remainingRoute: remaining
            }
        }
        set {
            switch type {
            case .activeRoute: active = newValue
            case .remainingRoute: remaining = newValue
            }
        }
    }
}
