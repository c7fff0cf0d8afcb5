import Navigation
import TripModel

extension Fleet {
    /// The navigation a trip's rider may see now: the NavInfo of the trip's vehicle (its
    /// current step and at most `stepLimit` remaining steps) while that vehicle serves this
    /// trip alone and is guiding, the same rule as the navigator's events in the trip's event
    /// stream (on a shared ride the steps name other riders' stops); nil otherwise.
    package func riderNavInfo(provider: String, trip: Trip, stepLimit: Int = 1) async throws -> NavInfo? {
        guard let vehicleId = trip.vehicleId, !vehicleId.isEmpty,
            let vehicle = try? await self.vehicle(provider: provider, id: vehicleId),
            vehicle.currentTrips == [trip.tripId]
        else { return nil }
        let info = try await navInfo(provider: provider, vehicleId: vehicleId)
        guard info.navState != .stopped, info.currentStep != nil else { return nil }
        return info.limitingRemainingSteps(to: stepLimit)
    }
}
