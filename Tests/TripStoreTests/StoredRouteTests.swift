import Testing
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
}
