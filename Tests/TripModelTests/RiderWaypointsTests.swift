import Geo
import Testing

@testable import TripModel

/// Joining the legs through other riders' stops into the rider's own (issue 29, item 3), on
/// paths that bend and carry traffic, as a navigated route's do.
@Suite struct RiderWaypointsTests {
    /// A point `meters` north of (37.4, -122).
    static func north(_ meters: Double) -> LatLng { LatLng(latitude: 37.4 + meters / 111_195, longitude: -122) }

    static func leg(_ from: Double, _ to: Double, step: Double = 10) -> [LatLng] {
        stride(from: from, through: to, by: step).map(north)
    }

    /// The other rider's pickup at 195 m, reached by a navigated leg that stops 15 m short of
    /// it, and left from 8 m past it; the rider's pickup at 400 m. The joined path keeps no
    /// vertex within 30 m of the other stop, and the traffic intervals follow their vertices.
    @Test func navigatedLegsJoinAroundTheOtherStop() throws {
        let first = Self.leg(0, 188)
        let second = Self.leg(203, 400)
        let jam = SpeedReadingInterval(startPolylinePointIndex: 14, endPolylinePointIndex: 18, speed: .trafficJam)
        let slow = SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: 5, speed: .slow)
        let other = TripWaypoint(
            location: TerminalLocation(point: Self.north(195)), tripId: "a", waypointType: .pickup,
            encodedPathToWaypoint: EncodedPolyline.encode(first), trafficToWaypoint: ConsumableTrafficPolyline(speedReadingInterval: [jam]),
            distanceMeters: 200, eta: Timestamp(secondsSince1970: 100), duration: ProtoDuration(seconds: 20))
        let own = TripWaypoint(
            location: TerminalLocation(point: Self.north(400)), tripId: "b", waypointType: .pickup,
            encodedPathToWaypoint: EncodedPolyline.encode(second), trafficToWaypoint: ConsumableTrafficPolyline(speedReadingInterval: [slow]),
            distanceMeters: 200, eta: Timestamp(secondsSince1970: 160), duration: ProtoDuration(seconds: 40))
        let shown = Trip.riderWaypoints(of: "b", in: [other, own])
        #expect(shown.count == 2)
        #expect(shown[0] == TripWaypoint(waypointType: .pickup))
        let joined = shown[1]
        #expect(joined.distanceMeters == 400 && joined.duration?.seconds == 60 && joined.eta == own.eta)
        let path = try EncodedPolyline.decode(try #require(joined.encodedPathToWaypoint))
        // (Encoded polylines hold 1e-5 degrees, about a metre.)
        #expect(Earth.distance(path[0], first[0]) < 1 && Earth.distance(path[path.count - 1], second[second.count - 1]) < 1)
        #expect(path.allSatisfy { Earth.distance($0, Self.north(195)) >= Trip.otherStopClearanceMeters })
        // The first leg (0...180 m) loses 180 and 170, within 30 m of the stop, and keeps 17
        // vertices; the second (203...393 m) loses 203, 213, 223 and keeps 17.
        #expect(path.count == 17 + 17)
        let intervals = try #require(joined.trafficToWaypoint).speedReadingInterval
        #expect(intervals.count == 2)
        // The jam ran over the first leg's vertices 14...18 (140...180 m): 14...16 remain.
        #expect(intervals[0] == SpeedReadingInterval(startPolylinePointIndex: 14, endPolylinePointIndex: 16, speed: .trafficJam))
        // The slow run covered the second leg's vertices 0...5 (203...253 m): 233...253 remain,
        // after the first leg's 17 vertices.
        #expect(intervals[1] == SpeedReadingInterval(startPolylinePointIndex: 17, endPolylinePointIndex: 19, speed: .slow))
        #expect(Earth.distance(path[17], Self.north(233)) < 1 && Earth.distance(path[19], Self.north(253)) < 1)
    }

    /// Stops of other riders after the rider's last one are only their type too; a rider's
    /// stop right after its own keeps its leg as it was.
    @Test func othersAfterAndOwnInARow() {
        func stop(_ index: Int) -> TripWaypoint {
            let start = Double(100 * index)
            let end = start + 100
            return TripWaypoint(
                location: TerminalLocation(point: Self.north(end)), tripId: "b", waypointType: index == 0 ? .pickup : .dropOff,
                encodedPathToWaypoint: EncodedPolyline.encode(Self.leg(start, end)), distanceMeters: 100, duration: ProtoDuration(seconds: 10))
        }
        let own = [stop(0), stop(1)]
        let later = TripWaypoint(location: TerminalLocation(point: Self.north(300)), tripId: "a", waypointType: .dropOff, distanceMeters: 100)
        let shown = Trip.riderWaypoints(of: "b", in: own + [later])
        #expect(Array(shown[0...1]) == own)
        #expect(shown[2] == TripWaypoint(waypointType: .dropOff))
    }
}
