// The navigation state a rider, dispatcher or small screen sees, as the Navigation SDK's
// `GMSNavigationNavInfo`. The steps are kept as the route's own (copy-on-write) array and
// an index, so making a NavInfo per location update costs the same on a route of 10 steps
// or 10,000; the remaining steps are only copied when read or encoded.

/// A snapshot of navigation: the next maneuver, what follows, and the time and distance
/// to it, to the next destination and to the final one.
public struct NavInfo: Hashable, Sendable {
    /// Whether the navigator is guiding, rerouting, or stopped.
    package var navState: NavState
    /// True in the first NavInfo after the route changed.
    package var routeChanged: Bool
    /// Metres along the route to the current step's maneuver.
    package var distanceToCurrentStepMeters: Double
    /// Seconds along the route to the current step's maneuver.
    package var timeToCurrentStepSeconds: Double
    /// Metres along the route to the next destination.
    package var distanceToNextDestinationMeters: Double
    /// Seconds along the route to the next destination.
    package var timeToNextDestinationSeconds: Double
    /// Metres along the route to the final destination.
    package var distanceToFinalDestinationMeters: Double
    /// Seconds along the route to the final destination.
    package var timeToFinalDestinationSeconds: Double
    /// Traffic delay on the way to the next destination.
    package var delayCategory: DelayCategory
    /// The colour scheme suited to the sun's position at the vehicle.
    package var suggestedLightingMode: LightingMode
    /// Percent above the speed limit (0 when not speeding), or -1 when unknown.
    package var speedingPercentage: Double
    /// The speed alert level.
    package var speedAlertSeverity: SpeedAlertSeverity
    /// The vehicle's speed at the last location update, m/s; nil when unknown.
    package var currentSpeedMetersPerSecond: Double?
    /// The posted speed limit where the vehicle is, km/h; nil when unknown (the route has no
    /// limit there, or the vehicle is off the route).
    package var currentSpeedLimitKph: Double?

    /// The route's steps (shared storage).
    var steps: [StepInfo]
    /// Index in `steps` of the current step, nil when there is none.
    var currentStepIndex: Int?
    /// Index in `steps` of the first remaining step after the current one.
    var remainingStartIndex: Int
    /// Remaining steps left out of `steps` by ``limitingRemainingSteps(to:)``.
    var omittedRemainingSteps = 0

    /// The upcoming maneuver's step; nil while rerouting or stopped.
    package var currentStep: StepInfo? {
        guard let currentStepIndex else { return nil }
        return steps[currentStepIndex]
    }

    /// The steps after the current one, in order (the first few only, in a NavInfo made by
    /// ``limitingRemainingSteps(to:)``).
    package var remainingSteps: ArraySlice<StepInfo> {
        steps[min(remainingStartIndex, steps.count)...]
    }

    /// How many steps follow the current one, including any left out of ``remainingSteps``.
    package var remainingStepCount: Int { remainingSteps.count + omittedRemainingSteps }

    /// This NavInfo with at most `limit` remaining steps listed (``remainingStepCount`` still
    /// counts them all): for event streams, where sending every remaining step of a long
    /// route on every update would cost more than the rest of the event.
    package func limitingRemainingSteps(to limit: Int) -> NavInfo {
        let kept = min(max(0, limit), remainingSteps.count)
        guard kept < remainingSteps.count else { return self }
        var copy = self
        let start = min(remainingStartIndex, steps.count)
        if let currentStepIndex {
            copy.steps = [steps[currentStepIndex]] + steps[start..<(start + kept)]
            copy.currentStepIndex = 0
            copy.remainingStartIndex = 1
        } else {
            copy.steps = Array(steps[start..<(start + kept)])
            copy.remainingStartIndex = 0
        }
        copy.omittedRemainingSteps = omittedRemainingSteps + remainingSteps.count - kept
        return copy
    }

