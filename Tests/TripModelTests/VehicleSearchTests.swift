import Geo
import Testing
import TripModel

/// How SearchVehicles matches a vehicle with trips and ranks matches (docs/vehicle-search.md).
@Suite struct VehicleSearchTests {
    private func p(_ longitude: Double) -> LatLng { LatLng(latitude: 37.4, longitude: longitude) }

    /// A vehicle at -122.08 driving east with the given trips, its journey state derived.
    private func vehicle(with trips: [Trip], backToBack: Bool = false) throws -> (Vehicle, [Trip]) {
        var vehicle = try onlineVehicle()
        vehicle.backToBackEnabled = backToBack
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: p(-122.08))
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: t0)
        var trips = trips
        var tracking = RouteTracking()
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true))
        return (vehicle, trips)
    }

    private func query(_ type: TripType, pickup: Double, dropoff: Double?, seats: Int = 1) -> VehicleSearchQuery {
        var query = VehicleSearchQuery(
            pickupPoint: TerminalLocation(point: p(pickup)), pickupRadiusMeters: 5_000, count: 10, minimumCapacity: seats, tripTypes: [type])
        query.dropoffPoint = dropoff.map { TerminalLocation(point: p($0)) }
        query.currentTripsPresent = type == .shared ? .any : .unspecified
        return query
    }

    private func trip(_ id: String, _ pickup: Double, _ dropoff: Double, type: TripType, riders: Int = 1, status: TripStatus = .new) throws -> Trip {
        var trip = try newTrip(id, pickup: p(pickup), dropoff: p(dropoff), type: type)
        trip.numberOfPassengers = riders
        trip.tripStatus = status
        return trip
    }

    /// A free vehicle drives straight to the pickup, then to the dropoff.
    @Test func exclusive() throws {
        let (vehicle, trips) = try vehicle(with: [])
        let match = try #require(query(.exclusive, pickup: -122.07, dropoff: -122.06).match(vehicle, trips: trips, now: t0))
        #expect(match.vehicleMatchType == .exclusive)
        #expect(match.vehicleTripsWaypoints.map(\.latLng) == [p(-122.08), p(-122.07), p(-122.06)])
        let straight = Earth.distance(p(-122.08), p(-122.07))
        #expect(match.vehiclePickupStraightLineDistanceMeters == Int(straight.rounded()))
        #expect(match.vehiclePickupDistanceMeters == Int((straight * Estimation.detourFactor).rounded()))
        let leg = Earth.distance(p(-122.07), p(-122.06)) * Estimation.detourFactor
        #expect(match.vehiclePickupToDropoffDistanceMeters == Int(leg.rounded()))
        #expect(match.vehicleDropoffEta == match.vehiclePickupEta.adding(seconds: leg / Estimation.freeFlowSpeed(.auto)))
        #expect(match.requestedOrderedBy == .pickupPointETA && match.orderedBy == .pickupPointETA)
    }

    /// Back-to-back: only with includeBackToBack, a vehicle that accepts it, and one trip on
    /// its way to the dropoff; the pickup comes after that dropoff.
    @Test func backToBack() throws {
        var search = query(.exclusive, pickup: -122.02, dropoff: nil)
        search.includeBackToBack = true
        // The pickup is 5.3 km east of the vehicle.
        search.pickupRadiusMeters = 10_000
        let busy = try trip("a", -122.09, -122.04, type: .exclusive, status: .enrouteToDropoff)
        let (vehicle, trips) = try vehicle(with: [busy], backToBack: true)
        let match = try #require(search.match(vehicle, trips: trips, now: t0))
        #expect(match.vehicleMatchType == .backToBack)
        let dropoffEta = try #require(vehicle.waypoints.last?.eta)
        #expect(match.vehiclePickupEta > dropoffEta)
        #expect(match.vehicleTripsWaypoints.map(\.latLng) == [p(-122.08), p(-122.04), p(-122.02)])
        #expect(match.vehiclePickupDistanceMeters > vehicle.waypoints[0].distanceMeters ?? 0)
        let (refusing, _) = try self.vehicle(with: [busy], backToBack: false)
        #expect(search.match(refusing, trips: trips, now: t0) == nil, "the vehicle does not accept back-to-back trips")
        search.includeBackToBack = false
        #expect(search.match(vehicle, trips: trips, now: t0) == nil, "the request does not ask for them")
        search.includeBackToBack = true
        let early = try trip("a", -122.09, -122.04, type: .exclusive, status: .enrouteToPickup)
        let (waiting, waitingTrips) = try self.vehicle(with: [early], backToBack: true)
        #expect(search.match(waiting, trips: waitingTrips, now: t0) == nil, "its trip has not picked up yet")
        search.tripId = "a"
        #expect(search.match(waiting, trips: waitingTrips, now: t0)?.vehicleMatchType == .exclusive, "the trip searched for does not count")
    }

    /// A shared rider's stops go where they add the least time: on the way, between the
    /// current rider's pickup and dropoff.
    @Test func carpoolOnTheWay() throws {
        let riding = try trip("a", -122.07, -122.03, type: .shared)
        let (vehicle, trips) = try vehicle(with: [riding])
        let match = try #require(query(.shared, pickup: -122.06, dropoff: -122.05).match(vehicle, trips: trips, now: t0))
        #expect(match.vehicleMatchType == .carpool)
        #expect(match.vehicleTripsWaypoints.map(\.latLng) == [p(-122.08), p(-122.07), p(-122.06), p(-122.05)])
        let etas = match.vehicleTripsWaypoints.compactMap(\.eta)
        #expect(zip(etas, etas.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try #require(match.vehicleDropoffEta) < vehicle.waypoints[1].eta!, "dropped off before the other rider")
    }

    /// Without the seats while the current riders are aboard, the new rider waits until they
    /// are off; the same when they ride exclusively.
    @Test func carpoolAfterTheCurrentRiders() throws {
        let full = try trip("a", -122.07, -122.03, type: .shared, riders: 3)
        let (vehicle, trips) = try vehicle(with: [full])
        let match = try #require(query(.shared, pickup: -122.05, dropoff: -122.04, seats: 2).match(vehicle, trips: trips, now: t0))
        #expect(match.vehicleMatchType == .carpoolBackToBack)
        #expect(match.vehicleTripsWaypoints.map(\.latLng) == [p(-122.08), p(-122.07), p(-122.03), p(-122.05), p(-122.04)])
        let roomy = try #require(query(.shared, pickup: -122.05, dropoff: -122.04, seats: 1).match(vehicle, trips: trips, now: t0))
        #expect(roomy.vehicleMatchType == .carpool, "one seat is free while they ride")
        let exclusive = try trip("a", -122.07, -122.03, type: .exclusive)
        let (other, otherTrips) = try self.vehicle(with: [exclusive])
        #expect(query(.shared, pickup: -122.06, dropoff: -122.05).match(other, trips: otherTrips, now: t0)?.vehicleMatchType == .carpoolBackToBack)
        var none = query(.shared, pickup: -122.06, dropoff: -122.05)
        none.currentTripsPresent = .none
        #expect(none.match(vehicle, trips: trips, now: t0) == nil)
    }

    /// The requests Fleet Engine refuses.
    @Test func validation() {
        func refused(_ change: (inout VehicleSearchQuery) -> Void) -> String? {
            var search = query(.exclusive, pickup: -122.06, dropoff: nil)
            change(&search)
            do {
                _ = try search.criteria(now: t0)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refused { _ in } == nil)
        #expect(refused { $0.tripTypes = [.exclusive, .shared] } == "tripTypes: must name exactly one trip type, got 2")
        #expect(
            refused {
                $0.tripTypes = [.shared]
                $0.dropoffPoint = TerminalLocation(point: self.p(0))
            } == "currentTripsPresent: must be NONE or ANY for a SHARED trip")
        #expect(
            refused {
                $0.tripTypes = [.shared]
                $0.currentTripsPresent = .any
            } == "dropoffPoint: required for a SHARED trip")
        #expect(refused { $0.orderBy = .dropoffPointETA } == "orderBy: DROPOFF_POINT_ETA needs a dropoffPoint")
        #expect(refused { $0.orderBy = .unknown } == "orderBy: required field is missing")
        #expect(
            refused {
                $0.includeBackToBack = true
                $0.currentTripsPresent = .any
            } == "includeBackToBack: cannot be true when currentTripsPresent is ANY")
        #expect(refused { $0.vehicleTypes = [] } == "vehicleTypes: required field is missing; name at least one vehicle type")
        #expect(
            refused {
                $0.filter = "attributes.a = \"1\""
                $0.requiredAttributes = [Attribute(key: "b", stringValue: "2")]
            }?.hasPrefix("filter: cannot be combined") == true)
    }

    /// Each order ranks by its own measure; COST weighs time and straight-line distance.
    @Test func orders() throws {
        let vehicle = try onlineVehicle()
        func match(_ name: String, eta: Double, road: Int, straight: Int, dropoff: Double) -> VehicleMatch {
            var v = vehicle
            v.name = name
            return VehicleMatch(
                vehicle: v, vehiclePickupEta: t0.adding(seconds: eta), vehiclePickupDistanceMeters: road,
                vehiclePickupStraightLineDistanceMeters: straight, vehicleDropoffEta: t0.adding(seconds: dropoff),
                vehiclePickupToDropoffDistanceMeters: 1_000, tripType: .exclusive, vehicleTripsWaypoints: [], vehicleMatchType: .exclusive,
                orderedBy: .pickupPointETA)
        }
        // a: quick but far as the crow flies; b: slow, near; c: middling, dropoff soonest.
        let matches = [
            match("a", eta: 100, road: 3_000, straight: 2_500, dropoff: 900),
            match("b", eta: 300, road: 900, straight: 500, dropoff: 800),
            match("c", eta: 200, road: 2_000, straight: 1_000, dropoff: 700),
        ]
        func ranked(_ order: VehicleSearchQuery.Order) -> [String] {
            var search = query(.exclusive, pickup: -122.06, dropoff: -122.05)
            search.orderBy = order
            return search.rank(matches).map(\.vehicle.name)
        }
        #expect(ranked(.pickupPointETA) == ["a", "c", "b"])
        #expect(ranked(.pickupPointDistance) == ["b", "c", "a"])
        #expect(ranked(.pickupPointStraightDistance) == ["b", "c", "a"])
        #expect(ranked(.dropoffPointETA) == ["c", "b", "a"])
        // COST: 100 + 250 = 350, 300 + 50 = 350 (tie: by name), 200 + 100 = 300.
        #expect(ranked(.cost) == ["c", "a", "b"])
    }
}
