import Foundation
import Geo
import JSON
import Navigation
import NavigationTesting
import Testing
import TripModel
import TripServerTesting

@testable import TripServer

/// A shared ride of two riders (issue 29, item 3): in either rider's view, no returned path
/// ends, and no waypoint is located, within 30 m of the other rider's stops; each rider's
/// stop gets one path from the vehicle or the rider's previous stop. On straight stand-in legs
/// and on a navigated route, whose legs end near, not on, the stops.
@Suite struct SharedRidePrivacyTests {
    /// Rider a is picked up 500 m along a 3 km road east, b at 1 km; a is dropped at 2 km and b
    /// at the end; the provider interleaves them a+, b+, a-, b-.
    static let route = StraightRoute.streets()
    static var points: [LatLng] { (try? EncodedPolyline.decode(route.encodedPolyline)) ?? [] }
    static let stops = ["a": (pickup: 10, dropoff: 40), "b": (pickup: 20, dropoff: 60)]

    static func tripBody(_ trip: String) -> String {
        func point(_ index: Int) -> String { #"{"point": {"latitude": \#(points[index].latitude), "longitude": \#(points[index].longitude)}}"# }
        let stop = stops[trip]!
        return #"{"tripType": "SHARED", "vehicleId": "v1", "pickupPoint": \#(point(stop.pickup)), "dropoffPoint": \#(point(stop.dropoff))}"#
    }

    @Test(arguments: [false, true]) func ridersSeeNoOtherStops(navigated: Bool) async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await client.expect(
                .ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: harness.server,
                body: #"{"vehicleState": "ONLINE", "supportedTripTypes": ["SHARED"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}}"#)
            for trip in ["a", "b"] {
                try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=\(trip)", as: harness.server, body: Self.tripBody(trip))
            }
            let order = [("a", "PICKUP"), ("b", "PICKUP"), ("a", "DROP_OFF"), ("b", "DROP_OFF")].map {
                #"{"tripId": "\#($0.0)", "waypointType": "\#($0.1)_WAYPOINT_TYPE"}"#
            }
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=waypoints", as: harness.server,
                body: #"{"waypoints": [\#(order.joined(separator: ", "))]}"#)
            if navigated {
                var route = Self.route
                route.destinations = [10, 20, 40, 60].map { RouteDestination(location: Self.points[$0], polylinePointIndex: $0) }
                let body = String(decoding: try JSONCoding.encode(route), as: UTF8.self)
                try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1/route", as: harness.server, body: body)
            }
            let start = Self.points[0]
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: Bodies.location(start.latitude, start.longitude))

            for (rider, other) in [("a", "b"), ("b", "a")] {
                let reply = try await client.expect(.ok, .get, "/v1/providers/p/trips/\(rider)", as: harness.consumer(rider))
                let trip = try StrictJSONDecoder().decode(Trip.self, from: reply.body, root: "trip")
                let theirs = [Self.stops[other]!.pickup, Self.stops[other]!.dropoff].map { Self.points[$0] }
                let mine = [Self.stops[rider]!.pickup, Self.stops[rider]!.dropoff].map { Self.points[$0] }
                let shown = trip.remainingWaypoints
                #expect(shown.filter { $0.tripId == rider }.count == 2, "rider \(rider): \(shown)")
                for waypoint in shown {
                    if let location = waypoint.location?.point {
                        #expect(theirs.allSatisfy { Earth.distance($0, location) >= 30 }, "rider \(rider) sees a stop of \(other)")
                    }
                    guard let encoded = waypoint.encodedPathToWaypoint else {
                        #expect(waypoint.tripId == nil && waypoint.eta == nil && waypoint.distanceMeters == nil && waypoint.duration == nil)
                        continue
                    }
                    let path = try EncodedPolyline.decode(encoded)
                    for end in [path.first, path.last].compactMap({ $0 }) {
                        #expect(theirs.allSatisfy { Earth.distance($0, end) >= 30 }, "rider \(rider)'s path ends at a stop of \(other)")
                    }
                    // Each of the rider's stops is reached by one path that ends at it.
                    #expect(waypoint.tripId == rider)
                    #expect(mine.contains { Earth.distance($0, path.last!) < 30 })
                }
            }
        }
    }
}
