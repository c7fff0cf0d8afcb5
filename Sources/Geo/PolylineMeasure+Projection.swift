// Nearest-point queries on a PolylineMeasure: over the whole line, or only over a window of
// distances around a hint, which makes tracking a vehicle independent of the route's length.
// See PolylineMeasure.swift for the local equirectangular projection used (LocalPlane).

import Foundation

extension PolylineMeasure {
    /// The nearest point of the whole line to `p` (a linear scan of every segment).
    public func project(_ p: LatLng) -> PolylineProjection {
        let plane = LocalPlane(origin: p)
        var best = Candidate(segment: 0, fraction: 0, squaredDistance: .infinity)
        if segmentCount == 0 {
            best = Candidate(segment: 0, fraction: 0, squaredDistance: plane.squaredDistance(to: points[0]))
        }
        for segment in 0..<segmentCount {
            let candidate = plane.nearest(on: points[segment], points[segment + 1], segment: segment)
            if candidate.squaredDistance < best.squaredDistance { best = candidate }
        }
        return projection(of: p, at: best)
    }

    /// The nearest point to `p` among the segments within `behind` metres before and `ahead`
    /// metres after the distance `hint` (typically the previous position of a vehicle); the
    /// search continues past either end of the window for as long as the line keeps getting
    /// nearer, so a location slightly beyond the window is still found exactly. Costs
    /// O(log n + segments in the window), whatever the line's length.
    ///
    /// Where the line passes the same place twice (an out-and-back street, a loop), distance
    /// alone cannot tell the passes apart. Vehicles do not drive backwards, so a segment's
    /// match lying more than 5 m behind `hint` (the slack absorbs GPS jitter) counts as
    /// `backtrackPenalty` metres farther for every metre beyond that: with the default 0.5,
    /// a match 25 m back must be 10 m nearer to win. 0 ranks by distance alone.
    package func project(
        _ p: LatLng, near hint: Double, behind: Double, ahead: Double,
        backtrackPenalty: Double = 0.5
    ) -> PolylineProjection {
        projectOnStretch(p, near: hint, behind: behind, ahead: ahead, backtrackPenalty: backtrackPenalty).projection
    }

    /// ``project(_:near:behind:ahead:backtrackPenalty:)``, and whether its answer is the whole
    /// line's where this measures a stretch of it (``firstIndex``, ``reachesEnd``): the window
    /// lies inside the stretch and the search past the window's ends stopped before the
    /// stretch's ends (always true on a whole line).
    package func projectOnStretch(
        _ p: LatLng, near hint: Double, behind: Double, ahead: Double, backtrackPenalty: Double = 0.5
    ) -> (projection: PolylineProjection, sameOnWholeLine: Bool) {
        let startsLine = firstIndex == 0
        guard segmentCount > 0 else { return (project(p), isWholeLine) }
        var inside = (startsLine || hint - max(0, behind) >= cumulativeMeters[0]) && (reachesEnd || hint + max(0, ahead) < totalMeters)
        let plane = LocalPlane(origin: p)
        let first = min(position(atDistance: hint - max(0, behind)).index, segmentCount - 1)
        let last = min(position(atDistance: hint + max(0, ahead)).index, segmentCount - 1)
        // Scores are in degrees of arc: the plane's distance plus the penalty converted.
        let penaltyPerMeter = max(0, backtrackPenalty) * 180 / (.pi * Earth.radiusMeters)
        func scored(_ segment: Int) -> (candidate: Candidate, score: Double) {
            let candidate = plane.nearest(on: points[segment], points[segment + 1], segment: segment)
            let along =
                cumulativeMeters[segment]
                + candidate.fraction * (cumulativeMeters[segment + 1] - cumulativeMeters[segment])
            let backtrack = max(0, hint - backtrackSlackMeters - along)
            return (candidate, candidate.squaredDistance.squareRoot() + penaltyPerMeter * backtrack)
        }

        var best = scored(first)
        for segment in first...last {
            let next = scored(segment)
            if next.score < best.score { best = next }
        }
        // Descend beyond the window's ends while the line approaches the point.
        if best.candidate.segment == last {
            var segment = last + 1
            while segment < segmentCount {
                let next = scored(segment)
                if next.score > best.score { break }
                if next.score < best.score { best = next }
                segment += 1
            }
            if segment == segmentCount, !reachesEnd { inside = false }
        }
        if best.candidate.segment == first {
            var segment = first - 1
            while segment >= 0 {
                let next = scored(segment)
                if next.score > best.score { break }
                best = next
                segment -= 1
            }
            if segment < 0, !startsLine { inside = false }
        }
        return (projection(of: p, at: best.candidate), inside)
    }

    /// Metres a match may lie behind the hint before the backtrack penalty applies.
    private var backtrackSlackMeters: Double { 5 }

    private func projection(of p: LatLng, at best: Candidate) -> PolylineProjection {
        let point = point(onSegment: best.segment, fraction: best.fraction)
        var along = cumulativeMeters[best.segment]
        if best.fraction > 0, best.segment < segmentCount {
            along += best.fraction * (cumulativeMeters[best.segment + 1] - cumulativeMeters[best.segment])
        }
        return PolylineProjection(
            segmentIndex: firstIndex + best.segment, fraction: best.fraction, distanceAlongMeters: along,
            crossTrackMeters: Earth.distance(p, point), point: point)
    }
}

/// A segment's nearest point to the plane's origin.
private struct Candidate {
    var segment: Int
    var fraction: Double
    /// In the plane's units (degrees of latitude, squared): only for ranking.
    var squaredDistance: Double
}

extension LocalPlane {
    fileprivate func nearest(on a: LatLng, _ b: LatLng, segment: Int) -> Candidate {
        let point = nearest(on: a, b)
        return Candidate(segment: segment, fraction: point.fraction, squaredDistance: point.squaredDistance)
    }
}
