import Fleet
import PostgresNIO
import StoreVariants
import Testing
import TripModel
import TripStore

@testable import PostgresStore

/// Pooled connections that went stale while idle, the database staying up (a NAT or firewall
/// dropped them, as after a silent spell; issue 29, item 5): once the store finds one lost, it
/// drops the others with it, so the writes that follow succeed on fresh connections instead
/// of failing one stale connection after another, and nothing acknowledged is lost.
@Suite struct PostgresStaleConnectionTests {
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) func writesAfterStaleConnectionsSucceed() async throws {
        // Patient timings: the test is about stale connections, not how soon silence is noticed.
        let detachable = try await PostgresHealthTests.Detachable(timings: .patient, maximumConnections: 4)
        let store = detachable.store
        let fleet = Fleet(store: store, clock: .fixed(fixedTime))
        _ = try await fleet.createVehicle(provider: "p", id: "before", input: onlineVehicle())
        // A busy server's pool: reads at once open a connection each.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await store.rows("SELECT pg_sleep(0.5)") } }
            try await group.waitForAll()
        }
        // The pool's four and the liveness check's own: the first write alone would not show
        // what the stale others do.
        #expect(detachable.relay.relayedConnections >= 5)

        await detachable.relay.forget()
        var acknowledged = ["before"]
        var failures: [String] = []
        for index in 0..<6 {
            let id = "after-\(index)"
            do {
                _ = try await fleet.createVehicle(provider: "p", id: id, input: onlineVehicle())
                acknowledged.append(id)
            } catch {
                failures.append("\(id): \(error)")
            }
        }
        // The first write's connection broke before its commit was sent, so it ran again on a
        // fresh one; the others were never handed a stale connection.
        #expect(failures.isEmpty, "writes failed after the pool's connections went stale: \(failures)")

        let stored = try await fleet.listVehicles(provider: "p", page: PageRequest(pageSize: 100)).items.map(\.name)
        #expect(Set(stored).isSuperset(of: acknowledged.map { "providers/p/vehicles/\($0)" }), "\(stored)")
        await detachable.relay.shutdown()
    }
}
