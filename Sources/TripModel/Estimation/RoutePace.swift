/// How long a stretch of the route ahead takes by the estimator's method (docs/estimates.md):
/// its length at the free-flow speed of its road class where the basemap tells it
/// (``RoadsAlong``), plus what its traffic lights and give-ways cost, else at the vehicle
/// type's typical speed; scaled by the driver's traffic report; plus a penalty per turn;
/// blended towards the pace the fleet was observed to drive where the route's road cells have
/// been observed; and the model's part scaled by the vehicle's own pace on this trip.
struct RoutePace {
    /// The vehicle type's typical speed, m/s.
    var speed: Double
    /// Turns, road classes and observed stretches of the route (nil: plain model).
    var profile: RouteProfile?
    /// The vehicle's observed pace against the model on this trip (1: as the model).
    var ownRatio: Double
    /// Whether the road classes of ``profile`` decide the model's speed (motor vehicles).
    var roadSpeeds: Bool = true

    /// The model's pace without observations, turns, road classes or the vehicle's ratio:
    /// what the vehicle's own pace is compared against.
    static func plain(speed: Double) -> RoutePace { RoutePace(speed: speed, profile: nil, ownRatio: 1) }

    /// Seconds from `a` to `b` metres along the route, in traffic `traffic`; turns, traffic
    /// lights and give-ways at or after `a` and before `b` are included.
    func seconds(from a: Double, to b: Double, traffic: TrafficSpeed) -> Double {
        guard b > a else { return 0 }
        var driving = 0.0
        var stops = 0.0
        var cursor = a
        if let profile {
            for stretch in profile.observed where stretch.to > a && stretch.from < b {
                let from = max(a, stretch.from)
                let to = min(b, stretch.to)
                if from > cursor { add(model(cursor, from, traffic), weight: 1, &driving, &stops) }
                let weight = Self.observedWeight(stretch)
                // An observed pace already holds the time its turns and lights took.
                driving += weight * stretch.secondsPerMeter * (to - from) * Estimation.trafficTimeFactor(traffic)
                add(model(from, to, traffic), weight: 1 - weight, &driving, &stops)
                cursor = to
            }
        }
        if b > cursor { add(model(cursor, b, traffic), weight: 1, &driving, &stops) }
        return driving + stops
    }

    private func add(_ part: (driving: Double, stops: Double), weight: Double, _ driving: inout Double, _ stops: inout Double) {
        driving += weight * part.driving
        stops += weight * part.stops
    }

    /// The model's seconds from `a` to `b`: driving (traffic included) and stops (turns,
    /// lights, give-ways), each scaled by the vehicle's own pace.
    private func model(_ a: Double, _ b: Double, _ traffic: TrafficSpeed) -> (driving: Double, stops: Double) {
        var driving = 0.0
        var stops = 0.0
        var cursor = a
        if roadSpeeds, let roads = profile?.roads {
            let factor = Estimation.trafficTimeFactorAtFreeFlow(traffic)
            for stretch in Self.stretches(roads.stretches, from: a, to: b) {
                let from = max(a, stretch.from)
                let to = min(b, stretch.to)
                if from > cursor { driving += (from - cursor) / speed * Estimation.trafficTimeFactor(traffic) }
                driving += (to - from) / stretch.roadClass.freeFlowSpeed * factor
                stops +=
                    Double(Self.marks(in: roads.giveWays, from: from, to: to).count)
                    * Estimation.giveWaySeconds(speed: stretch.roadClass.freeFlowSpeed)
                stops += Double(Self.marks(in: roads.trafficSignals, from: from, to: to).count) * Estimation.trafficSignalSeconds
                cursor = to
            }
        }
        if b > cursor { driving += (b - cursor) / speed * Estimation.trafficTimeFactor(traffic) }
        if let turns = profile?.turns { stops += Double(Self.marks(in: turns, from: a, to: b).count) * Estimation.turnSeconds }
        return (driving * ownRatio, stops * ownRatio)
    }

    /// How much an observed stretch's pace counts against the model's: its observed metres
    /// against ``Estimation/roadCellPriorMeters``.
    static func observedWeight(_ stretch: RouteProfile.ObservedStretch) -> Double {
        stretch.meters / (stretch.meters + Estimation.roadCellPriorMeters)
    }

    /// The marks (metres along the route) in `[from, to)` of an increasing list.
    static func marks(in marks: [Double], from: Double, to: Double) -> ArraySlice<Double> {
        var low = 0
        var high = marks.count
        while low < high {
            let mid = (low + high) / 2
            if marks[mid] < from { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < marks.count, marks[end] < to { end += 1 }
        return marks[low..<end]
    }

    /// The stretches of an ordered, non-overlapping list that overlap `[from, to)`.
    static func stretches(_ stretches: [RoadsAlong.Stretch], from: Double, to: Double) -> ArraySlice<RoadsAlong.Stretch> {
        var low = 0
        var high = stretches.count
        while low < high {
            let mid = (low + high) / 2
            if stretches[mid].to <= from { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < stretches.count, stretches[end].from < to { end += 1 }
        return stretches[low..<end]
    }
}
