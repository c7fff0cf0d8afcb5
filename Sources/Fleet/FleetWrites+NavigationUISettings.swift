import Styling
import TripModel
import TripStore

extension FleetWrites {
    /// Sets a vehicle's navigation UI settings to what `change` makes of the ones in effect.
    /// A change that changes nothing writes nothing; any other is stored as a new version and
    /// logged on the vehicle's stream (`didUpdateNavigationUISettings`), so a driver's screen
    /// redraws at once. NOT_FOUND for an unknown vehicle; an error thrown by `change` leaves
    /// everything as it was.
    func updateNavigationUISettings(
        _ tx: any StoreTransaction, provider: String, id: String, now: Timestamp,
        change: (NavigationUISettings) throws -> NavigationUISettings
    ) throws -> VehicleNavigationUISettings {
        guard try tx.vehicleRecord(provider: provider, id: id) != nil else { throw Self.notFound("vehicle", id) }
        let current = VehicleNavigationUISettings(try tx.navigationUISettings(provider: provider, vehicleId: id))
        let settings = try change(current.settings)
        guard settings != current.settings else { return current }
        // The record stays when the defaults come back, so its version keeps moving forward.
        let record = try VehicleNavigationUISettings.record(settings, after: current.version, now: now)
        try tx.setNavigationUISettings(provider: provider, vehicleId: id, record)
        let updated = VehicleNavigationUISettings(settings: settings, version: record.version)
        try tx.appendEvent(provider: provider, Events.navigationUISettings(updated, vehicleId: id, now: now))
        return updated
    }
}
