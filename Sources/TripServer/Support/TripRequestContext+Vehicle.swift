import Access
import Hummingbird

extension TripRequestContext {
    /// The provider and vehicle a vehicle route names, after checking that the caller may
    /// read (or, with `write`, change) that vehicle: the server, or the vehicle's driver.
    /// (NavInfo and routes are the driver's screen too: a rider follows its trip's event
    /// stream, which carries the navigator's events while the vehicle serves that trip alone.)
    func vehicle(write: Bool) throws(APIError) -> (provider: String, id: String) {
        let id = try pathParameter("vehicleId")
        let principal = try caller()
        do { try AccessPolicy.checkVehicle(principal, vehicleId: id, write: write) } catch { throw APIError(error) }
        return (try pathParameter("provider"), id)
    }
}
