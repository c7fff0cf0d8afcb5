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
    /// the members that follow the route.
    @Test(arguments: [false, true])
    func answerIsTheVehicleAsEncoded(withLaterMembers: Bool) throws {
        var vehicle = Vehicle(name: "providers/p/vehicles/v1")
        vehicle.vehicleState = .online
        vehicle.waypointsVersion = Timestamp(secondsSince1970: 1_700_000_000)
        vehicle.currentRouteSegment = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        if withLaterMembers {
            vehicle.currentRouteSegmentVersion = Timestamp(secondsSince1970: 1_700_000_100)
            vehicle.remainingDistanceMeters = 1_234
            vehicle.remainingTimeSeconds = 120
        }
        let body = try JSONStreamEncoder().encode(StoredRoute.body(of: vehicle))
        let answer = try StoredRoute.answer(body: body, vehicle: vehicle)
        #expect(String(decoding: answer, as: UTF8.self) == String(decoding: try JSONStreamEncoder().encode(vehicle), as: UTF8.self))
    }
}
