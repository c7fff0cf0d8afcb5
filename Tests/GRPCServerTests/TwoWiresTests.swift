import Access
import FleetEngineProtos
import Foundation
import GRDB
import GRPCCore
import GRPCServer
import JSON
import SQLiteStore
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting
import TripStore

/// One state, two wires (DESIGN §14): what gRPC writes, REST reads at once, with the same
/// refusals in the same words; and the store's failures reach gRPC as REST's.
@Suite struct TwoWiresTests {
    /// A vehicle and trip written over gRPC are REST's to read, and the other way round; a
    /// refusal has the same status and message on both wires.
    @Test(arguments: TestStoreKind.available) func sameStateSameWords(_ kind: TestStoreKind) async throws {
        let store = try await TestStores.make(kind)
        try await GRPCHarness.run(store: store) { h in
            let rest = try await Harness(store: store, authority: h.authority)
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.3915, -122.0005), metadata: try await h.auth(h.driver("v1")))
            try await rest.test { client in
                let vehicle = try await client.send(.get, "/v1/providers/p/vehicles/v1", as: h.server)
                #expect(vehicle.status == .ok)
                #expect(try vehicle.json()["lastLocation"]?["location"]?["latitude"] == .number(37.3915, integer: nil))

                let created = try await client.send(
                    .post, "/v1/providers/p/trips?tripId=t1", as: h.server,
                    body:
                        #"{"tripType": "EXCLUSIVE", "vehicleId": "v1", "pickupPoint": {"point": {"latitude": 37.395, "longitude": -122.0}}, "dropoffPoint": {"point": {"latitude": 37.405, "longitude": -122.0}}}"#
                )
                #expect(created.status == .ok)
                let trip = try await h.trips.getTrip(Wire.getTrip("t1"), metadata: server)
                #expect(trip.vehicleID == "v1")
                #expect(trip.pickupPoint.point.latitude == 37.395)

                // The same refusals, word for word.
                let restRefusal = try await client.send(
                    .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: h.server, body: #"{"tripStatus": "COMPLETE"}"#)
                let restMessage = restRefusal.errorMessage
                #expect(!restMessage.isEmpty, "\(restRefusal.status): \(restRefusal.text)")
                await expectStatus(.failedPrecondition) {
                    do {
                        _ = try await h.trips.updateTrip(Wire.setStatus("t1", .complete), metadata: server)
                    } catch let error as RPCError {
                        #expect(error.message == restMessage)
                        throw error
                    }
                }
                let rider = try await h.authority.mint(h.consumer("t1"))
                let restDenied = try await client.send(.get, "/v1/providers/p/trips/t1?view=SDK", token: rider)
                #expect(restDenied.status == .forbidden)
                let deniedMessage = restDenied.errorMessage
                #expect(!deniedMessage.isEmpty, "\(restDenied.text)")
                do {
                    _ = try await h.trips.getTrip(Wire.getTrip("t1", view: .sdk), metadata: ["authorization": "Bearer \(rider)"])
                    Issue.record("the rider read the SDK view over gRPC")
                } catch let error as RPCError {
                    #expect(error.code == .permissionDenied)
                    #expect(error.message == deniedMessage)
                }
            }
        }
    }

    /// A database whose disk is full answers gRPC writes UNAVAILABLE with what failed, as REST
    /// answers 503; reads go on, and writes work again once there is room.
    @Test func fullDiskIsUnavailable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-grpc-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteTripStore(path: directory.appendingPathComponent("test.sqlite").path)
        try await GRPCHarness.run(store: store) { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            try await store.limitPageCount(to: 1)
            var refusal: RPCError?
            for i in 0..<5_000 {
                do {
                    _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.39 + Double(i) * 1e-5, -122.0), metadata: server)
                } catch let error as RPCError {
                    refusal = error
                    break
                }
            }
            let refused = try #require(refusal, "the page limit was never reached")
            #expect(refused.code == .unavailable)
            #expect(refused.message.contains("the database's disk is full"), "\(refused.message)")
            _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: server)
            try await store.limitPageCount(to: nil)
            _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 38, -122.0), metadata: server)
        }
    }
}
