import FleetEngineProtos
import Foundation
import GRDB
import GRPCCore
import SQLiteStore
import Testing

@testable import GRPCServer

/// The client's deadline is the server's (DESIGN §14).
@Suite struct DeadlineTests {
    /// A write stuck behind a lock another connection holds is answered DEADLINE_EXCEEDED by
    /// the server when the deadline passes, not when the lock goes, and counted so. The lock
    /// is held 30 s, the call has 8 s (less than the store's 10 s wait for a lock) and its
    /// answer must be counted before the lock goes. Which code it is counted under is timing:
    /// on CI a call the client reset at its 8 s deadline had been only 5.5 s in the server, so
    /// the server took the reset for a cancel. ``classifiesTheReset()`` checks that rule with
    /// a clock that does not depend on the machine's load.
    @Test func answeredAtTheDeadline() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-grpc-deadline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        let store = try SQLiteTripStore(path: path)
        try await GRPCHarness.run(store: store) { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            let other = try DatabaseQueue(path: path)
            let locked = AsyncStream.makeStream(of: Void.self)
            let released = AsyncStream.makeStream(of: Result<Void, any Error>.self)
            // A thread of its own: a task that sleeps 20 s holds one of the two threads of
            // Swift's pool on a two-core machine, and the server's answer waited for it.
            Thread.detachNewThread {
                let result = Result {
                    try other.writeWithoutTransaction { db in
                        try db.execute(sql: "BEGIN EXCLUSIVE")
                        locked.continuation.yield()
                        Thread.sleep(forTimeInterval: 30)
                        try db.execute(sql: "COMMIT")
                    }
                }
                locked.continuation.finish()
                released.continuation.yield(result)
                released.continuation.finish()
            }
            var waiting = locked.stream.makeAsyncIterator()
            await waiting.next()
            let start = ContinuousClock.now
            var options = CallOptions.defaults
            options.timeout = .seconds(8)
            await expectStatus(.deadlineExceeded) {
                _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.4, -122.0), metadata: server, options: options)
            }
            // The server's own count of its answer, made before the lock is released.
            let counted = ["DEADLINE_EXCEEDED", "CANCELLED"].map {
                #"tripshare_grpc_requests_total{method="maps.fleetengine.v1.VehicleService/UpdateVehicle",code=""# + $0 + #""} 1"#
            }
            while ContinuousClock.now - start < .seconds(28), !counted.contains(where: h.metrics.contains) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(counted.contains(where: h.metrics.contains), "the server answered at the deadline")
            #expect(ContinuousClock.now - start < .seconds(28), "counted before the lock went")
            var release = released.stream.makeAsyncIterator()
            try await release.next()?.get()
        }
    }

    /// A reset that comes when the client's deadline has passed, or nearly (the client's clock
    /// started before the call reached us), is the deadline; an earlier one is a cancel. The
    /// deadline counts from the call's arrival, not from when its handler ran.
    /// (An hour's deadline for the cancel: the reset may come seconds late on a loaded machine.)
    @Test(arguments: [
        (timeout: "8S", waited: 7.5, code: RPCError.Code.deadlineExceeded), (timeout: "1H", waited: 0, code: .cancelled),
    ])
    func classifiesTheReset(timeout: String, waited: Double, code: RPCError.Code) async throws {
        let arrival = ContinuousClock.now - .seconds(waited)
        let deadline = try #require(Deadline(grpcTimeout: timeout, arrival: arrival))
        do {
            try await withServerContextRPCCancellationHandle { handle async throws in
                // The reset comes once the race is waiting (an earlier one is answered the same).
                Task {
                    try? await Task.sleep(for: .milliseconds(200))
                    handle.cancel()
                }
                try await deadline.race { try await Task.sleep(for: .seconds(60)) }
            }
            Issue.record("the race answered without an error")
        } catch let error as RPCError {
            #expect(error.code == code)
        }
    }

    /// A call answered within its deadline is answered as usual (a generous one: the whole
    /// suite runs beside it on two cores).
    @Test func answeredWithinTheDeadline() async throws {
        try await GRPCHarness.run { h in
            var options = CallOptions.defaults
            options.timeout = .seconds(30)
            let created = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: try await h.auth(h.server), options: options)
            #expect(created.name == "providers/p/vehicles/v1")
        }
    }

    /// `grpc-timeout` is read in each of its units; what gRPC's format does not allow is not
    /// taken for a deadline.
    @Test func timeoutFormat() {
        let read: [(String, Duration)] = [
            ("1H", .seconds(3_600)), ("2M", .seconds(120)), ("3S", .seconds(3)), ("300m", .milliseconds(300)),
            ("99999999u", .microseconds(99_999_999)), ("5n", .nanoseconds(5)),
        ]
        for (text, duration) in read { #expect(Deadline(grpcTimeout: text)?.timeout == duration, "\(text)") }
        for text in ["", "S", "100", "123456789S", "-1S", "1s", "1.5S"] { #expect(Deadline(grpcTimeout: text) == nil, "\(text)") }
    }
}
