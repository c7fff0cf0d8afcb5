import Geo
import JSON

/// One result of a vehicle search (Fleet Engine `VehicleMatch`).
public struct VehicleMatch: Hashable, Sendable {
    /// The vehicle.
    public var vehicle: Vehicle
    /// When it could reach the pickup, after the stops it makes first.
    package var vehiclePickupEta: Timestamp
    /// Driving distance to the pickup through the stops it makes first, metres.
    package var vehiclePickupDistanceMeters: Int
    /// Straight-line distance from the vehicle to the pickup, metres.
    package var vehiclePickupStraightLineDistanceMeters: Int
    /// When it could reach the dropoff, after every stop before it (with a dropoff point).
    package var vehicleDropoffEta: Timestamp?
    /// Driving distance from the pickup to the dropoff alone, metres (with a dropoff point).
    package var vehiclePickupToDropoffDistanceMeters: Int?
    /// The trip type the match was made for.
    public var tripType: TripType
    /// The vehicle's location and the stops it would make up to the new dropoff (or pickup),
    /// with the times the estimates above were made from.
    package var vehicleTripsWaypoints: [Waypoint]
    /// How the vehicle would take the trip.
    package var vehicleMatchType: VehicleMatchType
    /// The order the request asked for.
    package var requestedOrderedBy: VehicleSearchQuery.Order
    /// The order the match was ranked by.
    package var orderedBy: VehicleSearchQuery.Order

    /// Creates a match.
    package init(
        vehicle: Vehicle, vehiclePickupEta: Timestamp, vehiclePickupDistanceMeters: Int,
        vehiclePickupStraightLineDistanceMeters: Int, vehicleDropoffEta: Timestamp?, vehiclePickupToDropoffDistanceMeters: Int?,
        tripType: TripType, vehicleTripsWaypoints: [Waypoint], vehicleMatchType: VehicleMatchType, orderedBy: VehicleSearchQuery.Order
    ) {
        self.vehicle = vehicle
        self.vehiclePickupEta = vehiclePickupEta
        self.vehiclePickupDistanceMeters = vehiclePickupDistanceMeters
        self.vehiclePickupStraightLineDistanceMeters = vehiclePickupStraightLineDistanceMeters
        self.vehicleDropoffEta = vehicleDropoffEta
        self.vehiclePickupToDropoffDistanceMeters = vehiclePickupToDropoffDistanceMeters
        self.tripType = tripType
        self.vehicleTripsWaypoints = vehicleTripsWaypoints
        self.vehicleMatchType = vehicleMatchType
        self.requestedOrderedBy = orderedBy
        self.orderedBy = orderedBy
    }
}

extension VehicleMatch: Codable {
    enum CodingKeys: String, CodingKey {
        case vehicle, vehiclePickupEta, vehiclePickupDistanceMeters, vehiclePickupStraightLineDistanceMeters, vehicleDropoffEta
        case vehiclePickupToDropoffDistanceMeters, tripType, vehicleTripsWaypoints, vehicleMatchType, requestedOrderedBy, orderedBy
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        vehicle = try c.decode(Vehicle.self, forKey: .vehicle)
        vehiclePickupEta = try c.decode(Timestamp.self, forKey: .vehiclePickupEta)
        vehiclePickupDistanceMeters = try c.decode(Int.self, forKey: .vehiclePickupDistanceMeters)
        vehiclePickupStraightLineDistanceMeters = try c.decode(Int.self, forKey: .vehiclePickupStraightLineDistanceMeters)
        vehicleDropoffEta = try c.decodeIfSet(Timestamp.self, forKey: .vehicleDropoffEta)
        vehiclePickupToDropoffDistanceMeters = try c.decodeIfSet(Int.self, forKey: .vehiclePickupToDropoffDistanceMeters)
        tripType = try c.decode(TripType.self, forKey: .tripType)
        vehicleTripsWaypoints = try c.decodeArray(Waypoint.self, forKey: .vehicleTripsWaypoints)
        vehicleMatchType = try c.decode(VehicleMatchType.self, forKey: .vehicleMatchType)
        requestedOrderedBy = try c.decode(VehicleSearchQuery.Order.self, forKey: .requestedOrderedBy)
        orderedBy = try c.decode(VehicleSearchQuery.Order.self, forKey: .orderedBy)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(vehicle, forKey: .vehicle)
        try c.encode(vehiclePickupEta, forKey: .vehiclePickupEta)
        try c.encode(vehiclePickupDistanceMeters, forKey: .vehiclePickupDistanceMeters)
        try c.encode(vehiclePickupStraightLineDistanceMeters, forKey: .vehiclePickupStraightLineDistanceMeters)
        try c.encodeIfSet(vehicleDropoffEta, forKey: .vehicleDropoffEta)
        try c.encodeIfSet(vehiclePickupToDropoffDistanceMeters, forKey: .vehiclePickupToDropoffDistanceMeters)
        try c.encode(tripType, forKey: .tripType)
        try c.encodeNonEmpty(vehicleTripsWaypoints, forKey: .vehicleTripsWaypoints)
        try c.encode(vehicleMatchType, forKey: .vehicleMatchType)
        try c.encode(requestedOrderedBy, forKey: .requestedOrderedBy)
        try c.encode(orderedBy, forKey: .orderedBy)
    }
}

/// How a matched vehicle would take a trip (Fleet Engine `VehicleMatch.VehicleMatchType`).
package enum VehicleMatchType: String, WireEnum {
    /// It has no trip and drives straight to the pickup.
    case exclusive = "EXCLUSIVE"
    /// It finishes its trips first, then drives to the pickup.
    case backToBack = "BACK_TO_BACK"
    /// It has room to share: the new stops fit between its trips' stops.
    case carpool = "CARPOOL"
    /// It shares, but only after finishing its current stops.
    case carpoolBackToBack = "CARPOOL_BACK_TO_BACK"
}

/// A point on a matched vehicle's way with the time it would be there (Fleet Engine
/// `Waypoint`, used only in `VehicleMatch`).
package struct Waypoint: Codable, Hashable, Sendable {
    /// Where.
    package var latLng: LatLng
    /// When the vehicle would arrive.
    package var eta: Timestamp?

    /// Creates a waypoint.
    package init(latLng: LatLng, eta: Timestamp?) {
        self.latLng = latLng
        self.eta = eta
    }
}
