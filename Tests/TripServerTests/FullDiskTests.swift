import Foundation
import Hummingbird
import JSON
import SQLiteStore
import Testing
import TripModel
import TripServer
import TripServerTesting
import TripStore

/// A full disk through the API (DESIGN §11), played by SQLite's page limit: writes answer 503
/// UNAVAILABLE saying the disk is full, /readyz fails while they do, reads go on, and both
/// recover by themselves once space returns, with every acknowledged write stored.
@Suite struct FullDiskTests {
    @Test func fullDiskAnswers503AndRecovers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteTripStore(path: directory.appendingPathComponent("test.sqlite").path)
        let harness = try await Harness(store: store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .get, "/readyz")
            // The cap is the file's current size: the free pages inside it go, then writes fail.
            try await store.limitPageCount(to: 1)
            var acknowledged: [Double] = []
            var refusal: Client.Reply?
            for i in 0..<5_000 {
                let latitude = 37.39 + Double(i) * 1e-5
                let reply = try await client.send(
                    .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                    body: Bodies.location(latitude, -122.0))
                guard reply.status == .ok else {
                    refusal = reply
                    break
                }
                acknowledged.append(latitude)
            }
            let refused = try #require(refusal, "the page limit was never reached")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.errorStatus == "UNAVAILABLE")
            #expect(refused.errorMessage.contains("the database's disk is full"), "\(refused.text)")

            // /readyz answers within 0.8 s whatever the store does; the loaded suite can make
            // its probe write slower than that ("the store did not answer"), so it is asked
            // again, as a load balancer would, for the reason: here, and once space returns.
            @Sendable func readiness() async throws -> Client.Reply {
                var reply = try await client.send(.get, "/readyz")
                for _ in 0..<10 where reply.text.contains("did not answer") {
                    try await Task.sleep(for: .milliseconds(300))
                    reply = try await client.send(.get, "/readyz")
                }
                return reply
            }
            let notReady = try await readiness()
            #expect(notReady.status == .serviceUnavailable)
            #expect(notReady.text.hasPrefix("unavailable: the database's disk is full"), "\(notReady.text)")
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.consumer("t1"))
            try await client.expect(
                .serviceUnavailable, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server,
                body: Bodies.vehicle)

            try await store.limitPageCount(to: nil)
            let ready = try await readiness()
            #expect(ready.status == .ok, "\(ready.text)")
            #expect(ready.text == "ready\n")
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: Bodies.location(38, -122))
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server, body: Bodies.vehicle)

            let logged = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100_000)
                .filter { $0.type == "didUpdateVehicleLocation" }
                .compactMap { try StrictJSONDecoder().decode(VehicleLocation.self, from: $0.data.utf8, root: "").location?.latitude }
            // The first location is the one the vehicle was created with.
            #expect(Array(logged.dropFirst()) == acknowledged + [38])
        }
    }
}
