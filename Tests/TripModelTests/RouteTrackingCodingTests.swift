import Geo
import JSON
import Testing
import TripModel

/// The tracking state every location update stores (its encoding is written by hand).
@Suite struct RouteTrackingCodingTests {
    static let time = Timestamp(secondsSince1970: 1_764_000_000.25)
    static let place = LatLng(latitude: 37.3, longitude: -122.1)

    /// With every member set, the state reads back as it was written: no member is left out
    /// of the encoding.
    @Test func everyMemberReadsBack() throws {
        let tracking = Self.everyMemberSet()
        let decoded = try StrictJSONDecoder().decode(RouteTracking.self, from: try JSONStreamEncoder().encode(tracking), root: "tracking")
        #expect(decoded == tracking)
    }

    /// A tracking state with every member set.
    static func everyMemberSet() -> RouteTracking {
        let stop = TripWaypoint(location: TerminalLocation(point: Self.place), tripId: "t1", waypointType: .pickup)
        let pace = RoadCellPace(cell: RoadCell(id: 42), meters: 120, seconds: 15, updated: Self.time)
        var tracking = RouteTracking()
        tracking.routeVersion = Self.time
        tracking.distanceAlongMeters = 12.5
        tracking.crossTrackMeters = 0.75
        tracking.firstLegStartMeters = 12.5
        tracking.driverDistanceIsCurrent = true
        tracking.driverTimeIsCurrent = true
        tracking.driverPaceRatio = 1.25
        tracking.fixTime = Self.time
        tracking.fixLocation = Self.place
        let corner = LatLng(latitude: 37.31, longitude: -122.1)
        let route = PolylineMeasure([Self.place, corner, LatLng(latitude: 37.31, longitude: -122.09)])!
        tracking.profile = RouteProfile(route: route, routeVersion: Self.time, paces: [pace], now: Self.time)
        tracking.tripPace = TripPace(tripId: "t1")
        tracking.cellTravel = pace
        tracking.linePace = LinePace(stop: stop, paces: [pace], detourFactor: 1.3, now: Self.time)
        var leg = LegTravel(stop: stop, began: Self.time, origin: Self.place)
        leg.setOffSeconds = 4
        tracking.leg = leg
        tracking.drive = DriveTravel(origin: Self.place, time: Self.time)
        return tracking
    }

    /// Unset members are left out; the four that are always there are written.
    @Test func unsetMembersAreLeftOut() throws {
        let text = String(decoding: try JSONStreamEncoder().encode(RouteTracking()), as: UTF8.self)
        #expect(text == #"{"distanceAlongMeters":0,"crossTrackMeters":0,"driverDistanceIsCurrent":false,"driverTimeIsCurrent":false}"#)
    }
}
