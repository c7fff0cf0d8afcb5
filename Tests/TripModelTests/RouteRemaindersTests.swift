import Foundation
import Geo
import Testing

@testable import TripModel

/// The first leg's path is cut from the route encoded once (issue 30): it must be exactly the
/// path gathered vertex by vertex, and a store that leaves it out of the vehicle's row must get
/// it back exactly.
@Suite struct RouteRemaindersTests {
    /// Routes as vehicles send them (decoded from their polylines): 2 m steps; far north, where
    /// a step of 1e-5° of longitude is under the merging distance; repeated vertices.
    static let routes: [[LatLng]] = [
        (0..<300).map { LatLng(latitude: 37.3 + Double($0) * 0.00002, longitude: -122.1 + 0.00001 * sin(Double($0) / 7)) },
        (0..<200).map { LatLng(latitude: 70.5 + Double($0 / 3) * 0.00001, longitude: 25 + Double($0) * 0.00001) },
        (0..<150).map { LatLng(latitude: 60.17 + Double($0 / 2) * 0.0001, longitude: 24.94 + Double($0 % 5) * 0.000003) },
    ]

    /// The path as it was made before it was cut from the remainders: the route's slice from
    /// `start`, vertex by vertex, encoded.
    static func gathered(_ measure: PolylineMeasure, from start: Double) -> String {
        let total = measure.totalMeters
        let begin = min(max(0, start), total)
        let pieces = TrafficPath.pieces(from: begin, to: total, stretches: nil)
        return EncodedPolyline.encode(TrafficPath.cut(measure, pieces: pieces, traffic: false).points)
    }

    /// From every vertex, between vertices, just before and after them, and beyond both ends.
    @Test func pathsAreThoseGatheredVertexByVertex() throws {
        for (n, road) in Self.routes.enumerated() {
            let route = try #require(MeasuredRoute(polyline: EncodedPolyline.encode(road)))
            let measure = route.wholeMeasure()
            let meters = measure.cumulativeMeters
            var starts = [-5, measure.totalMeters, measure.totalMeters + 3]
            for index in meters.indices {
                starts += [meters[index], meters[index].nextDown, meters[index].nextUp, meters[index] + 0.3]
                if index + 1 < meters.count { starts.append((meters[index] + meters[index + 1]) / 2) }
            }
            for start in starts {
                let cut = TrafficPath.remainderPath(of: route, from: start, stretches: nil)
                #expect(cut.encoded == Self.gathered(measure, from: start), "route \(n) from \(start) m")
                #expect(cut.intervals.isEmpty)
            }
        }
    }

    /// A vehicle refreshed on a route, with or without the driver's traffic, comes back whole
    /// from its stored form: the first waypoint's path and traffic cut again from the route.
    @Test func storedVehicleGetsItsPathBack() throws {
        let road = Self.routes[0]
        for traffic in [nil, TrafficPolylineData(roadStretch: [RoadStretch(style: .trafficJam, offsetMeters: 150, lengthMeters: 100)])] {
            var vehicle = try onlineVehicle()
            var update = Vehicle(name: "")
            update.currentRouteSegment = EncodedPolyline.encode(road)
            update.currentRouteSegmentTraffic = traffic
            update.lastLocation = VehicleLocation(location: road[40])
            try vehicle.apply(update, mask: FieldMask("currentRouteSegment,currentRouteSegmentTraffic,lastLocation"), now: t0)
            var trips = [try newTrip("t1", pickup: road[road.count - 1], dropoff: LatLng(latitude: 37.45, longitude: -121.99))]
            var tracking = RouteTracking()
            try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true))
            #expect(vehicle.waypoints[0].encodedPathToWaypoint != nil)
            #expect((vehicle.waypoints[0].trafficToWaypoint != nil) == (traffic != nil))

            let stored = JourneyState.withoutFirstPath(vehicle, tracking: tracking)
            #expect(stored.waypoints[0].encodedPathToWaypoint == nil && stored.waypoints[0].trafficToWaypoint == nil)
            var read = stored
            JourneyState.restoreFirstPath(of: &read, tracking: tracking, route: MeasuredRoute(polyline: EncodedPolyline.encode(road)))
            #expect(read == vehicle)
        }
    }

    /// A first leg that is a straight stand-in (the route does not lead to the stop) stays in
    /// the vehicle's row: nothing could cut it again.
    @Test func straightFirstLegIsKept() throws {
        let road = Self.routes[0]
        var vehicle = try onlineVehicle()
        var update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(road)
        update.lastLocation = VehicleLocation(location: road[40])
        try vehicle.apply(update, mask: FieldMask("currentRouteSegment,lastLocation"), now: t0)
        var trips = [try newTrip("t1", pickup: LatLng(latitude: 37.5, longitude: -122.3), dropoff: LatLng(latitude: 37.45, longitude: -121.99))]
        var tracking = RouteTracking()
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true))
        #expect(tracking.firstLegStartMeters == nil)
        #expect(JourneyState.withoutFirstPath(vehicle, tracking: tracking) == vehicle)
    }
}
