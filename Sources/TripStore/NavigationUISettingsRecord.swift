/// A vehicle's navigation UI settings as stored (DESIGN §9): opaque JSON to the store (Fleet
/// keeps only what differs from the defaults), with the version Fleet gave it. Kept apart
/// from the vehicle row, which every location update rewrites, because they change rarely.
public struct NavigationUISettingsRecord: Hashable, Sendable {
    /// The settings' JSON.
    public var json: [UInt8]
    /// Moves with every change and never repeats for a vehicle.
    package var version: Int64

    /// A record from its parts.
    package init(json: [UInt8], version: Int64) {
        self.json = json
        self.version = version
    }
}
