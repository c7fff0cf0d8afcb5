import JSON
import Testing
import TripModel
import TripStore

/// The cumulative distances kept beside a route read back exactly as they were written; bytes
/// that are not whole doubles are refused, so the route is measured anew instead.
@Suite struct StoredRouteTests {
    @Test func distancesReadBackExactly() {
        let meters: [Double] = [0, 0.1, 12.5, 1e-300, 123_456.789, .greatestFiniteMagnitude]
        let bytes = StoredRoute.bytes(meters)
        #expect(bytes.count == meters.count * 8)
        #expect(StoredRoute.cumulativeMeters(bytes) == meters)
        #expect(StoredRoute.cumulativeMeters(bytes[8...]) == Array(meters.dropFirst()))
        #expect(StoredRoute.cumulativeMeters([]) == [])
        #expect(StoredRoute.cumulativeMeters(bytes.dropLast()) == nil)
    }

    /// An update's answer, made from the row's body with the route put back, is byte for byte
    /// the vehicle as a read encodes it: the same members in the same order, with or without
    /// the members that follow the route, and where the row leaves out the path to the first
    /// waypoint (issue 30), its traffic and the members after them put back in the first
    /// waypoint only, without encoding the vehicle again (issue 31).
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func answerIsTheVehicleAsEncoded(withLaterMembers: Bool, firstPathLeftOut: Bool) throws {
        var vehicle = Vehicle(name: "providers/p/vehicles/v1")
        vehicle.vehicleState = .online
        vehicle.waypointsVersion = Timestamp(secondsSince1970: 1_700_000_000)
        vehicle.currentRouteSegment = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        if withLaterMembers {
            vehicle.currentRouteSegmentVersion = Timestamp(secondsSince1970: 1_700_000_100)
            vehicle.remainingDistanceMeters = 1_234
            vehicle.remainingTimeSeconds = 120
        }
        var tracking = RouteTracking()
        if firstPathLeftOut {
            let traffic = ConsumableTrafficPolyline(speedReadingInterval: [
                SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: 1, speed: .trafficJam)
            ])
            var first = TripWaypoint(tripId: "t1", waypointType: .pickup, encodedPathToWaypoint: "_ulLnnqC_mqNvxq`@", trafficToWaypoint: traffic)
            if withLaterMembers {
                first.distanceMeters = 800
                first.eta = Timestamp(secondsSince1970: 1_700_000_200)
            }
            // The second waypoint's path is no part of the route's rest: the row keeps it.
            let second = TripWaypoint(tripId: "t1", waypointType: .dropOff, encodedPathToWaypoint: "_mqNvxq`@", distanceMeters: 400)
            vehicle.waypoints = [first, second]
            tracking.firstLegStartMeters = 12
        }
        let record = VehicleRecord(vehicle: vehicle, tracking: tracking)
        let body = try JSONStreamEncoder().encode(StoredRoute.body(of: record))
        let bodyText = String(decoding: body, as: UTF8.self)
        #expect(bodyText.contains("_ulLnnqC") == false)
        #expect(bodyText.contains("TRAFFIC_JAM") == false)
        #expect(bodyText.contains("_mqNvxq`@") == firstPathLeftOut)
        let answer = try StoredRoute.answer(body: body, record: record)
        #expect(String(decoding: answer, as: UTF8.self) == String(decoding: try JSONStreamEncoder().encode(vehicle), as: UTF8.self))
    }
}