    /// Creates a NavInfo from its parts.
    package init(
        navState: NavState,
        currentStep: StepInfo? = nil,
        remainingSteps: [StepInfo] = [],
        routeChanged: Bool = false,
        distanceToCurrentStepMeters: Double = 0,
        timeToCurrentStepSeconds: Double = 0,
        distanceToNextDestinationMeters: Double = 0,
        timeToNextDestinationSeconds: Double = 0,
        distanceToFinalDestinationMeters: Double = 0,
        timeToFinalDestinationSeconds: Double = 0,
        delayCategory: DelayCategory = .noData,
        suggestedLightingMode: LightingMode = .normal,
        speedingPercentage: Double = -1,
        speedAlertSeverity: SpeedAlertSeverity = .none,
        currentSpeedMetersPerSecond: Double? = nil,
        currentSpeedLimitKph: Double? = nil
    ) {
        if let currentStep {
            steps = [currentStep] + remainingSteps
            currentStepIndex = 0
            remainingStartIndex = 1
        } else {
            steps = remainingSteps
            currentStepIndex = nil
            remainingStartIndex = 0
        }
        self.navState = navState
        self.routeChanged = routeChanged
        self.distanceToCurrentStepMeters = distanceToCurrentStepMeters
        self.timeToCurrentStepSeconds = timeToCurrentStepSeconds
        self.distanceToNextDestinationMeters = distanceToNextDestinationMeters
        self.timeToNextDestinationSeconds = timeToNextDestinationSeconds
        self.distanceToFinalDestinationMeters = distanceToFinalDestinationMeters
        self.timeToFinalDestinationSeconds = timeToFinalDestinationSeconds
        self.delayCategory = delayCategory
        self.suggestedLightingMode = suggestedLightingMode
        self.speedingPercentage = speedingPercentage
        self.speedAlertSeverity = speedAlertSeverity
        self.currentSpeedMetersPerSecond = currentSpeedMetersPerSecond
        self.currentSpeedLimitKph = currentSpeedLimitKph
    }

    /// Creates a NavInfo that points into a route's steps without copying them.
    init(navState: NavState, steps: [StepInfo], currentStepIndex: Int?, remainingStartIndex: Int) {
        self.navState = navState
        self.steps = steps
        self.currentStepIndex = currentStepIndex
        self.remainingStartIndex = remainingStartIndex
        routeChanged = false
        distanceToCurrentStepMeters = 0
        timeToCurrentStepSeconds = 0
        distanceToNextDestinationMeters = 0
        timeToNextDestinationSeconds = 0
        distanceToFinalDestinationMeters = 0
        timeToFinalDestinationSeconds = 0
        delayCategory = .noData
        suggestedLightingMode = .normal
        speedingPercentage = -1
        speedAlertSeverity = .none
    }

    /// Two NavInfos are equal when everything a reader sees is equal.
    public static func == (a: NavInfo, b: NavInfo) -> Bool {
        a.navState == b.navState && a.routeChanged == b.routeChanged
            && a.distanceToCurrentStepMeters == b.distanceToCurrentStepMeters
            && a.timeToCurrentStepSeconds == b.timeToCurrentStepSeconds
            && a.distanceToNextDestinationMeters == b.distanceToNextDestinationMeters
            && a.timeToNextDestinationSeconds == b.timeToNextDestinationSeconds
            && a.distanceToFinalDestinationMeters == b.distanceToFinalDestinationMeters
            && a.timeToFinalDestinationSeconds == b.timeToFinalDestinationSeconds
            && a.delayCategory == b.delayCategory && a.suggestedLightingMode == b.suggestedLightingMode
            && a.speedingPercentage == b.speedingPercentage && a.speedAlertSeverity == b.speedAlertSeverity
            && a.currentSpeedMetersPerSecond == b.currentSpeedMetersPerSecond
            && a.currentSpeedLimitKph == b.currentSpeedLimitKph
            && a.currentStep == b.currentStep && a.remainingSteps.elementsEqual(b.remainingSteps)
            && a.omittedRemainingSteps == b.omittedRemainingSteps
    }

    /// Hashes what a reader sees first; equal NavInfos hash equally.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(navState)
        hasher.combine(currentStep)
        hasher.combine(distanceToFinalDestinationMeters)
        hasher.combine(remainingSteps.count)
    }
}

