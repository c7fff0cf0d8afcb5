// Finds the turns of a route from its geometry alone, for routes that come without steps
// (a recorded Fleet Engine `currentRouteSegment` has no maneuvers or road names).
//
// At every vertex the heading change is measured between two arms of fixed length: from the
// point `armMeters` before the vertex to the vertex, and from the vertex to the point
// `armMeters` after it (both measured along the line). Arms of fixed length, rather than the
// two segments at the vertex, make the answer independent of how densely the line is drawn:
// a gentle curve drawn with a vertex every metre turns by a fraction of a degree per vertex
// but by the same few degrees over an arm as when drawn with one vertex every 50 m, and a
// GPS-ish zigzag of a few metres cancels out within an arm. Vertices whose change is large
// enough are candidates; the largest candidate wins and suppresses the others within an arm's
// length, so a rounded corner drawn with several vertices is one turn, at its sharpest vertex.
//
// The turn's angle, which names the maneuver, is measured on the outer halves of the arms
// (10–20 m either side): the roads before and after, without the corner. The chord arms
// flatten a rounded corner and read a U-turn across an 8 m road as a sharp turn (the arm
// after it runs across the road before it runs back); the outer halves see both whole. A
// jog (left and right again within a few metres) has the same road on both outer halves and
// is no turn.

import Geo

/// Turns found along a polyline from its geometry.
struct TurnDetector {
    /// One turn: where it is and how much the heading changes there.
    struct Turn: Hashable {
        /// Index of the vertex where the turn is.
        var pointIndex: Int
        /// Heading change in degrees, positive to the right, in (-180, 180].
        var angle: Double
        /// The heading after the turn, degrees from north.
        var bearingAfter: Double
    }

    /// Length of each arm, metres. A city intersection's corner, drawn by a router, spans
    /// 5–15 m, and a consumer GPS trace wanders by about as much; 20 m takes in a whole corner
    /// and averages such wander out, while staying shorter than most pairs of real turns (a
    /// jog across a junction is usually 30 m or more).
    static let armMeters = 20.0
    /// Below this change a vertex is not a turn: a road's own bends, lane changes and the
    /// slight angle of most "continue" junctions stay under 25°.
    static let turnDegrees = 25.0
    /// Vertices closer than this to either end are not turns: the arm there is too short to
    /// average out a zigzag, and a turn that near the start is already being made (near the
    /// end it is the arrival), metres.
    static let endMeters = 10.0
    /// An arm whose ends are closer than this (the line doubles back within it, as at a
    /// U-turn's tip) has no reliable heading, metres.
    static let minimumChordMeters = 5.0

    /// The turns along `line`, in order along it.
    static func turns(along line: PolylineMeasure) -> [Turn] {
        let points = line.points
        let meters = line.cumulativeMeters
        guard points.count >= 3 else { return [] }
        let total = line.totalMeters
        var candidates: [(turn: Turn, chord: Double)] = []
        for i in 1..<(points.count - 1) where meters[i] > meters[i - 1] {
            let d = meters[i]
            guard d >= endMeters, total - d >= endMeters else { continue }
            let before = line.point(atDistance: d - armMeters)
            let after = line.point(atDistance: d + armMeters)
            guard Earth.distance(before, points[i]) >= minimumChordMeters,
                Earth.distance(points[i], after) >= minimumChordMeters
            else { continue }
            let chord = Degrees.difference(
                from: Earth.initialBearing(from: before, to: points[i]), to: Earth.initialBearing(from: points[i], to: after))
            guard abs(chord) >= turnDegrees else { continue }
            // The roads on either side, away from the corner itself.
            let nearBefore = line.point(atDistance: d - armMeters / 2)
            let nearAfter = line.point(atDistance: d + armMeters / 2)
            guard Earth.distance(before, nearBefore) >= minimumChordMeters / 2,
                Earth.distance(nearAfter, after) >= minimumChordMeters / 2
            else { continue }
            let bearingAfter = Earth.initialBearing(from: nearAfter, to: after)
            let angle = Degrees.difference(from: Earth.initialBearing(from: before, to: nearBefore), to: bearingAfter)
            guard abs(angle) >= turnDegrees else { continue }
            candidates.append((Turn(pointIndex: i, angle: angle, bearingAfter: bearingAfter), chord))
        }
        // Largest first; a turn keeps the arm around it to itself.
        var kept: [Turn] = []
        for candidate in candidates.sorted(by: { abs($0.chord) > abs($1.chord) }) {
            let at = meters[candidate.turn.pointIndex]
            if kept.allSatisfy({ abs(meters[$0.pointIndex] - at) > armMeters }) { kept.append(candidate.turn) }
        }
        return kept.sorted { $0.pointIndex < $1.pointIndex }
    }

    /// The turn a heading change makes, in the classes the demo's inferred steps use: under 25° none (nil),
    /// 25–60° slight, 60–120° plain, 120–160° sharp, above that a U-turn. These are wider
    /// than the Navigation SDK's lane-shape classes (ManeuverMapping.direction(angle:))
    /// because an angle measured over 20 m arms reads a little flatter than the junction's
    /// own angle, and a driver calls a 50° fork "slight".
    static func direction(angle: Double) -> ManeuverMapping.Direction? {
        let m = abs(angle)
        let right = angle > 0
        switch m {
        case ..<turnDegrees: return nil
        case ..<60: return right ? .slightRight : .slightLeft
        case ..<120: return right ? .right : .left
        case ..<160: return right ? .sharpRight : .sharpLeft
        default: return .uTurn
        }
    }
}
