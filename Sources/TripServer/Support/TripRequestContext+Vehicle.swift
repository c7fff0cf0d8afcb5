import Hummingbird

extension TripRequestContext {
    /// The provider and vehicle a vehicle route names, after checking that the caller may
    /// read (or, with `write`, change) that vehicle: the server, or the vehicle's driver.
    /// (NavInfo and routes are the driver's screen too: a rider follows its trip's event
    /// stream, which carries the navigator's events while the vehicle serves that trip alone.)
    func vehicle(write: Bool) throws(APIError) -> (provider: String, id: String) {
        let id = try pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(try caller(), vehicleId: id, write: write)
        return (try pathParameter("provider"), id)
    }
}
