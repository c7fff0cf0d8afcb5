import Foundation
import Geo
import JSON
import Testing
import TripStore

@testable import TripModel

/// Reads that only compose a trip with its vehicle decode of the rows only what the composed
/// trip shows (issue 30): what they compose is what the whole rows compose.
@Suite struct ComposedTripRowsTests {
    /// A trip composed from its rows decoded for that alone (of the vehicle the members a trip
    /// takes and where the first leg starts, of the trip all but the live fields) is the trip
    /// composed from the whole rows: the same live fields, and the path to the first stop,
    /// with its traffic, cut from the route where the row left it out.
    @Test func composedFromRowsReadInPartAsFromWholeRows() throws {
        let polyline = StoredRouteTests.polylines[0]
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
        let source = try ComposedTripRows.vehicle(body: body, tracking: trackingText, polyline: polyline, checkpoints: checkpoints)
        #expect(whole.waypoints[0].encodedPathToWaypoint != nil)
        #expect(source.waypoints == whole.waypoints)
        var trip = Trip(name: "providers/p/trips/t1")
        trip.vehicleId = "v1"
        trip.tripStatus = .enrouteToPickup
        trip.numberOfPassengers = 2
        trip.pickupPoint = TerminalLocation(point: LatLng(latitude: 37.31, longitude: -122.1))
        // The live fields as the row kept them when it was written: stale, and not read.
        trip.lastLocation = VehicleLocation(location: LatLng(latitude: 37.2, longitude: -122.2))
        trip.remainingDistanceMeters = 9_999
        trip.etaToFirstWaypoint = Timestamp(secondsSince1970: 1_600_000_000)
        trip.currentRouteSegmentEndPoint = TripWaypoint(tripId: "t1", waypointType: .dropOff)
        let tripBody = try JSONCoding.encodeText(trip)
        let wholeTrip = try StoredJSONDecoder.decode(Trip.self, from: tripBody, root: "stored")
        let partTrip = try ComposedTripRows.trip(body: tripBody)
        #expect(partTrip.lastLocation == nil && partTrip.remainingDistanceMeters == nil && partTrip.numberOfPassengers == 2)
        #expect(partTrip.withProgress(of: source) == wholeTrip.withProgress(of: whole))
        #expect(partTrip.withProgress(of: source).remainingWaypoints.count == 3)

        let vehicleError = try #require(throws: StatusError.self) {
            try ComposedTripRows.vehicle(body: #"{"waypoints": {}}"#, tracking: trackingText, polyline: polyline, checkpoints: checkpoints)
        }
        #expect(vehicleError.code == .internal && vehicleError.message.contains("stored Vehicle"))
        let tripError = try #require(throws: StatusError.self) { try ComposedTripRows.trip(body: #"{"tripStatus": 3.5}"#) }
        #expect(tripError.code == .internal && tripError.message.contains("stored Trip") && tripError.message.contains("tripStatus"))
    }
}
