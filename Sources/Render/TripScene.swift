// What a rider's preview shows, read from a trip in the JOURNEY_SHARING_V1S view (DESIGN
// §5, §7): the active route (from the vehicle through this trip's next waypoint), the
// remaining route (on to this trip's dropoff), each with a traffic speed per segment, and
// the markers still relevant to the trip's status. Other riders' stops arrive without
// location or trip ID: their paths are part of the route, but they get no marker.

import Foundation
import Geo
import Styling
import TripModel

/// The drawable content of a trip, independent of style and camera.
struct TripScene {
    /// A route line: vertices and one traffic speed per segment.
    struct Route {
        var points: [LatLng] = []
        var speeds: [SpeedType] = []
    }

    /// A marker to draw.
    struct Marker {
        var type: MarkerType
        var location: LatLng
        /// Degrees clockwise from north (the vehicle's heading).
        var heading: Double?
        /// The stop number of an intermediate destination (1-based).
        var number: Int?
    }

    var activeRoute = Route()
    var remainingRoute = Route()
    var markers: [Marker] = []

    init(trip: Trip) {
        let waypoints = trip.remainingWaypoints
        let own = trip.tripId
        let next = waypoints.firstIndex { $0.tripId == own } ?? (waypoints.count - 1)
        let last = waypoints.lastIndex { $0.tripId == own } ?? (waypoints.count - 1)
        if !waypoints.isEmpty, !trip.tripStatus.isTerminal {
            for (index, waypoint) in waypoints.enumerated() where index <= last {
                if index <= next { Self.append(waypoint, to: &activeRoute) } else { Self.append(waypoint, to: &remainingRoute) }
            }
        }
        markers = Self.markers(of: trip, activeRoute: activeRoute)
    }

    /// Adds a waypoint's path (and traffic) to a route, sharing the joint vertex.
    private static func append(_ waypoint: TripWaypoint, to route: inout Route) {
        guard let encoded = waypoint.encodedPathToWaypoint ?? waypoint.trafficToWaypoint?.encodedPathToWaypoint,
            let path = try? EncodedPolyline.decode(encoded), !path.isEmpty
        else { return }
        var speeds = [SpeedType](repeating: .noData, count: max(path.count - 1, 0))
        for interval in waypoint.trafficToWaypoint?.speedReadingInterval ?? [] {
            let start = max(0, interval.startPolylinePointIndex)
            let end = min(speeds.count, interval.endPolylinePointIndex)
            guard start < end else { continue }
            for segment in start..<end { speeds[segment] = SpeedType(interval.speed) }
        }
        // Consecutive paths share their joint vertex; a gap between them (not expected) is
        // bridged by a segment without traffic data.
        let skip = route.points.last == path[0] ? 1 : 0
        if skip == 0, !route.points.isEmpty { route.speeds.append(.noData) }
        route.points.append(contentsOf: path.dropFirst(skip))
        route.speeds.append(contentsOf: speeds)
    }

    /// The markers for the trip's status: the vehicle while the trip runs, the pickup until
    /// the rider is aboard, stops not yet passed (numbered), and the dropoff.
    private static func markers(of trip: Trip, activeRoute: Route) -> [Marker] {
        var markers: [Marker] = []
        let status = trip.tripStatus
        let beforePickup = status.isBeforePickup || status == .arrivedAtPickup
        if let pickup = trip.pickupPoint?.point, beforePickup {
            markers.append(Marker(type: .tripPickupPoint, location: pickup))
        }
        if status != .canceled {
            let passed: Int
            switch status {
            case .enrouteToIntermediateDestination, .arrivedAtIntermediateDestination:
                passed = trip.intermediateDestinationIndex ?? 0
            case .enrouteToDropoff, .complete: passed = trip.intermediateDestinations.count
            default: passed = 0
            }
            for (index, stop) in trip.intermediateDestinations.enumerated() where index >= passed {
                markers.append(Marker(type: .intermediateDestination, location: stop.point, number: index + 1))
            }
            if let dropoff = trip.dropoffPoint?.point {
                markers.append(Marker(type: .tripDropoffPoint, location: dropoff))
            }
        }
        if !status.isTerminal, let location = trip.lastLocation?.location {
            let heading = trip.lastLocation?.heading.map(Double.init) ?? Self.initialBearing(of: activeRoute)
            markers.append(Marker(type: .tripVehicle, location: location, heading: heading))
        }
        return markers
    }

    /// The direction of the route's first segment of any length, for a vehicle that sent no heading.
    private static func initialBearing(of route: Route) -> Double? {
        guard let first = route.points.first,
            let next = route.points.first(where: { Earth.distance(first, $0) > 1 })
        else { return nil }
        let a = WebMercator.worldPoint(first, zoom: 0)
        let b = WebMercator.worldPoint(next, zoom: 0)
        let degrees = atan2(b.x - a.x, -(b.y - a.y)) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}
