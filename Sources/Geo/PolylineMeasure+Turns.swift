// Where a route turns, from its geometry alone. Vertex spacing on a route polyline says
// little (a straight avenue may carry many vertices, a bend few), so the line is walked in
// equal steps and the bearing behind a place is compared with the bearing ahead of it: a
// change of at least the threshold over that short window is a turn. One turn is reported
// per bend, at its middle, and curves gentler than the threshold (highway bends, ramps that
// merge) are not turns.

import Foundation

extension PolylineMeasure {
    /// Distances from the start (metres, increasing) of the places where the line changes
    /// direction by at least `minimumDegrees` within `windowMeters` before and after them,
    /// sampled every `stepMeters`.
    package func turnDistances(minimumDegrees: Double = 45, stepMeters: Double = 15, windowMeters: Double = 30) -> [Double] {
        guard totalMeters > 2 * windowMeters, stepMeters > 0 else { return [] }
        let samples = Int(totalMeters / stepMeters)
        let window = max(1, Int((windowMeters / stepMeters).rounded()))
        guard samples > 2 * window else { return [] }
        let places = (0...samples).map { point(atDistance: Double($0) * stepMeters) }
        // The bearing of each step; a step of no length (duplicate points) repeats the last.
        var bearings: [Double] = []
        bearings.reserveCapacity(samples)
        for i in 0..<samples {
            let a = places[i]
            let b = places[i + 1]
            bearings.append(a == b ? bearings.last ?? 0 : Earth.initialBearing(from: a, to: b))
        }
        var turns: [Double] = []
        var i = window
        while i + window <= bearings.count {
            let change = abs(Self.angle(from: bearings[i - window], to: bearings[i + window - 1]))
            if change >= minimumDegrees {
                // The bend's middle: where the change over the window is largest.
                var best = i
                var bestChange = change
                var j = i + 1
                while j + window <= bearings.count, j < i + 2 * window {
                    let next = abs(Self.angle(from: bearings[j - window], to: bearings[j + window - 1]))
                    if next > bestChange {
                        best = j
                        bestChange = next
                    }
                    j += 1
                }
                turns.append(Double(best) * stepMeters)
                i = best + 2 * window
            } else {
                i += 1
            }
        }
        return turns
    }

    /// The signed change from one bearing to another, in (-180, 180] degrees.
    static func angle(from a: Double, to b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d <= -180 { d += 360 }
        if d > 180 { d -= 360 }
        return d
    }
}
