import Foundation
import Geo
import JSON

/// A `vehicles:search` request: the nearest ONLINE vehicles that can take a trip of the given
/// types and size from a pickup point (Fleet Engine `SearchVehiclesRequest`, the subset
/// that needs no road router).
public struct VehicleSearchQuery: Codable, Hashable, Sendable {
    /// Where the rider waits.
    public var pickupPoint: TerminalLocation
    /// Where the rider goes (used for the dropoff estimate only).
    public var dropoffPoint: TerminalLocation?
    /// How far from the pickup a vehicle may be, 400–10,000 m.
    public var pickupRadiusMeters: Int
    /// How many matches to return at most, 1–50.
    public var count: Int
    /// Seats the trip needs, at least 1.
    public var minimumCapacity: Int
    /// Trip types the vehicle must support (any of them).
    public var tripTypes: [TripType]
    /// Vehicle categories accepted; empty means any.
    public var vehicleTypes: [VehicleType]
    /// How to order matches.
    public var orderBy: Order

    /// The orders Fleet Engine offers that we can compute.
    public enum Order: String, WireEnum {
        case pickupPointETA = "PICKUP_POINT_ETA"
        case pickupPointDistance = "PICKUP_POINT_DISTANCE"
        case pickupPointStraightDistance = "PICKUP_POINT_STRAIGHT_DISTANCE"
    }

    enum CodingKeys: String, CodingKey {
        case pickupPoint, dropoffPoint, pickupRadiusMeters, count, minimumCapacity, tripTypes, vehicleTypes, orderBy
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pickupPoint = try c.decode(TerminalLocation.self, forKey: .pickupPoint)
        dropoffPoint = try c.decodeIfPresent(TerminalLocation.self, forKey: .dropoffPoint)
        pickupRadiusMeters = try c.decode(Int.self, forKey: .pickupRadiusMeters)
        count = try c.decode(Int.self, forKey: .count)
        minimumCapacity = try c.decode(Int.self, forKey: .minimumCapacity)
        tripTypes = try c.decode([TripType].self, forKey: .tripTypes)
        vehicleTypes = try c.decodeArray(VehicleType.self, forKey: .vehicleTypes)
        orderBy = try c.decode(Order.self, forKey: .orderBy)
    }

    /// Creates a query.
    public init(
        pickupPoint: TerminalLocation, pickupRadiusMeters: Int, count: Int, minimumCapacity: Int,
        tripTypes: [TripType], orderBy: Order = .pickupPointETA
    ) {
        self.pickupPoint = pickupPoint
        self.pickupRadiusMeters = pickupRadiusMeters
        self.count = count
        self.minimumCapacity = minimumCapacity
        self.tripTypes = tripTypes
        self.vehicleTypes = []
        self.orderBy = orderBy
    }

    /// Checks the ranges Fleet Engine documents; errors name the field.
    public func validate() throws(StatusError) {
        try Check.terminal(pickupPoint, "pickupPoint")
        try Check.terminal(dropoffPoint, "dropoffPoint")
        try Check.integer(pickupRadiusMeters, "pickupRadiusMeters", 400...10_000)
        try Check.integer(count, "count", 1...50)
        try Check.integer(minimumCapacity, "minimumCapacity", 1...Limits.maximumCapacity)
        if tripTypes.isEmpty { throw .invalid("tripTypes", "must name at least one trip type") }
        try Check.count(tripTypes, "tripTypes", max: Limits.maximumShortList)
    }

    /// The latitude/longitude box that holds every point within the pickup radius, for a
    /// coarse indexed pre-filter.
    public var searchBounds: (south: Double, west: Double, north: Double, east: Double) {
        let p = pickupPoint.point
        let dLat = Double(pickupRadiusMeters) / 111_000
        let cosine = max(0.01, cos(p.latitude * .pi / 180))
        let dLng = min(180, Double(pickupRadiusMeters) / (111_000 * cosine))
        return (p.latitude - dLat, p.longitude - dLng, p.latitude + dLat, p.longitude + dLng)
    }

    /// The match for a vehicle, or nil when it does not qualify. `seatsTaken` counts the
    /// passengers of its current trips.
    public func match(_ vehicle: Vehicle, seatsTaken: Int, now: Timestamp) -> VehicleMatch? {
        guard vehicle.vehicleState == .online, let location = vehicle.lastLocation?.location else { return nil }
        guard let tripType = tripTypes.first(where: vehicle.supportedTripTypes.contains) else { return nil }
        if !vehicleTypes.isEmpty, !vehicleTypes.contains(where: { $0.category == vehicle.vehicleType?.category }) { return nil }
        if !vehicle.currentTrips.isEmpty && tripType == .exclusive && vehicle.backToBackEnabled != true { return nil }
        guard (vehicle.maximumCapacity ?? 0) - seatsTaken >= minimumCapacity else { return nil }
        let straight = Earth.distance(location, pickupPoint.point)
        guard straight <= Double(pickupRadiusMeters) else { return nil }
        let road = straight * Estimation.detourFactor
        let seconds = road / Estimation.freeFlowSpeed(vehicle.vehicleType?.category)
        return VehicleMatch(
            vehicle: vehicle, vehiclePickupEta: now.adding(seconds: seconds),
            vehiclePickupDistanceMeters: Int(road.rounded()),
            vehiclePickupStraightLineDistanceMeters: Int(straight.rounded()), tripType: tripType)
    }

    /// Orders matches as asked and keeps at most `count`.
    public func rank(_ matches: [VehicleMatch]) -> [VehicleMatch] {
        let sorted = matches.sorted { a, b in
            let ka: Double
            let kb: Double
            switch orderBy {
            case .pickupPointETA:
                ka = a.vehiclePickupEta.secondsSince1970
                kb = b.vehiclePickupEta.secondsSince1970
            case .pickupPointDistance:
                ka = Double(a.vehiclePickupDistanceMeters)
                kb = Double(b.vehiclePickupDistanceMeters)
            case .pickupPointStraightDistance:
                ka = Double(a.vehiclePickupStraightLineDistanceMeters)
                kb = Double(b.vehiclePickupStraightLineDistanceMeters)
            }
            return ka != kb ? ka < kb : a.vehicle.name < b.vehicle.name
        }
        return Array(sorted.prefix(count))
    }
}

/// One result of a vehicle search (Fleet Engine `VehicleMatch`).
public struct VehicleMatch: Codable, Hashable, Sendable {
    /// The vehicle.
    public var vehicle: Vehicle
    /// When it could reach the pickup.
    public var vehiclePickupEta: Timestamp
    /// Estimated driving distance to the pickup, metres.
    public var vehiclePickupDistanceMeters: Int
    /// Straight-line distance to the pickup, metres.
    public var vehiclePickupStraightLineDistanceMeters: Int
    /// Which of the requested trip types it matched.
    public var tripType: TripType
}
