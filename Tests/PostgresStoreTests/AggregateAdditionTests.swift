import Foundation
import Geo
import PostgresStore
import Synchronization
import Testing
import TripModel
import TripStore

/// Two servers adding to the fleet's sums (area observations, road-cell paces) in opposite
/// orders at once: their batches make the additions at the end, in one order, so neither
/// waits for the other in a circle. Made as the writes went, the two transactions deadlocked
/// and PostgreSQL broke the deadlock only after `deadlock_timeout` (1 s by default), while both
/// servers' writes waited; the transaction it failed then ran again, so its body ran twice.
@Suite struct AggregateAdditionTests {
    @Test func additionsInOppositeOrdersFromTwoProcessesDoNotDeadlock() async throws {
        let (a, b) = try await twoProcesses()
        let first = AreaObservation.area(of: LatLng(latitude: 37.4005, longitude: -121.9995))
        let second = AreaObservation.area(of: LatLng(latitude: 37.5005, longitude: -121.9995))
        let cell = RoadCell(LatLng(latitude: 37.4, longitude: -122.0), headingDegrees: 90)
        @Sendable func leg(_ area: Int64) -> AreaObservation {
            AreaObservation(kind: .detour, area: area, amount: 130, weight: 100, updated: fixedTime)
        }
        // Each body adds to one row, then waits long enough for the other to have added to its
        // own first row, then adds to the other's: the old order of locks made a circle.
        let bodyRuns = BodyRuns()
        @Sendable func opposed(_ store: PostgresTripStore, _ areas: [Int64]) async throws {
            try await store.write { tx in
                bodyRuns.count.withLock { $0 += 1 }
                try tx.addAreaObservation(provider: "p", leg(areas[0]), memory: 1e9)
                try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 10, seconds: 1, updated: fixedTime), memoryMeters: 1e9)
                Thread.sleep(forTimeInterval: 0.2)
                try tx.addAreaObservation(provider: "p", leg(areas[1]), memory: 1e9)
            }
        }
        let started = ContinuousClock.now
        async let one: Void = opposed(a, [first, second])
        async let other: Void = opposed(b, [second, first])
        _ = try await (one, other)
        let elapsed = ContinuousClock.now - started
        // Each body ran once: no transaction was failed and run again (a deadlock also costs a
        // second, but the time is no proof on a busy machine).
        #expect(bodyRuns.count.withLock { $0 } == 2, "the two writes took \(elapsed): PostgreSQL had to break a deadlock")
        let sums = try await a.read { try $0.areaObservations(provider: "p", areas: [first, second]) }
        #expect(sums.count == 2 && sums.allSatisfy { $0.amount == 260 && $0.weight == 200 })
        #expect(try await b.read { try $0.roadCellPaces(provider: "p", cells: [cell]) }.map(\.meters) == [20])
    }
}

/// How many times the test's write bodies ran, from the write lanes' threads.
private final class BodyRuns: Sendable {
    let count = Mutex(0)
}
