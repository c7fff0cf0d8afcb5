import FleetEngineProtos
import Foundation
import StoreVariants
import SwiftProtobuf
import Testing

/// GetTrip answers riders' polls from encoded views (``EncodedViewCache``): what a client
/// decodes is the whole view, field for field, and never a view older than the trip.
@Suite struct EncodedViewTests {
    @Test(arguments: TestStoreKind.available) func riderPollsSeeTheWholeViewAndEveryChange(_ kind: TestStoreKind) async throws {
        try await GRPCHarness.run(kind) { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            _ = try await h.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: server)
            let rider = try await h.auth(h.consumer("t1"))
            let view = Wire.getTrip("t1", view: .journeySharingV1S)

            let first = try await h.trips.getTrip(view, metadata: rider)
            let again = try await h.trips.getTrip(view, metadata: rider)
            #expect(again == first, "the cached answer is the view as first encoded")
            #expect(again.unknownFields.data.isEmpty, "every field arrived as a field of Trip")
            #expect(again.name == "providers/p/trips/t1")
            #expect(again.vehicleID == "v1")
            #expect(again.view == .journeySharingV1S)
            #expect(again.lastLocation.location.latitude == 37.39)
            #expect(again.remainingWaypoints.first?.waypointType == .pickupWaypointType)
            // The SDK view of the same trip is a different view: cached apart.
            let sdk = try await h.trips.getTrip(Wire.getTrip("t1", view: .sdk), metadata: server)
            #expect(sdk.view == .sdk)

            // The vehicle reports: the trip's live fields change, and so does the rider's view.
            let driver = try await h.auth(h.driver("v1"))
            _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.391, -122.0), metadata: driver)
            let moved = try await h.trips.getTrip(view, metadata: rider)
            #expect(moved.lastLocation.location.latitude == 37.391)
            #expect(moved != first)

            _ = try await h.trips.updateTrip(Wire.setStatus("t1", .enrouteToPickup), metadata: driver)
            #expect(try await h.trips.getTrip(view, metadata: rider).tripStatus == .enrouteToPickup)
        }
    }
}
