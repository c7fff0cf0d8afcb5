// The dynamic pickup ETA of DESIGN §7: minutes from the render time to the pickup,
// recomputed on every render, so the same trip rendered a minute later reads differently.

import Foundation
import TripModel

/// The text of the pickup marker's ETA badge.
public enum PickupETA {
    /// The badge text at `now`, or nil when there is no badge: "4 min" (rounded to the
    /// nearest minute, at least 1; "1 hr 5 min" past an hour) while the trip is NEW or
    /// ENROUTE_TO_PICKUP, "Now" on arrival (ARRIVED_AT_PICKUP, or the ETA has passed); nil
    /// once the rider is aboard or when no pickup ETA is known.
    public static func label(for trip: Trip, at now: Timestamp) -> String? {
        switch trip.tripStatus {
        case .arrivedAtPickup: return "Now"
        case .new, .enrouteToPickup: break
        default: return nil
        }
        let waypoint = trip.remainingWaypoints.first { $0.waypointType == .pickup && $0.tripId == trip.tripId }
        guard let eta = waypoint?.eta ?? trip.pickupTime else { return nil }
        let seconds = eta.seconds(since: now)
        guard seconds > 0 else { return "Now" }
        return text(minutes: max(1, Int((seconds / 60).rounded())))
    }

    /// "N min", or "H hr M min" from an hour on.
    static func text(minutes: Int) -> String {
        guard minutes >= 60 else { return "\(minutes) min" }
        let hours = minutes / 60
        let rest = minutes % 60
        return rest == 0 ? "\(hours) hr" : "\(hours) hr \(rest) min"
    }
}
