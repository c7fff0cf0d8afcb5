import Geo

/// A vehicle's progress along its route with steps as its navigator measures it: where it is
/// on the route and how far and how long each destination still ahead is. Where a vehicle
/// has one, ``JourneyState`` takes the riders' distances and times from it (DESIGN §5, one
/// progress model): a rider's app and the driver's screen never disagree.
public struct RouteProgress: Hashable, Sendable {
    /// A destination of the route not reached yet.
    public struct Destination: Hashable, Sendable {
        /// Where the route's destination is.
        public var location: LatLng
        /// Metres along the route from the vehicle.
        public var distanceMeters: Double
        /// Seconds along the route from the vehicle.
        public var durationSeconds: Double

        /// Creates a destination.
        public init(location: LatLng, distanceMeters: Double, durationSeconds: Double) {
            self.location = location
            self.distanceMeters = distanceMeters
            self.durationSeconds = durationSeconds
        }
    }

    /// The vehicle's position on the route (road-snapped); nil when the navigator has it off
    /// the route, where the reported location is used instead.
    public var position: LatLng?
    /// The destinations not reached yet, in route order; distances and durations grow along it.
    public var destinations: [Destination]

    /// Creates a progress.
    public init(position: LatLng?, destinations: [Destination]) {
        self.position = position
        self.destinations = destinations
    }

    /// The distances and durations from the vehicle to each of `stops` in turn, as far as the
    /// route visits them in that order: a stop is matched to the next destination ahead
    /// within ``Estimation/waypointMatchMeters`` of it (destinations between two stops are
    /// the driver's own and are driven through). The result stops at the first stop the route
    /// does not reach.
    func legs(to stops: [TripWaypoint]) -> [(meters: Double, seconds: Double)] {
        var legs: [(meters: Double, seconds: Double)] = []
        var next = destinations.startIndex
        var covered = (meters: 0.0, seconds: 0.0)
        for stop in stops {
            guard let point = stop.location?.point,
                let match = destinations[next...].firstIndex(where: { Earth.distance($0.location, point) <= Estimation.waypointMatchMeters })
            else { break }
            let destination = destinations[match]
            legs.append((destination.distanceMeters - covered.meters, destination.durationSeconds - covered.seconds))
            covered = (destination.distanceMeters, destination.durationSeconds)
            next = match + 1
        }
        return legs
    }
}
