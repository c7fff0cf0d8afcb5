import Access
import Foundation
import Scenarios
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct ReplayTests {
    /// The two-trips log replays through the API with every rider view consistent after
    /// every call; without the driver's numbers our remaining distance stays within 2% or
    /// 20 m of them on at least 95% of the updates.
    @Test(arguments: TestStoreKind.persistent, [false, true])
    func twoTripsBayArea(_ store: TestStoreKind, withoutDriverEstimates: Bool) async throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/two-trips-bay-area.json")))
        let server = try await LocalServer(store: try await TestStores.make(store))
        let serverToken = try await server.token(Principal(role: .server, provider: Principal.allProviders))
        let replay = FleetLogReplay(log: log, transport: server.transport, serverToken: serverToken) { provider, trip in
            try await server.token(Principal(role: .consumer, provider: provider, tripId: trip))
        }
        let report = try await replay.run(.init(withoutDriverEstimates: withoutDriverEstimates))
        #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
        #expect(report.calls == 543)
        #expect(report.synthesizedVehicles == ["Vehicle_1"])
        #expect(report.checks > 700)
        let distance = try #require(report.remainingDistance)
        #expect(distance.count > 450)
        #expect(try #require(distance.withinTolerance) >= 0.95)
        // Every compared update is in the report, for plotting: as many as were measured.
        #expect(report.estimates.filter { $0.distance != nil && $0.driverDistance != nil }.count == distance.count)
        #expect(report.estimates.first?.vehicleId == "Vehicle_1")
        if withoutDriverEstimates {
            #expect(distance.median <= 10)
            print("remaining distance error: median \(distance.median) m, p90 \(distance.p90) m, within 2%/20 m \(distance.withinTolerance ?? 0)")
            if let time = report.remainingTime { print("remaining time error: median \(time.median) s, p90 \(time.p90) s") }
        } else {
            #expect(distance.maximum == 0)
        }
    }
}
