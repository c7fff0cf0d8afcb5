import Testing
import TripModel

@testable import Access

/// The role rules both wires call (DESIGN §4), on their own.
@Suite struct AccessPolicyTests {
    let server = Principal(role: .server, provider: "pa")
    let everyProvider = Principal(role: .server, provider: Principal.allProviders)
    let rider = Principal(role: .consumer, provider: "pa", tripId: "t1")
    let driver = Principal(role: .driver, provider: "pa", vehicleId: "v1")

    /// A token is for its provider only; a server token for `*` is for all.
    @Test func providers() throws {
        try AccessPolicy.checkProvider(rider, provider: "pa")
        try AccessPolicy.checkProvider(everyProvider, provider: "pb")
        #expect(throws: AccessDenied.denied("this consumer token is for provider 'pa', not 'pb'")) {
            try AccessPolicy.checkProvider(rider, provider: "pb")
        }
    }

    /// Without a view asked for, a rider gets the journey-sharing view and everyone else SDK;
    /// TRIP_VIEW_UNSPECIFIED is no view asked for, as proto3 reads a zero enum.
    @Test func tripViews() throws {
        #expect(AccessPolicy.tripView(requested: nil, for: rider) == .journeySharingV1S)
        #expect(AccessPolicy.tripView(requested: .unspecified, for: rider) == .journeySharingV1S)
        #expect(AccessPolicy.tripView(requested: nil, for: driver) == .sdk)
        #expect(AccessPolicy.tripView(requested: .journeySharingV1S, for: server) == .journeySharingV1S)
        try AccessPolicy.checkTripRead(rider, tripId: "t1", view: .journeySharingV1S)
        #expect(throws: AccessDenied.denied("a consumer token may read only the JOURNEY_SHARING_V1S view")) {
            try AccessPolicy.checkTripRead(rider, tripId: "t1", view: .sdk)
        }
        #expect(throws: AccessDenied.denied("this consumer token is for another trip")) {
            try AccessPolicy.checkConsumerTrip(rider, tripId: "t2")
        }
    }

    /// A driver writes its own vehicle's live fields only; the provider's fields are the server's.
    @Test func vehicleUpdates() throws {
        try AccessPolicy.checkVehicleUpdate(driver, vehicleId: "v1", mask: FieldMask("lastLocation,vehicle_state"))
        try AccessPolicy.checkVehicleUpdate(server, vehicleId: "v1", mask: FieldMask("maximumCapacity"))
        #expect(throws: AccessDenied.denied("a driver token may not change 'attributes'")) {
            try AccessPolicy.checkVehicleUpdate(driver, vehicleId: "v1", mask: FieldMask("lastLocation,attributes"))
        }
        #expect(throws: AccessDenied.denied("this driver token is for another vehicle")) {
            try AccessPolicy.checkVehicleUpdate(driver, vehicleId: "v2", mask: FieldMask("lastLocation"))
        }
        #expect(throws: AccessDenied.denied("a consumer token may not change vehicles")) {
            try AccessPolicy.checkVehicleUpdate(rider, vehicleId: "v1", mask: FieldMask("lastLocation"))
        }
    }

    /// A driver touches the trips its vehicle serves; another vehicle's trip is answered as a
    /// trip that does not exist, the very answer the store gives for one.
    @Test func driverTrips() throws {
        var ours = Trip(name: "providers/pa/trips/t1")
        ours.vehicleId = "v1"
        var theirs = Trip(name: "providers/pa/trips/t2")
        theirs.vehicleId = "v2"
        try AccessPolicy.checkDriver(driver, trip: ours)
        try AccessPolicy.checkDriver(server, trip: theirs)
        #expect(throws: AccessDenied(code: .notFound, message: "trip 't2' does not exist")) {
            try AccessPolicy.checkDriver(driver, trip: theirs)
        }
    }

    /// A trip update: a server's reads no trip; a driver changes its own trip's progress only,
    /// and another vehicle's trip is one that does not exist; a rider changes nothing.
    @Test func tripWrites() async throws {
        var ours = Trip(name: "providers/pa/trips/t1")
        ours.vehicleId = "v1"
        var theirs = Trip(name: "providers/pa/trips/t2")
        theirs.vehicleId = "v2"
        try await AccessPolicy.checkTripWrite(server, mask: FieldMask("vehicleId")) {
            Issue.record("a server's update read the trip")
            return theirs
        }
        try await AccessPolicy.checkTripWrite(driver, mask: FieldMask("tripStatus")) { ours }
        await #expect(throws: AccessDenied(code: .notFound, message: "trip 't2' does not exist")) {
            try await AccessPolicy.checkTripWrite(driver, mask: FieldMask("tripStatus")) { theirs }
        }
        await #expect(throws: AccessDenied.self) {
            try await AccessPolicy.checkTripWrite(driver, mask: FieldMask("vehicleId")) { ours }
        }
        await #expect(throws: AccessDenied.denied("a consumer token may not change trips")) {
            try await AccessPolicy.checkTripWrite(rider, mask: FieldMask("tripStatus")) { ours }
        }
    }

    /// A driver's and a rider's pictures count against the pixel budget; a provider's
    /// backend, drawing for its whole fleet, is not limited, whichever provider it is for.
    @Test func pixelBudgetRoles() {
        #expect(AccessPolicy.drawsWithinPixelBudget(driver))
        #expect(AccessPolicy.drawsWithinPixelBudget(rider))
        #expect(!AccessPolicy.drawsWithinPixelBudget(server))
        #expect(!AccessPolicy.drawsWithinPixelBudget(everyProvider))
    }

    /// Over its rate, a token is told how many whole seconds to wait.
    @Test func rateLimitedRefusal() {
        let refusal = AccessDenied.rateLimited(retryAfter: 1.2)
        #expect(refusal.code == .resourceExhausted)
        #expect(refusal.retryAfterSeconds == 2)
        #expect(refusal.message == "this token is making requests faster than this server allows; retry after 2 s")
    }
}
