import Geo
import Testing
import TripModel

@Suite struct RulesTests {
    /// Creating a vehicle requires what Fleet Engine requires, naming the missing field.
    @Test func vehicleRequiredFields() {
        #expect(throws: StatusError.invalid("vehicle.maximumCapacity", "required field is missing")) {
            try Vehicle.created(from: Vehicle(name: ""), provider: "p", id: "v", now: t0)
        }
        var input = Vehicle(name: "")
        input.maximumCapacity = 4
        #expect(throws: StatusError.invalid("vehicle.vehicleType", "required field is missing")) {
            try Vehicle.created(from: input, provider: "p", id: "v", now: t0)
        }
    }

    /// A state and trip types left at proto3's zero values (absent on the wire) are taken as
    /// that default, as Fleet Engine takes them: the vehicle exists, in no state, serving no
    /// trip type, until an update says otherwise.
    @Test func vehicleStateAndTripTypesMayBeLeftAtTheirDefaults() throws {
        var input = Vehicle(name: "")
        input.maximumCapacity = 4
        input.vehicleType = VehicleType(category: .auto)
        let created = try Vehicle.created(from: input, provider: "p", id: "v", now: t0)
        #expect(created.vehicleState == nil)
        #expect(created.supportedTripTypes.isEmpty)
        #expect(created.maximumCapacity == 4)
    }

    /// IDs are 1–64 NFC characters without `/ : ? , #`.
    @Test(arguments: ["", String(repeating: "x", count: 65), "a/b", "a:b", "a?b", "a,b", "a#b", "e\u{301}"])
    func badIDs(_ id: String) {
        #expect(throws: StatusError.self) { try onlineVehicleWithID(id) }
    }

    /// IDs are bounded in UTF-8 bytes as well as characters: 64 characters that each carry
    /// 201 combining marks (12,928 bytes) are refused, saying the byte bound; 64 four-byte
    /// characters (256 bytes) are fine.
    @Test func idsAreBoundedInBytes() throws {
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 100), count: 64)
        #expect(heavy.count == 64)
        let error = try #require(throws: StatusError.self) { try onlineVehicleWithID(heavy) }
        #expect(error.message.contains("vehicleId: must be at most 256 bytes in UTF-8"), "\(error.message)")
        try onlineVehicleWithID(String(repeating: "😀", count: 64))
        #expect(throws: StatusError.self) { try onlineVehicleWithID(String(repeating: "😀", count: 65)) }
    }

    /// Attribute keys and values are bounded in bytes too (a 256-character value of 512,512
    /// bytes was accepted), and a vehicle waypoint's trip ID is checked as an ID.
    @Test func attributesAndWaypointsAreBoundedInBytes() throws {
        var vehicle = try onlineVehicle()
        let heavyCharacter = "a" + String(repeating: "\u{300}", count: 1_000)
        var input = Vehicle(name: "")
        input.attributes = [Attribute(key: "label", stringValue: String(repeating: heavyCharacter, count: 256))]
        #expect(throws: StatusError.invalid("vehicle.attributes[0].stringValue", "must be at most 1024 bytes in UTF-8, got 512256")) {
            try vehicle.apply(input, mask: FieldMask("attributes"), now: t0)
        }
        input.attributes = [Attribute(key: String(repeating: heavyCharacter, count: 2), stringValue: "x")]
        #expect(throws: StatusError.self) { try vehicle.apply(input, mask: FieldMask("attributes"), now: t0) }
        input.attributes = [Attribute(key: "label", stringValue: String(repeating: "ü", count: 256))]
        try vehicle.apply(input, mask: FieldMask("attributes"), now: t0)
        #expect(vehicle.attributes.first?.stringValue?.utf8.count == 512)

        var waypoints = Vehicle(name: "")
        waypoints.waypoints = [
            TripWaypoint(
                location: TerminalLocation(point: LatLng(latitude: 1, longitude: 2)),
                tripId: String(repeating: heavyCharacter, count: 3), waypointType: .pickup)
        ]
        let error = try #require(throws: StatusError.self) { try vehicle.apply(waypoints, mask: FieldMask("waypoints"), now: t0) }
        #expect(error.message.hasPrefix("vehicle.waypoints[0].tripId: must be at most 256 bytes"), "\(error.message)")
    }

    func onlineVehicleWithID(_ id: String) throws {
        var input = Vehicle(name: "")
        input.vehicleState = .online
        input.supportedTripTypes = [.exclusive]
        input.maximumCapacity = 4
        input.vehicleType = VehicleType(category: .auto)
        _ = try Vehicle.created(from: input, provider: "p", id: id, now: t0)
    }

    /// The update mask is required, and output-only or unknown fields in it are refused.
    @Test func updateMaskChecks() throws {
        var vehicle = try onlineVehicle()
        #expect(throws: StatusError.self) { try vehicle.apply(Vehicle(name: ""), mask: FieldMask(""), now: t0) }
        #expect(throws: StatusError.invalid("updateMask", "'currentTrips' is maintained by the server and cannot be written")) {
            try vehicle.apply(Vehicle(name: ""), mask: FieldMask("currentTrips"), now: t0)
        }
        let error = try #require(throws: StatusError.self) { try vehicle.apply(Vehicle(name: ""), mask: FieldMask("colour"), now: t0) }
        #expect(error.message.contains("unknown field 'colour'"))
    }

    /// snake_case masks work like lowerCamel ones.
    @Test func snakeCaseMask() throws {
        var vehicle = try onlineVehicle()
        var input = Vehicle(name: "")
        input.vehicleState = .offline
        try vehicle.apply(input, mask: FieldMask("vehicle_state"), now: t0)
        #expect(vehicle.vehicleState == .offline)
    }

    /// Out-of-range coordinates and non-finite numbers name the field.
    @Test func locationRanges() throws {
        var vehicle = try onlineVehicle()
        var input = Vehicle(name: "")
        input.lastLocation = VehicleLocation(location: LatLng(latitude: 91, longitude: 0))
        #expect(throws: StatusError.invalid("vehicle.lastLocation.location.latitude", "91.0 is out of range [-90, 90]")) {
            try vehicle.apply(input, mask: FieldMask("lastLocation"), now: t0)
        }
        input.lastLocation = VehicleLocation(location: LatLng(latitude: 1, longitude: 2), heading: 400)
        #expect(throws: StatusError.invalid("vehicle.lastLocation.heading", "400 is out of range [0, 360]")) {
            try vehicle.apply(input, mask: FieldMask("lastLocation"), now: t0)
        }
    }

    /// The route version moves only when the route changes; S2 input is stored as a
    /// Google polyline.
    @Test func routeVersion() throws {
        var vehicle = try onlineVehicle()
        var input = Vehicle(name: "")
        input.currentRouteSegment = EncodedPolyline.encode(eastwardRoad())
        try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0)
        let first = try #require(vehicle.currentRouteSegmentVersion)
        try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0.adding(seconds: 5))
        #expect(vehicle.currentRouteSegmentVersion == first)
        input.currentRouteSegment = S2Polyline.encode(eastwardRoad(vertices: 5))
        try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0.adding(seconds: 10))
        #expect(vehicle.currentRouteSegmentVersion == t0.adding(seconds: 10))
        let stored = try EncodedPolyline.decode(try #require(vehicle.currentRouteSegment))
        #expect(stored.count == 5)
        #expect(Earth.distance(stored[4], eastwardRoad(vertices: 5)[4]) < 2)
    }

    /// Empty and oversized routes are refused.
    @Test func routeBounds() throws {
        var vehicle = try onlineVehicle()
        var input = Vehicle(name: "")
        input.currentRouteSegment = ""
        #expect(throws: StatusError.invalid("vehicle.currentRouteSegment", "must not be empty")) {
            try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0)
        }
        input.currentRouteSegment = EncodedPolyline.encode(eastwardRoad(vertices: Limits.maximumPolylinePoints + 1, spacing: 1))
        let error = try #require(throws: StatusError.self) { try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0) }
        #expect(error.message.contains("at most \(Limits.maximumPolylinePoints)"))
        input.currentRouteSegment = "not a polyline!"
        #expect(throws: StatusError.self) { try vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: t0) }
    }

    /// A trip follows the state machine; illegal moves are FAILED_PRECONDITION.
    @Test func tripTransitions() throws {
        var trip = try newTrip("t1", pickup: LatLng(latitude: 37.4, longitude: -122), dropoff: LatLng(latitude: 37.5, longitude: -122))
        var input = Trip(name: "")
        input.tripStatus = .complete
        let error = try #require(throws: StatusError.self) { try trip.apply(input, mask: FieldMask("tripStatus"), now: t0, vehicleLocation: nil) }
        #expect(error.code == .failedPrecondition)
        #expect(error.message == "trip.tripStatus: cannot move from NEW to COMPLETE")
        input.tripStatus = .new
        try trip.apply(input, mask: FieldMask("tripStatus"), now: t0, vehicleLocation: nil)
        #expect(trip.tripStatus == .new)
    }

    /// Leaving the pickup records where and when; completing records the dropoff.
    @Test func pickupAndDropoffRecorded() throws {
        var trip = try newTrip("t1", pickup: LatLng(latitude: 37.4, longitude: -122), dropoff: LatLng(latitude: 37.5, longitude: -122))
        let here = VehicleLocation(location: LatLng(latitude: 37.40001, longitude: -122))
        for (i, status) in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff].enumerated() {
            var input = Trip(name: "")
            input.tripStatus = status
            try trip.apply(input, mask: FieldMask("tripStatus"), now: t0.adding(seconds: Double(i)), vehicleLocation: here)
        }
        #expect(trip.actualPickupPoint?.point == here.location)
        #expect(trip.pickupTime == t0.adding(seconds: 2))
        var input = Trip(name: "")
        input.tripStatus = .complete
        try trip.apply(input, mask: FieldMask("tripStatus"), now: t0.adding(seconds: 60), vehicleLocation: here)
        #expect(trip.dropoffTime == t0.adding(seconds: 60))
        #expect(trip.actualDropoffPoint?.timestamp == t0.adding(seconds: 60))
        #expect(throws: StatusError.self) { try trip.apply(Trip(name: ""), mask: FieldMask("vehicleId"), now: t0, vehicleLocation: nil) }
    }

    /// Intermediate destinations are visited in order; the index advances by itself.
    @Test func intermediateDestinations() throws {
        var input = Trip(name: "")
        input.pickupPoint = TerminalLocation(point: LatLng(latitude: 1, longitude: 1))
        input.tripType = .exclusive
        input.intermediateDestinations = [
            TerminalLocation(point: LatLng(latitude: 2, longitude: 2)),
            TerminalLocation(point: LatLng(latitude: 3, longitude: 3)),
        ]
        var trip = try Trip.created(from: input, provider: "p", id: "t", now: t0)
        #expect(trip.intermediateDestinationsVersion == t0)
        for status in [
            TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToIntermediateDestination,
            .arrivedAtIntermediateDestination, .enrouteToIntermediateDestination,
        ] {
            var change = Trip(name: "")
            change.tripStatus = status
            try trip.apply(change, mask: FieldMask("tripStatus"), now: t0, vehicleLocation: nil)
        }
        #expect(trip.intermediateDestinationIndex == 1)
        #expect(trip.remainingStops.map(\.waypointType) == [.intermediateDestination])
        var change = Trip(name: "")
        change.tripStatus = .arrivedAtIntermediateDestination
        try trip.apply(change, mask: FieldMask("tripStatus"), now: t0, vehicleLocation: nil)
        change.tripStatus = .enrouteToIntermediateDestination
        #expect(throws: StatusError.self) { try trip.apply(change, mask: FieldMask("tripStatus"), now: t0, vehicleLocation: nil) }
    }
}
