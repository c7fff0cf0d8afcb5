/// How long a stretch of the route ahead takes by the estimator's method (README, "How
/// estimates are made"): its length at the vehicle type's typical speed, scaled by the
/// driver's traffic report, plus a penalty per turn; blended towards the pace the fleet was
/// observed to drive where the route's road cells have been observed; and the model's part
/// scaled by the vehicle's own pace on this trip.
struct RoutePace {
    /// The vehicle type's typical speed, m/s.
    var speed: Double
    /// Turns and observed stretches of the route (nil: plain model).
    var profile: RouteProfile?
    /// The vehicle's observed pace against the model on this trip (1: as the model).
    var ownRatio: Double

    /// The model's pace without observations, turns or the vehicle's ratio: what the
    /// vehicle's own pace is compared against.
    static func plain(speed: Double) -> RoutePace { RoutePace(speed: speed, profile: nil, ownRatio: 1) }

    /// Seconds from `a` to `b` metres along the route, in traffic `traffic`; turns at or after
    /// `a` and before `b` are included.
    func seconds(from a: Double, to b: Double, traffic: TrafficSpeed) -> Double {
        guard b > a else { return 0 }
        let factor = Estimation.trafficTimeFactor(traffic)
        let modelPace = ownRatio / speed
        var seconds = 0.0
        var cursor = a
        if let profile {
            for stretch in profile.observed where stretch.to > a && stretch.from < b {
                let from = max(a, stretch.from)
                let to = min(b, stretch.to)
                if from > cursor { seconds += (from - cursor) * modelPace }
                let weight = Self.observedWeight(stretch)
                seconds += (to - from) * (weight * stretch.secondsPerMeter + (1 - weight) * modelPace)
                cursor = to
            }
            for turn in Self.turns(in: profile.turns, from: a, to: b) {
                let observed = profile.observed.first { $0.from <= turn && turn < $0.to }.map(Self.observedWeight) ?? 0
                // An observed pace already holds the time its turns took.
                seconds += Estimation.turnSeconds * ownRatio * (1 - observed) / factor
            }
        }
        if b > cursor { seconds += (b - cursor) * modelPace }
        return seconds * factor
    }

    /// How much an observed stretch's pace counts against the model's: its observed metres
    /// against ``Estimation/roadCellPriorMeters``.
    static func observedWeight(_ stretch: RouteProfile.ObservedStretch) -> Double {
        stretch.meters / (stretch.meters + Estimation.roadCellPriorMeters)
    }

    /// The turns in `[from, to)` of an increasing list.
    static func turns(in turns: [Double], from: Double, to: Double) -> ArraySlice<Double> {
        var low = 0
        var high = turns.count
        while low < high {
            let mid = (low + high) / 2
            if turns[mid] < from { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < turns.count, turns[end] < to { end += 1 }
        return turns[low..<end]
    }
}
