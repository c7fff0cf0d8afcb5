import Geo

/// A vehicle's progress along its route with steps as its navigator measures it: where it is
/// on the route and how far and how long each destination still ahead is. Where a vehicle
/// has one, ``JourneyState`` takes the riders' distances and times from it (DESIGN §5, one
/// progress model): a rider's app and the driver's screen never disagree.
public struct RouteProgress: Hashable, Sendable {
    /// A destination of the route not reached yet.
    package struct Destination: Hashable, Sendable {
        /// Where the route's destination is.
        package var location: LatLng
        /// Metres along the route from the vehicle.
        package var distanceMeters: Double
        /// Seconds along the route from the vehicle.
        package var durationSeconds: Double
        /// The route's previous destination; nil when this is the route's first.
        package var previousLocation: LatLng?
        /// The route from the previous destination (or the route's start) to this one.
        package var pathFromPrevious: [LatLng]

        /// Creates a destination.
        package init(
            location: LatLng, distanceMeters: Double, durationSeconds: Double,
            previousLocation: LatLng? = nil, pathFromPrevious: [LatLng] = []
        ) {
            self.location = location
            self.distanceMeters = distanceMeters
            self.durationSeconds = durationSeconds
            self.previousLocation = previousLocation
            self.pathFromPrevious = pathFromPrevious
        }
    }

    /// The vehicle's position on the route (road-snapped); nil when the navigator has it off
    /// the route, where the reported location is used instead.
    package var position: LatLng?
    /// The destinations not reached yet, in route order; distances and durations grow along it.
    package var destinations: [Destination]

    /// Creates a progress.
    package init(position: LatLng?, destinations: [Destination]) {
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

    /// The route's road from stop `a` to stop `b`, both among its destinations (`b` ahead of
    /// the vehicle, `a` before it, each within ``Estimation/waypointMatchMeters``), through
    /// any destinations between them; nil when the route does not lead from one to the other.
    /// Riders see this path for the legs after their next waypoint instead of a straight line.
    func path(from a: LatLng, to b: LatLng) -> [LatLng]? {
        let near = { (p: LatLng, q: LatLng) in Earth.distance(p, q) <= Estimation.waypointMatchMeters }
        guard let end = destinations.firstIndex(where: { near($0.location, b) }) else { return nil }
        var index = end
        var path: [LatLng] = []
        while index >= destinations.startIndex {
            let leg = destinations[index]
            guard !leg.pathFromPrevious.isEmpty else { return nil }
            path = leg.pathFromPrevious.dropLast(path.isEmpty ? 0 : 1) + path
            if let previous = leg.previousLocation, near(previous, a) { return path.count >= 2 ? path : nil }
            index -= 1
        }
        return nil
    }
}
