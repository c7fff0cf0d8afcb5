// A route with steps: the body of `PUT .../vehicles/{id}/route` and what the importers
// write. The polyline is the whole route; steps, durations, speed limits and destinations
// all point into it by vertex index, so nothing is matched by coordinates later.

import Geo
import JSON
import TripModel

/// A route to drive: polyline, steps, per-segment durations, speed limits and destinations.
public struct NavRoute: Hashable, Codable, Sendable {
    /// The whole route as a Google encoded polyline, precision 5.
    public var encodedPolyline: String
    /// The steps in driving order; step `i` has `stepNumber == i`.
    public var steps: [StepInfo]
    /// Traffic-aware duration of each polyline segment (point `i` to `i + 1`), in seconds.
    public var segmentDurationsSeconds: [Double]?
    /// Free-flow (no traffic) duration of each polyline segment, in seconds.
    package var freeFlowSegmentDurationsSeconds: [Double]?
    /// Posted speed limits over runs of the polyline, in order.
    public var speedLimits: [SpeedLimitSpan]?
    /// The waypoints the route visits, in order; the last is the final destination.
    public var destinations: [RouteDestination]
    /// The side of the road traffic keeps to.
    public var drivingSide: DrivingSide
    /// Other ways to the destination the router offered (at most two), drawn beside the route.
    package var alternateRoutes: [AlternateRoute]?
    /// Traffic lights and stop signs along the route, by polyline point, in route order.
    package var roadFeatures: [RoadFeature]?

    /// Creates a route; see ``validate(limits:)`` for the rules it must follow.
    public init(
        encodedPolyline: String,
        steps: [StepInfo],
        segmentDurationsSeconds: [Double]? = nil,
        freeFlowSegmentDurationsSeconds: [Double]? = nil,
        speedLimits: [SpeedLimitSpan]? = nil,
        destinations: [RouteDestination],
        drivingSide: DrivingSide = .none,
        alternateRoutes: [AlternateRoute]? = nil,
        roadFeatures: [RoadFeature]? = nil
    ) {
        self.encodedPolyline = encodedPolyline
        self.steps = steps
        self.segmentDurationsSeconds = segmentDurationsSeconds
        self.freeFlowSegmentDurationsSeconds = freeFlowSegmentDurationsSeconds
        self.speedLimits = speedLimits
        self.destinations = destinations
        self.drivingSide = drivingSide
        self.alternateRoutes = alternateRoutes
        self.roadFeatures = roadFeatures
    }

    private enum CodingKeys: String, CodingKey {
        case encodedPolyline, steps, segmentDurationsSeconds, freeFlowSegmentDurationsSeconds
        case speedLimits, destinations, drivingSide, alternateRoutes, roadFeatures
    }

    /// Decodes a route; `steps` may be left out (a bare polyline) and `drivingSide`
    /// defaults to `NONE`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        encodedPolyline = try c.decode(String.self, forKey: .encodedPolyline)
        steps = try c.decodeIfPresent([StepInfo].self, forKey: .steps) ?? []
        segmentDurationsSeconds = try c.decodeIfPresent([Double].self, forKey: .segmentDurationsSeconds)
        freeFlowSegmentDurationsSeconds = try c.decodeIfPresent(
            [Double].self, forKey: .freeFlowSegmentDurationsSeconds)
        speedLimits = try c.decodeIfPresent([SpeedLimitSpan].self, forKey: .speedLimits)
        destinations = try c.decode([RouteDestination].self, forKey: .destinations)
        drivingSide = try c.decodeIfPresent(DrivingSide.self, forKey: .drivingSide) ?? .none
        alternateRoutes = try c.decodeIfPresent([AlternateRoute].self, forKey: .alternateRoutes)
        roadFeatures = try c.decodeIfPresent([RoadFeature].self, forKey: .roadFeatures)
    }
}

/// Why a route was refused: the field path (`steps[3].polylineEndIndex`) and what was wrong
/// there.
public typealias NavRouteError = FieldError
