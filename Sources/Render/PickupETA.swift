// The dynamic pickup ETA of DESIGN §7: minutes from the render time to the pickup,
// recomputed on every render, so the same trip rendered a minute later reads differently.

import Foundation
import TripModel

/// The text of the pickup marker's ETA badge.
package enum PickupETA {
    /// The badge text at `now`, or nil when there is no badge: the minutes as every trip
    /// duration reads (``NavigationText/duration(_:)``: "4 min", rounded to the nearest minute
    /// and at least 1; "1 hr 45 min" from an hour on) while the trip is NEW or
    /// ENROUTE_TO_PICKUP, "Now" on arrival (ARRIVED_AT_PICKUP, or the ETA has passed); nil
    /// once the rider is aboard or when no pickup ETA is known. The share page's badge
    /// (`units.duration` in pages/units.js) follows the same rule.
    package static func label(for trip: Trip, at now: Timestamp) -> String? {
        switch trip.tripStatus {
        case .arrivedAtPickup: return "Now"
        case .new, .enrouteToPickup: break
        default: return nil
        }
        let waypoint = trip.remainingWaypoints.first { $0.waypointType == .pickup && $0.tripId == trip.tripId }
        guard let eta = waypoint?.eta ?? trip.pickupTime else { return nil }
        let seconds = eta.seconds(since: now)
        guard seconds > 0 else { return "Now" }
        return NavigationText.duration(seconds)
    }
}
