import Fleet
import Geo
import Synchronization
import TripModel
import TripStore

/// Inputs and a clock the checks share.
enum Inputs {
    /// The time every check's writes are stamped with.
    static let time = Timestamp(secondsSince1970: 1_738_774_951)

    /// The fleet over a store, on a fixed clock.
    static func fleet(_ store: any TripStore) -> Fleet { Fleet(store: store, clock: .fixed(time)) }

    static func vehicle(state: VehicleState = .online, capacity: Int = 4, at location: LatLng? = nil) -> Vehicle {
        var input = Vehicle(name: "")
        input.vehicleState = state
        input.supportedTripTypes = [.exclusive, .shared]
        input.maximumCapacity = capacity
        input.vehicleType = VehicleType(category: .auto)
        input.lastLocation = location.map { VehicleLocation(location: $0) }
        return input
    }

    static func trip(
        vehicle: String?, pickup: LatLng = LatLng(latitude: 37.40, longitude: -122.0),
        dropoff: LatLng = LatLng(latitude: 37.42, longitude: -122.0)
    ) -> Trip {
        var input = Trip(name: "")
        input.tripType = .exclusive
        input.pickupPoint = TerminalLocation(point: pickup)
        input.dropoffPoint = TerminalLocation(point: dropoff)
        input.vehicleId = vehicle
        return input
    }

    static func status(_ status: TripStatus) -> Trip {
        var input = Trip(name: "")
        input.tripStatus = status
        return input
    }

    static func location(_ lat: Double, _ lng: Double) -> Vehicle {
        var input = Vehicle(name: "")
        input.lastLocation = VehicleLocation(location: LatLng(latitude: lat, longitude: lng))
        return input
    }

    /// A stored vehicle record made the way Fleet makes one.
    static func record(provider: String, id: String) throws -> VehicleRecord {
        VehicleRecord(vehicle: try Vehicle.created(from: vehicle(), provider: provider, id: id, now: time), tracking: RouteTracking())
    }

    /// A stored trip made the way Fleet makes one.
    static func storedTrip(provider: String, id: String) throws -> Trip {
        try Trip.created(from: trip(vehicle: nil), provider: provider, id: id, now: time)
    }

    static func event(_ type: String, vehicle: String? = nil, trips: [String] = [], data: String = "{}") -> NewEvent {
        NewEvent(time: time, vehicleId: vehicle, tripIds: trips, type: type, data: data)
    }
}

