import Geo

/// What the estimator knows about the vehicle's current route segment beyond its length and
/// traffic: where it turns, what the basemap says about its roads (read once per route
/// segment), and how fast the fleet has been observed to drive the road cells along it. Built when the segment changes (and again every ``Estimation/profileLifetimeSeconds``,
/// so new observations arrive), kept with the vehicle's tracking state, and read by every
/// location update without touching the route's geometry or the store again.
package struct RouteProfile: Codable, Hashable, Sendable {
    /// A stretch of the route the fleet has been observed on.
    package struct ObservedStretch: Codable, Hashable, Sendable {
        /// Metres from the route's start where the stretch begins.
        package var from: Double
        /// Metres from the route's start where it ends.
        package var to: Double
        /// The observed seconds per metre.
        package var secondsPerMeter: Double
        /// How many metres of driving the pace rests on.
        package var meters: Double
    }

    /// The `currentRouteSegmentVersion` this profile describes.
    package var routeVersion: Timestamp?
    /// The server time it was built.
    package var built: Timestamp
    /// Metres from the route's start to each turn, increasing.
    package var turns: [Double]
    /// Observed stretches, in route order, not overlapping.
    package var observed: [ObservedStretch]
    /// What the basemap says about the route's roads; nil without a basemap.
    package var roads: RoadsAlong?

    /// The profile of `route` (version `routeVersion`), with the paces `paces` hold for the
    /// road cells along it (cells without a usable pace are left to the model) and what the
    /// basemap says about its roads.
    package init(route: PolylineMeasure, routeVersion: Timestamp?, paces: [RoadCellPace], roads: RoadsAlong? = nil, now: Timestamp) {
        self.routeVersion = routeVersion
        self.roads = roads
        built = now
        turns = route.turnDistances(minimumDegrees: Estimation.turnMinimumDegrees)
        var known: [RoadCell: RoadCellPace] = [:]
        for pace in paces where now.seconds(since: pace.updated) <= Estimation.roadCellMaximumAgeSeconds {
            known[pace.cell] = pace
        }
        var observed: [ObservedStretch] = []
        if !known.isEmpty {
            for piece in RoadCell.along(route) {
                guard let pace = known[piece.cell], let secondsPerMeter = pace.secondsPerMeter else { continue }
                let stretch = ObservedStretch(
                    from: piece.from, to: piece.to, secondsPerMeter: Estimation.plausible(secondsPerMeter: secondsPerMeter),
                    meters: pace.meters)
                if let last = observed.last, last.to == stretch.from, last.secondsPerMeter == stretch.secondsPerMeter,
                    last.meters == stretch.meters
                {
                    observed[observed.count - 1].to = stretch.to
                } else {
                    observed.append(stretch)
                }
            }
        }
        self.observed = Self.bounded(observed)
    }

    /// The stretches merged pairwise (length-weighted) until at most
    /// ``Estimation/profileMaximumStretches`` remain: the profile is saved on every update.
    static func bounded(_ stretches: [ObservedStretch]) -> [ObservedStretch] {
        var stretches = stretches
        while stretches.count > Estimation.profileMaximumStretches {
            var merged: [ObservedStretch] = []
            var i = 0
            while i < stretches.count {
                if i + 1 < stretches.count {
                    let a = stretches[i]
                    let b = stretches[i + 1]
                    let lengthA = a.to - a.from
                    let lengthB = b.to - b.from
                    let length = max(lengthA + lengthB, 1e-9)
                    merged.append(
                        ObservedStretch(
                            from: a.from, to: b.to,
                            secondsPerMeter: (a.secondsPerMeter * lengthA + b.secondsPerMeter * lengthB) / length,
                            meters: min(a.meters, b.meters)))
                    i += 2
                } else {
                    merged.append(stretches[i])
                    i += 1
                }
            }
            stretches = merged
        }
        return stretches
    }

    /// Whether the profile still describes the vehicle's route segment and is recent enough.
    func describes(routeVersion: Timestamp?, now: Timestamp) -> Bool {
        self.routeVersion == routeVersion && now.seconds(since: built) < Estimation.profileLifetimeSeconds
    }
}
