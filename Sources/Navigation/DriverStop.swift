// What the driver's screen says while there is no maneuver to follow (DESIGN §9): the
// Navigation SDK's arrival at a destination, and the two moments around it that a ride-hailing
// driver app shows — waiting at a pickup for the rider, and the trip over. The application
// layer decides which from the navigator and the vehicle's trips; the screen only words it.

/// The driver's situation at a stop.
public enum DriverStop: Hashable, Sendable {
    /// Arrived at a destination of the route; `place` names it when known ("Kaivokatu 1").
    case arrived(place: String?)
    /// At a rider's pickup, waiting for the rider to get in.
    case waitingForRider(place: String?)
    /// The trip is over (the rider dropped off) and no other trip is under way.
    case tripComplete(place: String?)

    /// Where the stop is, when known.
    package var place: String? {
        switch self {
        case .arrived(let place), .waitingForRider(let place), .tripComplete(let place): place
        }
    }

    /// The headline: "You have arrived", "Waiting for your rider", "Trip complete".
    package var title: String {
        switch self {
        case .arrived: "You have arrived"
        case .waitingForRider: "Waiting for your rider"
        case .tripComplete: "Trip complete"
        }
    }

    /// The headline and the place on one line: "You have arrived · Kaivokatu 1".
    package var text: String {
        place.map { "\(title) · \($0)" } ?? title
    }

    /// A short stable name for digests and logs.
    package var key: String {
        switch self {
        case .arrived: "arrived"
        case .waitingForRider: "waitingForRider"
        case .tripComplete: "tripComplete"
        }
    }
}
