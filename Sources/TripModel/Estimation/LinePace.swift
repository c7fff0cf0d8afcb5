import Geo

/// The pace the fleet was observed to drive near the straight line from a vehicle to its next
/// stop, for a leg no route is known for (DESIGN §5): the metres and seconds of the road cells
/// (``RoadCellPace``) within ``Estimation/lineCorridorMeters`` of the line, summed, and the pace
/// the operator's map gives the roads there (``RoadMix``). Read when the stop changes and every
/// ``Estimation/profileLifetimeSeconds``, kept with the vehicle's tracking state.
package struct LinePace: Codable, Hashable, Sendable {
    /// The stop the line leads to.
    package var stop: TripWaypoint
    /// The server time it was read.
    package var built: Timestamp
    /// Metres driven in the corridor's cells (counting only cells with a usable pace).
    package var meters: Double
    /// Seconds taken for them.
    package var seconds: Double
    /// Seconds per metre of a way through the map's roads near the line
    /// (``RoadMix/secondsPerMeter``); nil without a basemap or where it has too few roads.
    package var mapSecondsPerMeter: Double?
    /// Metres of the map's roads of any class near the line; nil without a basemap.
    package var mapRoadMeters: Double?
    /// Road distance over straight-line distance that the fleet's legs showed in the areas the
    /// line crosses (``JourneyState/detourFactor(from:to:observations:)``); nil where they
    /// showed none: then ``Estimation/detourFactor``.
    package var fleetDetourFactor: Double?

    /// The pace of `paces` (the corridor's cells as the store holds them) and of `roads` (the
    /// map's roads near the line, when known) on the way to `stop`, and the detour the fleet
    /// showed there (`detourFactor`, when it did).
    package init(stop: TripWaypoint, paces: [RoadCellPace], roads: RoadMix? = nil, detourFactor: Double? = nil, now: Timestamp) {
        self.stop = stop
        built = now
        mapSecondsPerMeter = roads?.secondsPerMeter
        mapRoadMeters = roads?.totalMeters
        fleetDetourFactor = detourFactor
        var meters = 0.0
        var seconds = 0.0
        for pace in paces where now.seconds(since: pace.updated) <= Estimation.roadCellMaximumAgeSeconds {
            guard let secondsPerMeter = pace.secondsPerMeter else { continue }
            meters += pace.meters
            seconds += pace.meters * Estimation.plausible(secondsPerMeter: secondsPerMeter)
        }
        self.meters = meters
        self.seconds = seconds
    }

    /// Seconds per metre of road: the fleet's, pulled by ``Estimation/roadCellPriorMeters`` of
    /// driving towards the model's: the map's pace when known and `roadSpeeds` (a vehicle that
    /// drives at the roads' speed), else `typicalSecondsPerMeter`.
    func secondsPerMeter(typical typicalSecondsPerMeter: Double, roadSpeeds: Bool) -> Double {
        let modelSecondsPerMeter = roadSpeeds ? mapSecondsPerMeter ?? typicalSecondsPerMeter : typicalSecondsPerMeter
        let prior = Estimation.roadCellPriorMeters
        return (seconds + prior * modelSecondsPerMeter) / (meters + prior)
    }

    /// Road distance over straight-line distance on the way to the stop: the fleet's where it
    /// showed one, else ``Estimation/detourFactor``.
    var detourFactor: Double { fleetDetourFactor ?? Estimation.detourFactor }

    /// Whether it is of `stop` and recent enough.
    func describes(_ stop: TripWaypoint, now: Timestamp) -> Bool {
        self.stop == stop && now.seconds(since: built) < Estimation.profileLifetimeSeconds
    }

    /// The road cells (every heading) of the grid squares within ``Estimation/lineCorridorMeters``
    /// of the straight line from `a` to `b`; nil when the line is too long to read them all.
    static func corridor(from a: LatLng, to b: LatLng) -> [RoadCell]? {
        let length = Earth.distance(a, b)
        let step = RoadCell.size * LocalPlane.metersPerDegree / 2
        let count = Int((length / step).rounded(.up)) + 1
        guard count <= Estimation.lineCorridorSamples else { return nil }
        let plane = LocalPlane(origin: a)
        let margin = Estimation.lineCorridorMeters
        var squares = Set<Int64>()
        for i in 0...count {
            let p = Earth.interpolate(a, b, fraction: Double(i) / Double(count))
            let degreesNorth = margin / LocalPlane.metersPerDegree
            let degreesEast = degreesNorth / plane.xScale
            var lat = p.latitude - degreesNorth
            while lat <= p.latitude + degreesNorth + RoadCell.size / 2 {
                var lng = p.longitude - degreesEast
                while lng <= p.longitude + degreesEast + RoadCell.size / 2 {
                    squares.insert(RoadCell(LatLng(latitude: lat, longitude: lng), headingDegrees: 0).place)
                    lng += RoadCell.size
                }
                lat += RoadCell.size
            }
        }
        return squares.sorted().flatMap { place in (0..<4).map { RoadCell(id: place << 2 | Int64($0)) } }
    }
}
