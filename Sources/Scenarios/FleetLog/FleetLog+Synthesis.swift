// Some exports start after the vehicle was created (the two-trips log has no create_vehicle):
// a replay or an import then creates the vehicle itself, from the first state Fleet Engine
// logged for it, so the calls that follow find it as the driver's app left it.

import JSON
import TripModel

extension FleetLog {
    /// The create body for a vehicle the log only updates: state, trip types, capacity and
    /// type from Fleet Engine's first logged response for it, with Fleet Engine's defaults
    /// (ONLINE, EXCLUSIVE, 4 seats, AUTO) for what the log never shows.
    public func synthesizedVehicle(id: String) -> Vehicle {
        var input = Vehicle(name: "")
        for entry in entries {
            guard case .updateVehicle(_, let vehicleId, _, _) = entry.call, vehicleId == id, let response = entry.response,
                let logged = try? StrictJSONDecoder().decode(Vehicle.self, from: response, root: "response")
            else { continue }
            input.vehicleState = logged.vehicleState
            input.supportedTripTypes = logged.supportedTripTypes
            input.maximumCapacity = logged.maximumCapacity
            input.vehicleType = logged.vehicleType
            break
        }
        input.vehicleState = input.vehicleState ?? .online
        if input.supportedTripTypes.isEmpty { input.supportedTripTypes = [.exclusive] }
        input.maximumCapacity = input.maximumCapacity ?? 4
        input.vehicleType = input.vehicleType ?? VehicleType(category: .auto)
        return input
    }
}
