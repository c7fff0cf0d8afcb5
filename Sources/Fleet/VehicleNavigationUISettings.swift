// A vehicle's driver-screen settings (DESIGN §9) as Fleet keeps them: the store holds only
// what differs from the defaults, as JSON, so that a later change of a default reaches every
// vehicle that never set it; the version moves with each change.

import JSON
import Styling
import TripModel
import TripStore

/// A vehicle's navigation UI settings in effect, with their version.
package struct VehicleNavigationUISettings: Hashable, Sendable {
    /// The settings in effect (the defaults for what was never set).
    package var settings: NavigationUISettings
    /// Moves with every change and never repeats for a vehicle; 0 until first set.
    package var version: Int64

    /// Settings from their parts.
    package init(settings: NavigationUISettings = NavigationUISettings(), version: Int64 = 0) {
        self.settings = settings
        self.version = version
    }

    /// The settings a stored record describes. A record this version cannot read (written by
    /// an incompatible one) gives the defaults rather than a screen that never draws again.
    init(_ record: NavigationUISettingsRecord?) {
        guard let record else {
            self.init()
            return
        }
        self.init(settings: (try? NavigationUISettings(json: record.json)) ?? NavigationUISettings(), version: record.version)
    }

    /// The record that stores `settings` as the version after `previous`, written at `now`.
    static func record(_ settings: NavigationUISettings, after previous: Int64, now: Timestamp) throws -> NavigationUISettingsRecord {
        NavigationUISettingsRecord(
            json: try JSONStreamEncoder().encode(settings.overridesJSONValue), version: max(previous + 1, now.microseconds))
    }
}