extension NavInfo: Codable {
    private enum CodingKeys: String, CodingKey {
        case navState, currentStep, remainingSteps, remainingStepCount, routeChanged
        case distanceToCurrentStepMeters, timeToCurrentStepSeconds
        case distanceToNextDestinationMeters, timeToNextDestinationSeconds
        case distanceToFinalDestinationMeters, timeToFinalDestinationSeconds
        case delayCategory, suggestedLightingMode, speedingPercentage, speedAlertSeverity
        case currentSpeedMetersPerSecond, currentSpeedLimitKph
    }

    /// Encodes the NavInfo with `currentStep` and the `remainingSteps` array, as DESIGN §8,
    /// and `remainingStepCount`; an unknown speed or speed limit is left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(navState, forKey: .navState)
        try c.encodeIfPresent(currentStep, forKey: .currentStep)
        try c.encode(Array(remainingSteps), forKey: .remainingSteps)
        try c.encode(remainingStepCount, forKey: .remainingStepCount)
        try c.encode(routeChanged, forKey: .routeChanged)
        try c.encode(distanceToCurrentStepMeters, forKey: .distanceToCurrentStepMeters)
        try c.encode(timeToCurrentStepSeconds, forKey: .timeToCurrentStepSeconds)
        try c.encode(distanceToNextDestinationMeters, forKey: .distanceToNextDestinationMeters)
        try c.encode(timeToNextDestinationSeconds, forKey: .timeToNextDestinationSeconds)
        try c.encode(distanceToFinalDestinationMeters, forKey: .distanceToFinalDestinationMeters)
        try c.encode(timeToFinalDestinationSeconds, forKey: .timeToFinalDestinationSeconds)
        try c.encode(delayCategory, forKey: .delayCategory)
        try c.encode(suggestedLightingMode, forKey: .suggestedLightingMode)
        try c.encode(speedingPercentage, forKey: .speedingPercentage)
        try c.encode(speedAlertSeverity, forKey: .speedAlertSeverity)
        try c.encodeIfPresent(currentSpeedMetersPerSecond, forKey: .currentSpeedMetersPerSecond)
        try c.encodeIfPresent(currentSpeedLimitKph, forKey: .currentSpeedLimitKph)
    }

    /// Decodes a NavInfo written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(container: c)
        if let count = try c.decodeIfPresent(Int.self, forKey: .remainingStepCount) {
            omittedRemainingSteps = max(0, count - remainingSteps.count)
        }
    }

    private init(container c: KeyedDecodingContainer<CodingKeys>) throws {
        self.init(
            navState: try c.decode(NavState.self, forKey: .navState),
            currentStep: try c.decodeIfPresent(StepInfo.self, forKey: .currentStep),
            remainingSteps: try c.decodeIfPresent([StepInfo].self, forKey: .remainingSteps) ?? [],
            routeChanged: try c.decodeIfPresent(Bool.self, forKey: .routeChanged) ?? false,
            distanceToCurrentStepMeters: try c.decode(Double.self, forKey: .distanceToCurrentStepMeters),
            timeToCurrentStepSeconds: try c.decode(Double.self, forKey: .timeToCurrentStepSeconds),
            distanceToNextDestinationMeters: try c.decode(Double.self, forKey: .distanceToNextDestinationMeters),
            timeToNextDestinationSeconds: try c.decode(Double.self, forKey: .timeToNextDestinationSeconds),
            distanceToFinalDestinationMeters: try c.decode(Double.self, forKey: .distanceToFinalDestinationMeters),
            timeToFinalDestinationSeconds: try c.decode(Double.self, forKey: .timeToFinalDestinationSeconds),
            delayCategory: try c.decode(DelayCategory.self, forKey: .delayCategory),
            suggestedLightingMode: try c.decode(LightingMode.self, forKey: .suggestedLightingMode),
            speedingPercentage: try c.decode(Double.self, forKey: .speedingPercentage),
            speedAlertSeverity: try c.decode(SpeedAlertSeverity.self, forKey: .speedAlertSeverity),
            currentSpeedMetersPerSecond: try c.decodeIfPresent(Double.self, forKey: .currentSpeedMetersPerSecond),
            currentSpeedLimitKph: try c.decodeIfPresent(Double.self, forKey: .currentSpeedLimitKph))
    }
}
