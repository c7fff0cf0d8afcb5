import TripModel

/// An entry of the append-only event log: trip and navigation events in the order they
/// happened, with monotonic IDs that SSE clients resume from.
public struct StoredEvent: Hashable, Sendable {
    /// Position in the log; strictly increasing, never reused.
    public var id: Int64
    /// When it happened (server time).
    public var time: Timestamp
    /// The provider of the vehicle and trips concerned.
    public var provider: String
    /// The vehicle it concerns, if any.
    public var vehicleId: String?
    /// The trips whose riders may see it.
    package var tripIds: [String]
    /// The event name, e.g. `didUpdateTripStatus`.
    public var type: String
    /// The event's JSON payload.
    public var data: String

    /// Creates an event record.
    package init(id: Int64, time: Timestamp, provider: String, vehicleId: String?, tripIds: [String], type: String, data: String) {
        self.id = id
        self.time = time
        self.provider = provider
        self.vehicleId = vehicleId
        self.tripIds = tripIds
        self.type = type
        self.data = data
    }
}

/// Which events a reader wants.
public enum EventFilter: Hashable, Sendable {
    /// Everything (a server reader).
    case all
    /// Events a trip's rider may see.
    case trip(provider: String, tripId: String)
    /// Events about a vehicle.
    case vehicle(provider: String, vehicleId: String)

    /// Whether `event` is one this filter lets through.
    package func matches(_ event: StoredEvent) -> Bool {
        switch self {
        case .all: return true
        case .trip(let provider, let tripId): return event.provider == provider && event.tripIds.contains(tripId)
        case .vehicle(let provider, let vehicleId): return event.provider == provider && event.vehicleId == vehicleId
        }
    }
}

/// An event about to be appended (the store assigns its ID).
public struct NewEvent: Hashable, Sendable {
    /// When it happened.
    public var time: Timestamp
    /// The vehicle it concerns.
    public var vehicleId: String?
    /// The trips whose riders may see it.
    package var tripIds: [String]
    /// The event name.
    public var type: String
    /// The JSON payload.
    public var data: String

    /// Creates an event.
    package init(time: Timestamp, vehicleId: String?, tripIds: [String], type: String, data: String) {
        self.time = time
        self.vehicleId = vehicleId
        self.tripIds = tripIds
        self.type = type
        self.data = data
    }
}
