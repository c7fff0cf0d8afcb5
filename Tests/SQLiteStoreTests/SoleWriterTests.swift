import Fleet
import Foundation
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripModelTesting
import TripStore

/// A server's SQLite store is its file's only writer: a second server is refused, and riders'
/// reads of a trip whose view is kept are answered from the revisions its own commits left,
/// without reading SQLite, yet never with a revision older than a write already acknowledged.
@Suite struct SoleWriterTests {
    typealias Steps = TripProgressTests

    /// A second server on the file is refused, with the database named and what to do instead;
    /// a tool (a backup, `token`) still opens it beside the server; once the first server's
    /// store is closed another server opens it.
    @Test func aSecondServerOnTheFileIsRefused() throws {
        let path = try temporaryDatabasePath()
        var first: SQLiteTripStore? = try SQLiteTripStore(path: path, soleWriter: true)
        #expect(first != nil)
        #expect {
            _ = try SQLiteTripStore(path: path, soleWriter: true)
        } throws: { error in
            let message = (error as? DatabaseInUse)?.description ?? ""
            return message.contains(path) && message.contains("PostgreSQL")
        }
        _ = try SQLiteTripStore(path: path)
        first = nil
        _ = try SQLiteTripStore(path: path, soleWriter: true)
    }

    /// A rider's view kept for the trip's revision is answered without reading SQLite once the
    /// store has learned the revision; each location update moves it, and the first read after
    /// the update is asked about the new revision, never the old one, while other riders read
    /// the trip all along. A deleted trip is not found.
    @Test func keptViewsFollowEveryAcknowledgedUpdate() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path, soleWriter: true)
        let fleet = Fleet(store: store, clock: .fixed(fixedTime))
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Steps.routed(traffic: false))
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: Steps.road[150], dropoff: Steps.road[299]))
        let (first, mask) = Steps.drivingUpdate(1)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: first, mask: mask)

        // Riders polling at the same time, each keeping the view of the last revision it read.
        let riders = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let view = KeptView(recordsAsked: false)
                        while !Task.isCancelled {
                            if case .read(let trip) = try await fleet.trip(provider: "p", id: "t1", known: view.answer) { view.keep(trip.revision) }
                            // A read answered from memory does not suspend: let the writes run.
                            await Task.yield()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        defer { riders.cancel() }
        for step in 2..<60 {
            let (input, mask) = Steps.drivingUpdate(step)
            _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
            let current = try await fleet.revisionedTrip(provider: "p", id: "t1").revision
            let view = KeptView()
            view.keep(current)
            for _ in 0..<3 {
                guard case .known = try await fleet.trip(provider: "p", id: "t1", known: view.answer) else {
                    Issue.record("step \(step): the view of the current revision was not answered")
                    return
                }
            }
            #expect(view.asked.allSatisfy { $0 == current }, "step \(step): asked about \(view.asked), current \(current)")
        }
        riders.cancel()
        _ = try? await riders.value

        // Quiet: every read of the kept view is answered from memory.
        let current = try await fleet.revisionedTrip(provider: "p", id: "t1").revision
        let view = KeptView()
        view.keep(current)
        _ = try await fleet.trip(provider: "p", id: "t1", known: view.answer)
        let readsBefore = store.keptViewReadsOfSQLite.load(ordering: .relaxed)
        for _ in 0..<20 { _ = try await fleet.trip(provider: "p", id: "t1", known: view.answer) }
        #expect(store.keptViewReadsOfSQLite.load(ordering: .relaxed) == readsBefore)

        _ = try await fleet.updateTrip(provider: "p", id: "t1", input: statusChange(.canceled), mask: FieldMask("tripStatus"))
        let canceled = KeptView()
        canceled.keep(try await fleet.revisionedTrip(provider: "p", id: "t1").revision)
        guard case .known = try await fleet.trip(provider: "p", id: "t1", known: canceled.answer) else {
            Issue.record("the canceled trip's view was not answered")
            return
        }
        try await fleet.deleteTrip(provider: "p", id: "t1")
        await #expect(throws: StatusError.self) { try await fleet.trip(provider: "p", id: "t1", known: canceled.answer) }
    }

    /// A trip given to another vehicle is asked about with that vehicle's revision, and the
    /// vehicle it left moving on does not change it.
    @Test func aReassignedTripFollowsItsNewVehicle() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path, soleWriter: true)
        let fleet = Fleet(store: store, clock: .fixed(fixedTime))
        for id in ["v1", "v2"] { _ = try await fleet.createVehicle(provider: "p", id: id, input: Steps.routed(traffic: false)) }
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: Steps.road[150], dropoff: Steps.road[299]))
        let (input, mask) = Steps.drivingUpdate(1)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
        let view = KeptView()
        if case .read(let trip) = try await fleet.trip(provider: "p", id: "t1", known: view.answer) { view.keep(trip.revision) }
        guard case .known = try await fleet.trip(provider: "p", id: "t1", known: view.answer) else {
            Issue.record("the kept view was not answered")
            return
        }
        var reassigned = Trip(name: "")
        reassigned.vehicleId = "v2"
        _ = try await fleet.updateTrip(provider: "p", id: "t1", input: reassigned, mask: FieldMask("vehicleId"))
        _ = try await fleet.updateVehicle(provider: "p", id: "v2", input: input, mask: mask)
        let current = try await fleet.revisionedTrip(provider: "p", id: "t1")
        #expect(current.value.vehicleId == "v2")
        let after = KeptView()
        after.keep(current.revision)
        for _ in 0..<2 { _ = try await fleet.trip(provider: "p", id: "t1", known: after.answer) }
        #expect(after.asked == [current.revision, current.revision])
        // The old vehicle moving on changes nothing for the trip.
        let (later, _) = Steps.drivingUpdate(2)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: later, mask: mask)
        guard case .known = try await fleet.trip(provider: "p", id: "t1", known: after.answer) else {
            Issue.record("the view was asked about the old vehicle's revision")
            return
        }

    }

    /// What a rider's view cache keeps: one view per revision it was given, and (unless told
    /// not to) every revision it was asked about.
    final class KeptView: Sendable {
        private let state = Mutex<(kept: Set<Revision>, asked: [Revision])>(([], []))
        private let recordsAsked: Bool

        init(recordsAsked: Bool = true) { self.recordsAsked = recordsAsked }

        func keep(_ revision: Revision) { state.withLock { _ = $0.kept.insert(revision) } }

        var asked: [Revision] { state.withLock { $0.asked } }

        @Sendable func answer(_ revision: Revision) -> String? {
            state.withLock { state in
                if recordsAsked { state.asked.append(revision) }
                return state.kept.contains(revision) ? "view" : nil
            }
        }
    }
}
