// The trip status state machine of DESIGN §3: a trip moves forward through pickup, any
// number of intermediate destinations, and dropoff; any unfinished trip may be canceled.

/// The status of a trip; legal moves are given by ``canMove(to:)``.
package enum TripStatus: String, WireEnum {
    case unknown = "UNKNOWN_TRIP_STATUS"
    case new = "NEW"
    case enrouteToPickup = "ENROUTE_TO_PICKUP"
    case arrivedAtPickup = "ARRIVED_AT_PICKUP"
    case arrivedAtIntermediateDestination = "ARRIVED_AT_INTERMEDIATE_DESTINATION"
    case enrouteToIntermediateDestination = "ENROUTE_TO_INTERMEDIATE_DESTINATION"
    case enrouteToDropoff = "ENROUTE_TO_DROPOFF"
    case complete = "COMPLETE"
    case canceled = "CANCELED"

    package var number: Int {
        switch self {
        case .unknown: 0
        case .new: 1
        case .enrouteToPickup: 2
        case .arrivedAtPickup: 3
        case .enrouteToDropoff: 4
        case .complete: 5
        case .canceled: 6
        case .arrivedAtIntermediateDestination: 7
        case .enrouteToIntermediateDestination: 8
        }
    }

    /// True for `COMPLETE` and `CANCELED`: nothing follows them.
    package var isTerminal: Bool { self == .complete || self == .canceled }

    /// True while the rider is still waiting to be picked up.
    package var isBeforePickup: Bool { self == .new || self == .enrouteToPickup || self == .unknown }

    /// Whether the state machine allows going from this status to `next`. Staying is
    /// allowed (setting the current status again is a no-op).
    package func canMove(to next: TripStatus) -> Bool {
        if next == self { return true }
        if isTerminal || next == .unknown || next == .new { return false }
        if next == .canceled { return true }
        switch (self, next) {
        case (.unknown, _): return true
        case (.new, .enrouteToPickup),
            (.enrouteToPickup, .arrivedAtPickup),
            (.arrivedAtPickup, .enrouteToIntermediateDestination),
            (.arrivedAtPickup, .enrouteToDropoff),
            (.enrouteToIntermediateDestination, .arrivedAtIntermediateDestination),
            (.arrivedAtIntermediateDestination, .enrouteToIntermediateDestination),
            (.arrivedAtIntermediateDestination, .enrouteToDropoff),
            (.enrouteToDropoff, .complete):
            return true
        default:
            return false
        }
    }
}
