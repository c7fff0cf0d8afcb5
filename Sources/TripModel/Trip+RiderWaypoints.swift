// What a rider sees of a shared vehicle's stops (issue 29, item 3). Its trip's remaining
// waypoints run through other riders' stops, each with the path, distance and time from the
// stop before: a path that ends at another rider's pickup tells where that rider is picked up,
// whether or not its location is shown. So the rider's view joins the legs from the vehicle (or
// the rider's own previous stop) through the others' stops into one path to the rider's own
// next stop, with one distance and one time, and leaves each other stop as a bare marker that
// says only that a stop of some kind comes first. Where two legs meet at another rider's stop,
// the vertices within ``Trip/otherStopClearanceMeters`` of it are left out, so the joined path
// has no vertex there that a straight stand-in leg would put exactly on it. Traffic runs over
// the joined path, re-indexed. The share page and previews draw this view, so they follow.

import Geo

extension Trip {
    /// How far the joined path keeps its vertices from another rider's stop where two legs
    /// meet there.
    package static let otherStopClearanceMeters = 30.0

    /// `waypoints` (this trip's remaining waypoints, other riders' stops among them) as this
    /// trip's rider may see them: each of the rider's own stops with the path, distance and
    /// time from the vehicle or the rider's previous stop; other riders' stops before it
    /// reduced to their type.
    static func riderWaypoints(of tripId: String, in waypoints: [TripWaypoint]) -> [TripWaypoint] {
        var shown: [TripWaypoint] = []
        var passed: [TripWaypoint] = []
        for waypoint in waypoints {
            guard waypoint.tripId == tripId else {
                passed.append(waypoint)
                shown.append(TripWaypoint(waypointType: waypoint.waypointType))
                continue
            }
            shown.append(passed.isEmpty ? waypoint : joined(passed, then: waypoint))
            passed = []
        }
        return shown
    }

    /// The rider's `own` stop with the legs through `others` joined into its own.
    private static func joined(_ others: [TripWaypoint], then own: TripWaypoint) -> TripWaypoint {
        var merged = own
        let legs = others + [own]
        merged.distanceMeters = legs.allSatisfy { $0.distanceMeters != nil } ? legs.reduce(0) { $0 + ($1.distanceMeters ?? 0) } : nil
        if legs.allSatisfy({ $0.duration != nil }) {
            merged.duration = ProtoDuration(seconds: legs.reduce(0) { $0 + ($1.duration?.seconds ?? 0) })
        } else {
            merged.duration = nil
        }
        guard legs.allSatisfy({ $0.encodedPathToWaypoint != nil }) else {
            merged.encodedPathToWaypoint = nil
            merged.trafficToWaypoint = nil
            return merged
        }
        var points: [LatLng] = []
        var intervals: [SpeedReadingInterval] = []
        var hasTraffic = false
        for (index, leg) in legs.enumerated() {
            guard var path = try? EncodedPolyline.decode(leg.encodedPathToWaypoint ?? ""), !path.isEmpty else { continue }
            // The vertices dropped at the leg's start (where the previous leg met another
            // rider's stop) and at its end (where it meets the next one).
            var dropFront = 0
            if index > 0, let stop = others[index - 1].location?.point {
                while dropFront < path.count, Earth.distance(path[dropFront], stop) < otherStopClearanceMeters { dropFront += 1 }
            }
            var dropBack = 0
            if index < others.count, let stop = others[index].location?.point {
                while dropBack < path.count - dropFront, Earth.distance(path[path.count - 1 - dropBack], stop) < otherStopClearanceMeters {
                    dropBack += 1
                }
            }
            let kept = dropFront..<(path.count - dropBack)
            let offset = points.count - dropFront
            for interval in leg.trafficToWaypoint?.speedReadingInterval ?? [] {
                hasTraffic = true
                let start = max(interval.startPolylinePointIndex, kept.lowerBound)
                let end = min(interval.endPolylinePointIndex, kept.upperBound - 1)
                guard start < end else { continue }
                intervals.append(
                    SpeedReadingInterval(startPolylinePointIndex: start + offset, endPolylinePointIndex: end + offset, speed: interval.speed))
            }
            path = Array(path[kept])
            points += path
        }
        merged.encodedPathToWaypoint = EncodedPolyline.encode(points)
        merged.trafficToWaypoint = hasTraffic ? ConsumableTrafficPolyline(speedReadingInterval: intervals) : nil
        return merged
    }
}
