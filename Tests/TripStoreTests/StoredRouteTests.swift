import Foundation
import Geo
import JSON
import Testing
import TripStore

@testable import TripModel

/// A route read back from its stored checkpoints is the route as measured when it was set: the
/// same stretches and the same paths (issue 30); checkpoints that do not fit it are refused, so
/// the route is measured anew instead.
@Suite struct StoredRouteTests {
    /// A route of 2 m steps, one whose steps far north are partly under the merging distance,
    /// and one written with a value in more bytes than needed.
    static let polylines: [String] = [
        EncodedPolyline.encode((0..<300).map { LatLng(latitude: 37.3 + Double($0) * 0.00002, longitude: -122.1 + 0.00001 * sin(Double($0) / 7)) }),
        EncodedPolyline.encode((0..<200).map { LatLng(latitude: 70.5 + Double($0 / 3) * 0.00001, longitude: 25 + Double($0) * 0.00001) }),
        "_p~iF~ps|U_ulLnnqC_mqNvxq`@" + "?_?",
    ]

    @Test func checkpointsReadBackAsMeasured() throws {
        for polyline in Self.polylines {
            let measured = try #require(MeasuredRoute(polyline: polyline))
            let bytes = StoredRoute.checkpointBytes(measured)
            let read = try #require(StoredRoute.route(polyline: polyline, checkpoints: bytes))
            #expect(read.line.checkpoints == measured.line.checkpoints)
            #expect(read.line.checkpointMeters.map(\.bitPattern) == measured.line.checkpointMeters.map(\.bitPattern))
            #expect(read.pathsCutFromPolyline == measured.pathsCutFromPolyline)
            let whole = measured.wholeMeasure()
            #expect(read.wholeMeasure() == whole)
            for start in stride(from: -1, through: whole.totalMeters + 1, by: whole.totalMeters / 37) {
                #expect(
                    TrafficPath.remainderPath(of: read, from: start, stretches: nil).encoded
                        == TrafficPath.remainderPath(of: measured, from: start, stretches: nil).encoded)
            }
            for bad in [Array(bytes.dropLast()), [], Array(bytes.prefix(48)), Array(repeating: 0xff, count: bytes.count)] {
                #expect(StoredRoute.route(polyline: polyline, checkpoints: bad)?.wholeMeasure() == whole)
            }
        }
        #expect(StoredRoute.route(polyline: "not a polyline \u{1}", checkpoints: [UInt8]()) == nil)
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
        vehicle.currentRouteSegment = #"_p~iF\~ps|U_ulLnnqC_mqNvxq`@"#
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
        let answer = try #require(StoredRoute.answer(body: body, record: record)).bytes()
        #expect(String(decoding: answer, as: UTF8.self) == String(decoding: try JSONStreamEncoder().encode(vehicle), as: UTF8.self))
    }
}
