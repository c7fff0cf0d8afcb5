// A navigator's thresholds, per vehicle and settable; the defaults are the issue's.

/// What a navigator reacts to and when it speaks.
public struct NavigatorSettings: Hashable, Codable, Sendable {
    /// Smallest change in time to the next destination that emits `didUpdateRemainingTime`, s.
    package var timeUpdateThreshold: Double
    /// Smallest change in distance to the next destination that emits
    /// `didUpdateRemainingDistance`, m.
    package var distanceUpdateThreshold: Double
    /// Speeding more than this over the limit is a minor alert, km/h.
    package var minorSpeedAlertThresholdKph: Double
    /// Speeding more than this over the limit is a major alert, km/h.
    package var majorSpeedAlertThresholdKph: Double
    /// Further than this from the route counts as off it, m.
    package var offRouteDistanceMeters: Double
    /// The off-route distance within `nearManeuverMeters` of a maneuver, m.
    package var offRouteDistanceNearManeuverMeters: Double
    /// How close to a maneuver the tighter off-route distance applies, m.
    package var nearManeuverMeters: Double
    /// Consecutive off-route updates before the navigator reroutes.
    package var offRouteUpdates: Int
    /// How close to a destination (along the route, or in a straight line) counts as there, m.
    package var arrivalRadiusMeters: Double
    /// Speed used to time a route that carries no durations, m/s.
    package var defaultSpeedMetersPerSecond: Double
    /// The GPS jump filter's limits.
    package var jumpFilter: JumpFilter.Settings

    /// Creates settings; the defaults are 1 s, 1 m, +10 / +20 km/h, 50 m / 25 m within
    /// 40 m of a maneuver for 3 updates, 40 m arrival radius, 50 km/h for untimed routes.
    public init(
        timeUpdateThreshold: Double = 1,
        distanceUpdateThreshold: Double = 1,
        minorSpeedAlertThresholdKph: Double = 10,
        majorSpeedAlertThresholdKph: Double = 20,
        offRouteDistanceMeters: Double = 50,
        offRouteDistanceNearManeuverMeters: Double = 25,
        nearManeuverMeters: Double = 40,
        offRouteUpdates: Int = 3,
        arrivalRadiusMeters: Double = 40,
        defaultSpeedMetersPerSecond: Double = 50 / 3.6,
        jumpFilter: JumpFilter.Settings = JumpFilter.Settings()
    ) {
        self.timeUpdateThreshold = timeUpdateThreshold
        self.distanceUpdateThreshold = distanceUpdateThreshold
        self.minorSpeedAlertThresholdKph = minorSpeedAlertThresholdKph
        self.majorSpeedAlertThresholdKph = majorSpeedAlertThresholdKph
        self.offRouteDistanceMeters = offRouteDistanceMeters
        self.offRouteDistanceNearManeuverMeters = offRouteDistanceNearManeuverMeters
        self.nearManeuverMeters = nearManeuverMeters
        self.offRouteUpdates = offRouteUpdates
        self.arrivalRadiusMeters = arrivalRadiusMeters
        self.defaultSpeedMetersPerSecond = defaultSpeedMetersPerSecond
        self.jumpFilter = jumpFilter
    }
}
