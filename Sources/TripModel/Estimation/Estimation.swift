import Geo

/// The constants behind our distance and time estimates where neither the driver nor a route
/// with durations gives the answer (README, "How estimates are made"). Each is a plain,
/// physical quantity chosen from what it means, not fitted to a recorded log.
package enum Estimation {
    /// Road distance over straight-line distance, for legs the driver has not sent a route
    /// for yet, where the fleet has not shown its own (``AreaObservation/Kind/detour``). Urban
    /// road networks measure 1.2–1.4; 1.3 is the middle.
    package static let detourFactor = 1.3

    /// Typical door-to-door speed in metres per second for a vehicle category, free flow.
    package static func freeFlowSpeed(_ category: VehicleCategory?) -> Double {
        switch category {
        case .auto, .taxi, .none: return 11.1 // 40 km/h: urban arterial average
        case .truck: return 9.7 // 35 km/h
        case .twoWheeler: return 11.1 // 40 km/h
        case .bicycle: return 4.2 // 15 km/h
        case .pedestrian: return 1.4 // 5 km/h
        }
    }

    /// How much longer a stretch takes than at the typical speed, by the driver's traffic
    /// report. The typical speed is an average over roads and hours that already holds
    /// everyday congestion, and "slower traffic" is reported mostly on fast roads, where it
    /// is still about as fast as that average: a mild factor. A traffic jam is stop-and-go,
    /// about 13 km/h: three times as long as at 40 km/h.
    package static func trafficTimeFactor(_ speed: TrafficSpeed) -> Double {
        switch speed {
        case .normal, .unspecified: return 1.0
        case .slow: return 1.0
        case .trafficJam: return 3.0
        }
    }

    /// How much longer a stretch of known road class (``RoadsAlong``) takes than at its
    /// free-flow speed, by the driver's traffic report. Google Maps draws "slower traffic" for
    /// roads driven at between about a half and three quarters of their free-flow speed:
    /// two thirds of it takes 1.5 times as long. A jam is stop-and-go, as above.
    package static func trafficTimeFactorAtFreeFlow(_ speed: TrafficSpeed) -> Double {
        switch speed {
        case .normal, .unspecified: return 1.0
        case .slow: return 1.5
        case .trafficJam: return 3.0
        }
    }

    /// Whether road classes decide the speed for a vehicle type: for motor vehicles that
    /// drive at a road's speed; bicycles, pedestrians and trucks keep their own.
    package static func drivesAtRoadSpeed(_ category: VehicleCategory?) -> Bool {
        switch category {
        case .auto, .taxi, .twoWheeler, .none: return true
        case .truck, .bicycle, .pedestrian: return false
        }
    }

    /// Seconds a traffic light costs on average: Webster's uniform delay for vehicles arriving
    /// at random at a fixed-time signal at low flow, C·(1 − g/C)²/2, with a 90 s cycle and half
    /// of it green (the Highway Capacity Manual's level of service B for signalised
    /// junctions starts at 10 s of control delay).
    package static let trafficSignalSeconds = 11.25

    /// Seconds a car loses giving way at a junction (``RoadsAlong/giveWays``): it
    /// slows from the road's free-flow speed `speed` (m/s) at AASHTO's comfortable 3.4 m/s²,
    /// stands for 2 s (a stop sign's full stop) and pulls away at a gentle 1.5 m/s².
    package static func giveWaySeconds(speed: Double) -> Double {
        speed / 2 * (1 / 3.4 + 1 / 1.5) + 2
    }

    /// A turn: the route changes direction by at least this much within about 30 m.
    package static let turnMinimumDegrees = 45.0

    /// Seconds a turn adds: slowing down, yielding, turning, speeding up again (OSRM's car
    /// profile charges up to 7.5 s for a turn; a traffic light on top of it adds more).
    package static let turnSeconds = 7.5

    /// Distance within which a route segment's end counts as reaching a waypoint: pickup
    /// points are often off the road the route ends on.
    package static let waypointMatchMeters = 150.0

    // MARK: - The fleet's road cells (RoadCellPace)

    /// A road cell's pace is used once this many metres were driven there: about one pass.
    package static let roadCellMinimumMeters = 100.0

    /// How much the model weighs against a road cell's observations, in metres of driving: a
    /// cell observed for 300 m (three passes) counts half, one observed for 3 km ten times
    /// more than the model.
    package static let roadCellPriorMeters = 300.0

    /// A road cell's sums are scaled down to at most this many metres before a pass is added,
    /// so they follow the roughly 20 latest passes (a road's speed changes over the day).
    package static let roadCellMemoryMeters = 2_000.0

    /// Road cells not driven for a day are not used: they describe another time.
    package static let roadCellMaximumAgeSeconds = 86_400.0

    /// A route's profile is rebuilt at least this often, so the fleet's new observations
    /// reach a long trip.
    package static let profileLifetimeSeconds = 300.0

    /// At most this many observed stretches are kept per profile (it is saved with every
    /// location update).
    package static let profileMaximumStretches = 64

    /// The slowest and fastest pace an observation may claim: 1 m/s (crawling, waiting at a
    /// light) to 40 m/s.
    package static func plausible(secondsPerMeter: Double) -> Double {
        min(1.0, max(1.0 / 40, secondsPerMeter))
    }

    // MARK: - A leg without a route (LinePace)

    /// The fleet's road cells within this many metres of the straight line from a vehicle to
    /// its stop give the pace there: a street or two either side.
    package static let lineCorridorMeters = 100.0

    /// Lines longer than this many half-cells (about 30 km) are not read: a corridor that long
    /// says little about the way.
    package static let lineCorridorSamples = 600

    /// The map's roads near the line (``RoadMix``) set the pace there once they hold this many
    /// metres: a few blocks' streets, not a lone road crossing open country.
    package static let roadMixMinimumMeters = 200.0

    // MARK: - What the fleet's legs show (AreaObservation, LegTravel)

    /// A vehicle has set off towards its stop once it is this far from where it was when the
    /// stop became its next (its driven metres count from there): beyond a fix's typical error
    /// (5–10 m), and what a car pulling away covers in its first few seconds.
    package static let setOffMeters = 30.0

    /// A vehicle standing this long within ``setOffMeters`` of one place stands still (it is
    /// parked, or waiting for a rider): its drive ends there and teaches the detour it drove
    /// (``DriveTravel``). Two minutes: longer than any red light (signal cycles run 60–120 s,
    /// the red only part of it), so a drive is not cut at every junction.
    package static let standstillSeconds = 120.0

    /// A leg teaches the area's detour only when its straight line is at least this long:
    /// on a shorter one the ratio says more about where the stop lies on its block than about
    /// how roundabout the area's roads are.
    package static let detourMinimumMeters = 500.0

    /// A leg whose driven metres are more than this many times its straight line was not a
    /// way to the stop (the driver ran an errand first, or the fixes wandered): not learnt.
    package static let detourMaximumFactor = 3.0

    /// How much the constant ``detourFactor`` weighs against the fleet's legs in the areas a
    /// line crosses, in metres of straight line: one urban leg's worth (1 km). A few legs
    /// through the areas outweigh it.
    package static let detourPriorMeters = 1_000.0

    /// The sums of what the fleet's legs show are scaled down to at most this much weight
    /// before a leg is added, so they follow the latest legs: 20 km of straight line for the
    /// detour (about twenty legs).
    package static func observationMemory(_ kind: AreaObservation.Kind) -> Double {
        switch kind {
        case .detour: 20_000
        }
    }

    // MARK: - The vehicle's own driving

    /// Two fixes further apart than this tell nothing about the road between them.
    package static let observationMaximumGapSeconds = 30.0

    /// Faster than this between two fixes is a GPS jump, not driving.
    package static let observationMaximumSpeed = 60.0

    /// Within this distance of its next stop a vehicle is arriving or waiting there: neither
    /// its own pace nor the road's is observed.
    package static let dwellMeters = 100.0

    /// How much the model weighs against the vehicle's own pace on a trip, in seconds of
    /// driving: after 5 minutes the two count the same.
    package static let ownPacePriorSeconds = 300.0

    /// Along a route, the vehicle's own pace changes the estimate only beyond this factor
    /// either way, and then by what lies beyond it (on a straight line it counts in full:
    /// ``TripPace/lineRatio``): within it, the difference is the roads and the traffic
    /// the vehicle happened to meet, which say little about the roads still ahead (on both
    /// recorded Fleet Engine logs, following it made the estimates worse). Beyond it, the
    /// vehicle is not what its type says (a bicycle registered as a car, a slow truck).
    package static let ownPaceDeadBand = 1.5

    /// The most the vehicle's own pace may scale the model's time, either way.
    package static let ownPaceMaximumFactor = 4.0
}
