// Follows a moving location along a route. Each update searches only a window of the route
// around the previous position — mostly ahead of it, since vehicles move forward — so an
// update costs the same on a 100-point and a 100,000-point route. When nothing in the window
// is near enough (a GPS jump, a detour, a route shortcut), the re-acquire policy decides
// whether to search the whole route.

/// Incremental projection of successive locations onto one polyline.
public struct PolylineTracker: Sendable {
    /// What to do when the best match inside the window is too far from the location.
    public enum ReacquirePolicy: Sendable, Hashable {
        /// Search the whole line when the window's best match is more than this many metres
        /// from the location, and take the nearer of the two answers.
        case fullSearch(beyondMeters: Double)
        /// Never look outside the window: positions only move continuously along the line.
        case never
    }

    /// The search window and the re-acquire policy.
    public struct Configuration: Sendable, Hashable {
        /// Metres of line searched behind the previous position (GPS noise moves it back).
        package var behindMeters: Double
        /// Metres of line searched ahead of the previous position: at least the distance a
        /// vehicle covers between two updates.
        package var aheadMeters: Double
        /// Metres of distance that each metre of moving backwards along the line costs, so that
        /// where the line passes a place twice the tracker keeps to the pass it is on (see
        /// ``PolylineMeasure/project(_:near:behind:ahead:backtrackPenalty:)``).
        package var backtrackPenalty: Double
        /// What to do when the window holds no match near enough.
        package var reacquire: ReacquirePolicy

        /// Creates a configuration; the defaults suit a car reporting every few seconds.
        public init(
            behindMeters: Double = 50, aheadMeters: Double = 500, backtrackPenalty: Double = 0.5,
            reacquire: ReacquirePolicy = .fullSearch(beyondMeters: 50)
        ) {
            self.behindMeters = behindMeters
            self.aheadMeters = aheadMeters
            self.backtrackPenalty = backtrackPenalty
            self.reacquire = reacquire
        }
    }

    /// The line being followed.
    public let measure: PolylineMeasure
    /// The window and re-acquire policy; may be changed between updates.
    public var configuration: Configuration
    /// The answer to the last update, nil before the first one.
    package private(set) var lastProjection: PolylineProjection?
    /// How many updates searched the whole line (the first one always does, unless a starting
    /// distance was given); useful to see how often a vehicle is re-acquired.
    package private(set) var fullSearchCount = 0
    /// Whether a window's search ran to an end of ``measure`` where that is a stretch of a
    /// longer line (``PolylineMeasure/projectOnStretch(_:near:behind:ahead:backtrackPenalty:)``):
    /// the whole line might have given another answer.
    package private(set) var ranOffStretch = false

    /// Whether every answer so far is the one the whole line would give: on a stretch, only
    /// where no search ran off it and none searched the whole stretch (``fullSearchCount``).
    package var answersAsWholeLine: Bool { measure.isWholeLine || (!ranOffStretch && fullSearchCount == 0) }

    /// Starts following `measure`; with `startDistance` the first update searches the window
    /// around that distance instead of the whole line.
    public init(measure: PolylineMeasure, configuration: Configuration = Configuration(), startDistance: Double? = nil) {
        self.measure = measure
        self.configuration = configuration
        if let startDistance {
            let clamped = measure.point(atDistance: startDistance)
            let start = measure.projectOnStretch(clamped, near: startDistance, behind: 0, ahead: 0)
            lastProjection = start.projection
            ranOffStretch = !start.sameOnWholeLine
        }
    }

    /// Projects the next location, searching around the previous answer.
    public mutating func update(_ p: LatLng) -> PolylineProjection {
        guard let previous = lastProjection else {
            fullSearchCount += 1
            let result = measure.project(p)
            lastProjection = result
            return result
        }
        let windowed = measure.projectOnStretch(
            p, near: previous.distanceAlongMeters,
            behind: configuration.behindMeters, ahead: configuration.aheadMeters,
            backtrackPenalty: configuration.backtrackPenalty)
        var result = windowed.projection
        if !windowed.sameOnWholeLine { ranOffStretch = true }
        if case .fullSearch(let beyond) = configuration.reacquire, !(result.crossTrackMeters <= beyond) {
            fullSearchCount += 1
            let global = measure.project(p)
            if global.crossTrackMeters < result.crossTrackMeters { result = global }
        }
        lastProjection = result
        return result
    }

    /// Forgets the previous position: the next update searches the whole line.
    package mutating func reset() {
        lastProjection = nil
    }
}
