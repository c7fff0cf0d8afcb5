// What every drive teaches (DESIGN §5, an estimate whenever a vehicle has a trip): a vehicle's
// way from one standstill to the next (DriveTravel) shows how roundabout the roads of the
// areas its straight line crosses are, whether or not it was heading for a stop, so a later
// leg in the same areas starts from what this fleet drove there. A drive whose end a leg
// already taught (JourneyState+Legs) teaches nothing more.

import Geo

extension JourneyState {
    /// Follows the vehicle's drive since it last stood still: on a new fix, the metres it
    /// drove and whether it stays in one place; once it has stood there for
    /// ``Estimation/standstillSeconds``, the drive ends and its detour is learnt, and a new
    /// drive begins there. A GPS jump ends the drive unlearnt (its way is unknown) and begins a
    /// new one at the fix after it. Returns what the fleet learns.
    static func updateDrive(_ tracking: inout RouteTracking, before: RouteTracking, trigger: Trigger) -> [AreaObservation] {
        guard trigger.locationUpdated, let fix = tracking.fixLocation, let fixTime = tracking.fixTime else { return [] }
        guard var drive = tracking.drive, let previous = before.fixLocation, let previousTime = before.fixTime else {
            tracking.drive = DriveTravel(origin: fix, time: fixTime)
            return []
        }
        let seconds = fixTime.seconds(since: previousTime)
        guard seconds > 0 else { return [] }
        let meters = Earth.distance(previous, fix)
        if meters > seconds * Estimation.observationMaximumSpeed {
            tracking.drive = DriveTravel(origin: fix, time: fixTime)
            return []
        }
        // A pause in the fixes counts as the straight line between them, the least it drove.
        drive.drivenMeters += meters
        var learned: [AreaObservation] = []
        if Earth.distance(drive.still, fix) >= Estimation.setOffMeters {
            drive.still = fix
            drive.stillSince = fixTime
        } else if drive.standsStill(at: fixTime) {
            if !drive.taught {
                learned = detourObservations(from: drive.origin, to: drive.still, driven: drive.drivenMeters, now: trigger.now)
                // The leg under way has had this part of its way taught: it teaches nothing more.
                if !learned.isEmpty { tracking.leg?.broken = true }
            }
            let stillSince = drive.stillSince
            drive = DriveTravel(origin: drive.still, time: fixTime)
            drive.stillSince = stillSince
        }
        tracking.drive = drive
        return learned
    }
}
