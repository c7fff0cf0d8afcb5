import Geo

/// What the operator's map says about the roads under a route, by metres from the route's
/// start: the class of each stretch it could match to a road, where the route must give way
/// at a junction, and where it passes a traffic light. Metres outside every stretch are not
/// covered (no tile there, or no road of the map under the route): there the estimate falls
/// back to the vehicle type's typical speed (``Estimation/freeFlowSpeed(_:)``).
public struct RoadsAlong: Codable, Hashable, Sendable {
    /// A stretch of the route on roads of one class.
    package struct Stretch: Codable, Hashable, Sendable {
        /// Metres from the route's start where it begins.
        package var from: Double
        /// Metres from the route's start where it ends.
        package var to: Double
        /// The roads' class.
        package var roadClass: RoadClass

        /// Creates a stretch.
        package init(from: Double, to: Double, roadClass: RoadClass) {
            self.from = from
            self.to = to
            self.roadClass = roadClass
        }
    }

    /// Stretches of known class, in route order, not overlapping.
    package var stretches: [Stretch]
    /// Metres from the start of each junction without lights where the route gives way: to a
    /// crossing road that ranks higher (``RoadClass/rank``), or to one of its own rank where
    /// its road ends (the stem of a T); increasing.
    package var giveWays: [Double]
    /// Metres from the start of each traffic light the route passes; increasing.
    package var trafficSignals: [Double]

    /// Creates what the map says about a route.
    package init(stretches: [Stretch], giveWays: [Double] = [], trafficSignals: [Double] = []) {
        self.stretches = stretches
        self.giveWays = giveWays
        self.trafficSignals = trafficSignals
    }

    /// Metres of the route with a known road class.
    package var coveredMeters: Double { stretches.reduce(0) { $0 + ($1.to - $1.from) } }
}

/// The operator's map as the estimator reads it (DESIGN §5, road class from the basemap):
/// the roads under a route. The application layer holds one when the server has a basemap and
/// asks it only when a vehicle's route segment changes, or, for a vehicle no route is known
/// for, when the stop it heads for changes (and every ``Estimation/profileLifetimeSeconds``);
/// never on every update.
public protocol RoadClassSource: Sendable {
    /// What the map says about the roads under `route` (a polyline, start to end).
    func roads(along route: [LatLng]) -> RoadsAlong

    /// The roads within `meters` of the straight line from `a` to `b`, by class; empty where
    /// the map has none (no tile there).
    func roads(near a: LatLng, _ b: LatLng, within meters: Double) -> RoadMix
}
