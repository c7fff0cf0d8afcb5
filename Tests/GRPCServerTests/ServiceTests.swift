import Access
import FleetEngineProtos
import GRPCCore
import StoreVariants
import SwiftProtobuf
import Testing
import TripModel

/// Both services through a grpc-swift client over a real socket (DESIGN §14), on every
/// store: what each method answers, and each refusal as its gRPC status.
@Suite struct ServiceTests {
    /// A ride through every method that has a Fleet method behind it: the answers carry what
    /// was written, the driver moves the car and the trip, the rider follows it.
    @Test(arguments: TestStoreKind.available) func ride(_ kind: TestStoreKind) async throws {
        try await GRPCHarness.run(kind) { h in
            let server = try await h.auth(h.server)
            let created = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            #expect(created.name == "providers/p/vehicles/v1")
            #expect(created.vehicleState == .online)
            #expect(created.vehicleType.category == .auto)
            #expect(created.attributes.map(\.key) == ["class"])
            #expect(created.lastLocation.location.latitude == 37.39)

            let driver = try await h.auth(h.driver("v1"))
            let moved = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.391, -122.0), metadata: driver)
            #expect(moved.lastLocation.location.latitude == 37.391)
            #expect(moved.lastLocation.hasServerTime)
            let read = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: driver)
            #expect(read.lastLocation.location.latitude == 37.391)

            var search = Maps_Fleetengine_V1_SearchVehiclesRequest()
            search.parent = "providers/p"
            search.pickupPoint = Wire.terminal(37.395, -122.0)
            search.pickupRadiusMeters = 2_000
            search.count = 5
            search.minimumCapacity = 1
            search.tripTypes = [.exclusive]
            search.orderBy = .pickupPointDistance
            var car = Maps_Fleetengine_V1_Vehicle.VehicleType()
            car.category = .auto
            search.vehicleTypes = [car]
            let matches = try await h.vehicles.searchVehicles(search, metadata: server)
            #expect(matches.matches.map(\.vehicle.name) == ["providers/p/vehicles/v1"])
            #expect(matches.matches.first?.vehiclePickupStraightLineDistanceMeters.value ?? 0 > 400)

            var list = Maps_Fleetengine_V1_ListVehiclesRequest()
            list.parent = "providers/p"
            list.pageSize = 10
            list.vehicleTypeCategories = [.auto]
            let listed = try await h.vehicles.listVehicles(list, metadata: server)
            #expect(listed.vehicles.map(\.name) == ["providers/p/vehicles/v1"])
            #expect(listed.totalSize == 1)
            list.filter = #"attributes.class = "standard""#
            #expect(try await h.vehicles.listVehicles(list, metadata: server).vehicles.isEmpty, "the filter reaches the store")

            var attributes = Maps_Fleetengine_V1_UpdateVehicleAttributesRequest()
            attributes.name = "providers/p/vehicles/v1"
            var seats = Maps_Fleetengine_V1_VehicleAttribute()
            seats.key = "seats"
            seats.stringValue = "4"
            attributes.attributes = [seats]
            let merged = try await h.vehicles.updateVehicleAttributes(attributes, metadata: server)
            #expect(merged.attributes.map(\.key).sorted() == ["class", "seats"], "merged by key, the whole list answered")
            await expectStatus(.permissionDenied, "update vehicle attributes") {
                _ = try await h.vehicles.updateVehicleAttributes(attributes, metadata: driver)
            }

            let trip = try await h.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: server)
            #expect(trip.name == "providers/p/trips/t1")
            #expect(trip.tripStatus == .new)
            #expect(trip.vehicleID == "v1")

            let rider = try await h.auth(h.consumer("t1"))
            let view = try await h.trips.getTrip(Wire.getTrip("t1"), metadata: rider)
            #expect(view.view == .journeySharingV1S, "a consumer's default view is the journey-sharing one")
            #expect(view.remainingWaypoints.first?.waypointType == .pickupWaypointType)
            #expect(view.remainingWaypoints.first?.distanceMeters.value ?? 0 > 0)

            for status in [Maps_Fleetengine_V1_TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff, .complete] {
                let updated = try await h.trips.updateTrip(Wire.setStatus("t1", status), metadata: driver)
                #expect(updated.tripStatus == status)
                #expect(try await h.trips.getTrip(Wire.getTrip("t1"), metadata: rider).tripStatus == status)
            }

            var searchTrips = Maps_Fleetengine_V1_SearchTripsRequest()
            searchTrips.parent = "providers/p"
            searchTrips.vehicleID = "v1"
            #expect(try await h.trips.searchTrips(searchTrips, metadata: server).trips.map(\.name) == ["providers/p/trips/t1"])
            searchTrips.activeTripsOnly = true
            #expect(try await h.trips.searchTrips(searchTrips, metadata: server).trips.isEmpty)

            var billable = Maps_Fleetengine_V1_ReportBillableTripRequest()
            billable.name = "providers/p/billableTrips/t1"
            billable.countryCode = "US"
            billable.platform = .server
            _ = try await h.trips.reportBillableTrip(billable, metadata: server)
            billable.name = "providers/p/billableTrips/nope"
            await expectStatus(.notFound, "nope") { _ = try await h.trips.reportBillableTrip(billable, metadata: server) }

            var deleteTrip = Maps_Fleetengine_V1_DeleteTripRequest()
            deleteTrip.name = "providers/p/trips/t1"
            _ = try await h.trips.deleteTrip(deleteTrip, metadata: server)
            var deleteVehicle = Maps_Fleetengine_V1_DeleteVehicleRequest()
            deleteVehicle.name = "providers/p/vehicles/v1"
            _ = try await h.vehicles.deleteVehicle(deleteVehicle, metadata: server)
            await expectStatus(.notFound, "v1") { _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: server) }
            await expectStatus(.notFound, "t1") { _ = try await h.trips.getTrip(Wire.getTrip("t1"), metadata: server) }
            #expect(h.metrics.contains(#"tripshare_grpc_requests_total{method="maps.fleetengine.v1.TripService/GetTrip",code="OK"}"#))
            #expect(h.metrics.contains(#"tripshare_grpc_requests_total{method="maps.fleetengine.v1.VehicleService/GetVehicle",code="NOT_FOUND"} 1"#))
        }
    }

    /// Each refusal arrives as its gRPC status with the message REST gives.
    @Test(arguments: TestStoreKind.available) func refusals(_ kind: TestStoreKind) async throws {
        try await GRPCHarness.run(kind) { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            _ = try await h.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: server)

            await expectStatus(.alreadyExists, "v1") { _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server) }
            await expectStatus(.notFound, "nope") { _ = try await h.vehicles.getVehicle(Wire.getVehicle("nope"), metadata: server) }

            var badLatitude = Wire.createVehicle("v2")
            badLatitude.vehicle.lastLocation.location.latitude = 95
            await expectStatus(.invalidArgument, "vehicle.lastLocation.location.latitude") {
                _ = try await h.vehicles.createVehicle(badLatitude, metadata: server)
            }
            var badName = Wire.getVehicle("v1")
            badName.name = "vehicles/v1"
            await expectStatus(.invalidArgument, "name: must be 'providers/{provider}/vehicles/{id}'") {
                _ = try await h.vehicles.getVehicle(badName, metadata: server)
            }
            var noID = Wire.createVehicle("")
            noID.vehicleID = ""
            await expectStatus(.invalidArgument, "vehicleId") { _ = try await h.vehicles.createVehicle(noID, metadata: server) }
            var noMask = Wire.moveVehicle("v1", 37.4, -122.0)
            noMask.updateMask.paths = []
            await expectStatus(.invalidArgument, "updateMask") { _ = try await h.vehicles.updateVehicle(noMask, metadata: server) }
            var list = Maps_Fleetengine_V1_ListVehiclesRequest()
            list.parent = "providers/p"
            list.vehicleTypeCategories = [.auto]
            list.pageSize = 100_000
            await expectStatus(.invalidArgument, "pageSize") { _ = try await h.vehicles.listVehicles(list, metadata: server) }

            await expectStatus(.failedPrecondition) { _ = try await h.trips.updateTrip(Wire.setStatus("t1", .complete), metadata: server) }
            var delete = Maps_Fleetengine_V1_DeleteVehicleRequest()
            delete.name = "providers/p/vehicles/v1"
            await expectStatus(.failedPrecondition) { _ = try await h.vehicles.deleteVehicle(delete, metadata: server) }

            await expectStatus(.unauthenticated, "missing 'authorization: Bearer <token>' metadata") {
                _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"))
            }
            await expectStatus(.unauthenticated, "'Bearer <token>'") {
                _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: ["authorization": "Basic abc"])
            }
            await expectStatus(.unauthenticated, "signature or format") {
                _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: ["authorization": "Bearer x.y.z"])
            }

            let rider = try await h.auth(h.consumer("t1"))
            await expectStatus(.permissionDenied, "only the JOURNEY_SHARING_V1S view") {
                _ = try await h.trips.getTrip(Wire.getTrip("t1", view: .sdk), metadata: rider)
            }
            await expectStatus(.permissionDenied, "another trip") { _ = try await h.trips.getTrip(Wire.getTrip("t2"), metadata: rider) }
            await expectStatus(.permissionDenied, "for provider 'p', not 'q'") {
                _ = try await h.trips.getTrip(Wire.getTrip("t1", provider: "q"), metadata: rider)
            }
            await expectStatus(.permissionDenied, "may not create vehicles") {
                _ = try await h.vehicles.createVehicle(Wire.createVehicle("v3"), metadata: rider)
            }
            let otherDriver = try await h.auth(h.driver("v9"))
            await expectStatus(.permissionDenied, "another vehicle") {
                _ = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.4, -122.0), metadata: otherDriver)
            }
            await expectStatus(.notFound, "trip 't1' does not exist") {
                _ = try await h.trips.updateTrip(Wire.setStatus("t1", .enrouteToPickup), metadata: otherDriver)
            }
            let driver = try await h.auth(h.driver("v1"))
            var capacity = Wire.moveVehicle("v1", 37.4, -122.0)
            capacity.updateMask.paths = ["maximum_capacity"]
            await expectStatus(.permissionDenied, "may not change 'maximumCapacity'") {
                _ = try await h.vehicles.updateVehicle(capacity, metadata: driver)
            }
            var booking = Wire.setStatus("t1", .enrouteToPickup)
            booking.updateMask.paths = ["dropoff_point"]
            await expectStatus(.permissionDenied, "may not change 'dropoffPoint'") { _ = try await h.trips.updateTrip(booking, metadata: driver) }
        }
    }

    /// A token over its rate is RESOURCE_EXHAUSTED with the seconds to wait in `retry-after`,
    /// counted together with its REST requests (one limiter).
    @Test func rateLimit() async throws {
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: .init(requestsPerSecond: 0.01, burst: 2), server: nil))
        try await GRPCHarness.run(limiter: limiter) { h in
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: try await h.auth(h.server))
            let driver = try await h.auth(h.driver("v1"))
            for _ in 0..<2 { _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: driver) }
            do {
                _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: driver)
                Issue.record("the third call within a second should be refused")
            } catch let error as RPCError {
                #expect(error.code == .resourceExhausted)
                // One call back every 100 s: the wait is what remains of that since the burst.
                let wait = error.metadata[stringValues: "retry-after"].first(where: { _ in true }).flatMap { Int($0) }
                #expect(wait.map { (1...100).contains($0) } == true, "\(error.metadata)")
                #expect(error.message.contains("retry after \(wait ?? 0) s"), "\(error.message)")
            }
        }
    }
}
