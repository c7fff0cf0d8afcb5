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

    /// A trip composed with its vehicle decoded for that alone (``StoredRoute/tripProgressSource(body:tracking:polyline:checkpoints:)``:
    /// the members a trip takes, of the tracking where the first leg starts) is the trip composed
    /// with the whole vehicle: the same live fields, and the path to the first stop, with its
    /// traffic, cut from the route where the row left it out.
    @Test func tripComposedFromItsProgressSourceIsComposedFromTheWholeVehicle() throws {
        let polyline = Self.polylines[0]
        let measured = try #require(MeasuredRoute(polyline: polyline))
        let checkpoints = StoredRoute.checkpointBytes(measured)
        var vehicle = Vehicle(name: "providers/p/vehicles/v1")
        vehicle.vehicleState = .online
        vehicle.maximumCapacity = 4
        vehicle.currentTrips = ["t1", "t2"]
        vehicle.lastLocation = VehicleLocation(location: LatLng(latitude: 37.3001, longitude: -122.1))
        vehicle.currentRouteSegment = polyline
        vehicle.currentRouteSegmentVersion = Timestamp(secondsSince1970: 1_700_000_100)
        vehicle.currentRouteSegmentTraffic = TrafficPolylineData(roadStretch: [
            RoadStretch(style: .slowerTraffic, offsetMeters: 10, lengthMeters: 40)
        ])
        vehicle.remainingDistanceMeters = 550
        vehicle.remainingTimeSeconds = 60
        vehicle.waypoints = [
            TripWaypoint(tripId: "t2", waypointType: .pickup, encodedPathToWaypoint: "unused", distanceMeters: 300),
            TripWaypoint(tripId: "t1", waypointType: .pickup, distanceMeters: 500),
            TripWaypoint(tripId: "t1", waypointType: .dropOff, encodedPathToWaypoint: "_mqNvxq`@", distanceMeters: 900),
        ]
        var tracking = RouteTracking()
        tracking.firstLegStartMeters = 20
        let record = VehicleRecord(vehicle: vehicle, tracking: tracking)
        let body = try JSONCoding.encodeText(StoredRoute.body(of: record))
        let trackingText = try JSONCoding.encodeText(tracking)
        let whole = StoredRoute.vehicle(
            body: try StoredJSONDecoder.decode(Vehicle.self, from: body, root: "stored"), tracking: tracking, polyline: polyline,
            checkpoints: checkpoints)
        let source = try StoredRoute.tripProgressSource(body: body, tracking: trackingText, polyline: polyline, checkpoints: checkpoints)
        #expect(whole.waypoints[0].encodedPathToWaypoint != nil)
        #expect(source.waypoints == whole.waypoints)
        var trip = Trip(name: "providers/p/trips/t1")
        trip.vehicleId = "v1"
        trip.tripStatus = .enrouteToPickup
        #expect(trip.withProgress(of: source) == trip.withProgress(of: whole))
        #expect(trip.withProgress(of: source).remainingWaypoints.count == 3)

        let error = try #require(throws: StatusError.self) {
            try StoredRoute.tripProgressSource(body: #"{"waypoints": {}}"#, tracking: trackingText, polyline: polyline, checkpoints: checkpoints)
        }
        #expect(error.code == .internal && error.message.contains("stored Vehicle"))
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
