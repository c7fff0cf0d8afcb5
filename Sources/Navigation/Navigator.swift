// The server-side navigator: a pure state machine that turns a route and a stream of
// location updates into the Navigation SDK's NavInfo and listener events. No I/O, no
// clock: every input carries its time, every output is returned. The state is Codable so
// the store can persist it after each update and a restarted server resumes mid-route.
//
// Cost per update is independent of route length: the route's distances and times are
// cumulative tables (one subtraction answers "how far/long to X"), the step and
// destination cursors only move forward, and a location is snapped by projecting it onto
// the segments in a window just ahead of the last position. Only when the vehicle is lost
// does the search widen, and only right after a new route (or, while rerouting, on every
// 32nd update) does it scan the whole route.

import Foundation
import Geo

/// Guides one vehicle along its route, one location update at a time.
public struct Navigator: Sendable {
    /// Thresholds in force; change them at any time.
    public var settings: NavigatorSettings
    /// The route being followed, if any.
    public internal(set) var route: NavRoute?
    /// The latest navigation state.
    public internal(set) var navInfo: NavInfo

    var prepared: Prepared?
    var state: State

    /// Tables derived from the route; rebuilt, not stored.
    struct Prepared: Sendable {
        var measure: RouteMeasure
        /// Metres from the start to each step's maneuver.
        var maneuverMeters: [Double]
        /// Metres from the start to each destination.
        var destinationMeters: [Double]
        /// Each destination's leg: the route from the previous destination (or the start) to
        /// it, thinned as a `currentRouteSegment` is (NavRoute+Legs).
        var legPaths: [[LatLng]]

        /// Validates `route` and builds its tables.
        init(route: NavRoute, settings: NavigatorSettings) throws(NavRouteError) {
            let measure = try RouteMeasure(route: route, defaultSpeed: settings.defaultSpeedMetersPerSecond)
            self.measure = measure
            maneuverMeters = route.steps.map { measure.meters[$0.polylineEndIndex] }
            destinationMeters = route.destinations.map { measure.meters[$0.polylinePointIndex] }
            legPaths = route.destinations.indices.map { route.legPoints($0, points: measure.line.points) }
        }
    }

    /// Everything that changes as the vehicle moves.
    struct State: Hashable, Codable, Sendable {
        var progress = RouteMeasure.Position.start
        var navState = NavState.stopped
        var needsFullScan = true
        var offRouteUpdates = 0
        var stepIndex = 0
        var nextDestination = 0
        var arrivedDestinationIndex: Int?
        var jumpFilter: JumpFilter
        var lastTime: Date?
        var lastLocation: LatLng?
        var routeChanged = false
        var emittedTimeSeconds: Double?
        var emittedDistanceMeters: Double?
        var emittedDestination: Int?
        var delayCategory = DelayCategory.noData
        var lightingMode: LightingMode?
        var speedingPercentage = -1.0
        var speedAlertSeverity = SpeedAlertSeverity.none
        var emittedNavInfo: NavInfoMark?
        /// The speed at the last accepted update, m/s (optional, so states saved before it
        /// existed still decode).
        var speedMetersPerSecond: Double?
    }

    /// The parts of the last emitted NavInfo that decide whether a new one is news.
    struct NavInfoMark: Hashable, Codable, Sendable {
        var navState: NavState
        var stepIndex: Int
        var distanceToCurrentStepMeters: Double
        var timeToCurrentStepSeconds: Double
        var delayCategory: DelayCategory
        var lightingMode: LightingMode
        var speedingPercentage: Double
        var speedAlertSeverity: SpeedAlertSeverity
        /// The limit shown; a new limit is news, a new speed alone is not (every location
        /// update carries the speed already).
        var speedLimitKph: Double?
    }

    /// Creates a navigator with no route (`stopped`).
    public init(settings: NavigatorSettings = NavigatorSettings()) {
        self.settings = settings
        state = State(jumpFilter: JumpFilter(settings: settings.jumpFilter))
        navInfo = NavInfo(navState: .stopped)
    }

    /// Index of the last destination reached since the route was set, if any: while it is
    /// the latest news, the vehicle's navigation status is `ARRIVED_AT_DESTINATION`.
    package var arrivedDestinationIndex: Int? { state.arrivedDestinationIndex }

    /// What the GPS jump filter has done so far.
    package var jumpFilterStatistics: JumpFilter.Statistics { state.jumpFilter.statistics }

    /// The last snapped (or, off the route, accepted raw) location.
    public var lastLocation: LatLng? { state.lastLocation }

    // MARK: - Route

    /// Sets a new route (`navigatorDidChangeRoute`); the vehicle is looked for on the whole
    /// route at its next update. Throws, and keeps the old route, when the route is invalid.
    public mutating func setRoute(_ route: NavRoute, at time: Date) throws(NavRouteError) -> [NavEvent] {
        let prepared = try Prepared(route: route, settings: settings)
        let measure = prepared.measure
        self.prepared = prepared
        self.route = route
        var fresh = State(jumpFilter: state.jumpFilter)
        fresh.lastTime = state.lastTime
        fresh.lastLocation = state.lastLocation
        fresh.lightingMode = state.lightingMode
        fresh.navState = .enroute
        fresh.routeChanged = true
        state = fresh
        var events: [NavEvent] = [
            .navigatorDidChangeRoute(
                NavEvent.RouteChange(
                    stepCount: route.steps.count, destinationCount: route.destinations.count,
                    distanceMeters: measure.totalMeters, durationSeconds: measure.seconds[measure.seconds.count - 1]))
        ]
        state.delayCategory = delayCategory()
        events.append(.didUpdateDelayCategory(state.delayCategory))
        emitProgress(into: &events, force: true)
        return events
    }

    /// Ends guidance: no route, `stopped`.
    package mutating func clearRoute(at time: Date) -> [NavEvent] {
        route = nil
        prepared = nil
        state.navState = .stopped
        state.arrivedDestinationIndex = nil
        navInfo = NavInfo(navState: .stopped, suggestedLightingMode: state.lightingMode ?? .normal)
        return [.didUpdateNavInfo(navInfo)]
    }

    // MARK: - Updates

    /// Takes one location update and returns what changed, in order: the snapped
    /// location, arrivals, lighting mode, speeding, remaining time and distance (past their
    /// thresholds), delay category, and the NavInfo (when it is news). A fix the jump filter holds back
    /// or rejects returns nothing, and so does any update while there is no route or after
    /// the final destination. `heading` is in degrees, `accuracyMeters` the fix's
    /// horizontal accuracy.
    public mutating func update(
        location: LatLng, heading: Double?, speedMetersPerSecond: Double?, accuracyMeters: Double?, time: Date
    ) -> [NavEvent] {
        let verdict = state.jumpFilter.check(JumpFilter.Fix(location: location, time: time, accuracyMeters: accuracyMeters))
        guard verdict == .accepted || verdict == .relocated else { return [] }
        let dt = state.lastTime.map { max(0, time.timeIntervalSince($0)) } ?? 0
        var speed = speedMetersPerSecond.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        // How fast the vehicle must have gone since the last fix: the search ahead reaches at
        // least that far even when the fix reports a lower speed (a car stopped at its
        // destination after a long gap between reports says 0).
        let travelled = state.lastLocation.map { last in dt > 0 ? Earth.distance(last, location) / dt : 0 } ?? 0
        if speed == nil, state.lastLocation != nil, dt > 0 { speed = travelled }
        state.lastTime = time
        state.lastLocation = location
        state.speedMetersPerSecond = speed
        let light = SolarPosition.lightingMode(at: location, time: time)
        guard let route, let prepared, state.navState != .stopped else {
            state.lightingMode = light
            return []
        }
        let measure = prepared.measure
        var events: [NavEvent] = []

        // Snap: a window ahead normally; wider when lost or after a confirmed jump; the whole
        // route right after a route change and, while rerouting, now and then.
        let heading = heading.flatMap { $0.isFinite ? $0 : nil }
        var kind = SearchKind.window
        if state.needsFullScan || (state.navState == .rerouting && state.offRouteUpdates % 32 == 0) {
            kind = .whole
        } else if verdict == .relocated || state.navState == .rerouting {
            kind = .wide
        }
        let searchSpeed = max(speed ?? 0, travelled)
        var best = snap(location, heading: heading, speed: searchSpeed, dt: dt, accuracy: accuracyMeters ?? 0, kind: kind)
        if kind == .window, best.offsetMeters > offRouteLimit(at: best.position.meters) {
            let wide = snap(location, heading: heading, speed: searchSpeed, dt: dt, accuracy: accuracyMeters ?? 0, kind: .wide)
            if wide.offsetMeters < best.offsetMeters { best = wide }
        }
        let onRoute = best.offsetMeters <= offRouteLimit(at: best.position.meters)
        if onRoute {
            if state.navState == .rerouting || state.needsFullScan {
                state.progress = best.position
                state.navState = .enroute
            } else if best.position.meters > state.progress.meters {
                state.progress = best.position
            }
            state.needsFullScan = false
            state.offRouteUpdates = 0
        } else {
            state.needsFullScan = false
            state.offRouteUpdates += 1
            if state.offRouteUpdates >= settings.offRouteUpdates, state.navState == .enroute {
                state.navState = .rerouting
            }
        }
        moveStepCursor()

        let snapped = onRoute ? measure.location(at: state.progress) : location
        state.lastLocation = snapped
        events.append(
            .didUpdateLocation(
                NavEvent.SnappedLocation(
                    location: snapped, rawLocation: location,
                    heading: onRoute ? measure.bearing(segment: state.progress.segment) : heading,
                    speedMetersPerSecond: speed, isRoadSnapped: onRoute,
                    distanceAlongRouteMeters: onRoute ? state.progress.meters : nil)))

        // Arrivals, each destination once and in order.
        while state.nextDestination < route.destinations.count {
            let i = state.nextDestination
            let remaining = prepared.destinationMeters[i] - state.progress.meters
            let straight = Earth.distance(location, route.destinations[i].location)
            let radius = settings.arrivalRadiusMeters
            guard (onRoute && remaining <= radius) || (straight <= radius && remaining <= 5 * radius) else { break }
            let isFinal = i == route.destinations.count - 1
            events.append(
                .didArriveAtWaypoint(
                    NavEvent.WaypointArrival(
                        destinationIndex: i, location: route.destinations[i].location, isFinalDestination: isFinal)))
            state.arrivedDestinationIndex = i
            state.nextDestination += 1
            if isFinal { state.navState = .stopped }
        }

        state.delayCategory = delayCategory()
        if light != state.lightingMode {
            state.lightingMode = light
            events.append(.didChangeSuggestedLightingMode(light))
        }
        updateSpeeding(speed: speed, into: &events)
        emitProgress(into: &events, force: false)
        return events
    }

    // MARK: - Internals

    enum SearchKind { case window, wide, whole }

    /// The off-route distance at a place: tighter near a maneuver.
    func offRouteLimit(at meters: Double) -> Double {
        guard let prepared, !prepared.maneuverMeters.isEmpty else { return settings.offRouteDistanceMeters }
        let m = prepared.maneuverMeters
        var k = min(state.stepIndex, m.count - 1)
        while k + 1 < m.count && m[k] < meters { k += 1 }
        while k > 0 && m[k - 1] > meters { k -= 1 }
        let near =
            abs(m[k] - meters) <= settings.nearManeuverMeters
            || (k > 0 && abs(meters - m[k - 1]) <= settings.nearManeuverMeters)
        return near ? settings.offRouteDistanceNearManeuverMeters : settings.offRouteDistanceMeters
    }

    /// The best projection of a location onto the part of the route `kind` searches.
    func snap(
        _ location: LatLng, heading: Double?, speed: Double, dt: Double, accuracy: Double, kind: SearchKind
    ) -> RouteMeasure.Projection {
        guard let measure = prepared?.measure else {
            return RouteMeasure.Projection(position: .start, offsetMeters: .infinity, headingCosine: 1)
        }
        let progress = state.progress
        let expected = progress.meters + speed * dt
        var first = progress.segment
        var last = measure.segmentCount
        var aheadMeters = Double.infinity
        var alongWeight = 0.02
        switch kind {
        case .window:
            while first > 0, progress.segment - first < 8, progress.meters - measure.meters[first] < 30 { first -= 1 }
            aheadMeters = min(3_000, max(150, speed * dt * 2 + 3 * accuracy + 100))
            last = min(last, first + 256)
        case .wide:
            while first > 0, progress.segment - first < 1_024, progress.meters - measure.meters[first] < 500 { first -= 1 }
            aheadMeters = min(50_000, max(5_000, speed * dt * 3))
            last = min(last, first + 4_096)
        case .whole:
            first = 0
            alongWeight = 1e-6 // a tie-break towards the start, 1 m per 1,000 km
        }
        let limit = kind == .whole ? Double.infinity : progress.meters + aheadMeters
        let plane = LocalPlane(origin: location)
        var hx = 0.0
        var hy = 0.0
        if let heading, speed >= 2 {
            hx = sin(heading * .pi / 180)
            hy = cos(heading * .pi / 180)
        }
        var best = RouteMeasure.Projection(position: progress, offsetMeters: .infinity, headingCosine: 1)
        var bestScore = Double.infinity
        var i = first
        while i < last {
            if measure.meters[i] > limit { break }
            let p = measure.project(plane, headingX: hx, headingY: hy, segment: i)
            let along = kind == .whole ? p.position.meters : abs(p.position.meters - expected)
            let score = p.offsetMeters + 10 * (1 - p.headingCosine) + alongWeight * along
            if score < bestScore {
                bestScore = score
                best = p
            }
            i += 1
        }
        return best
    }

    /// Moves the current step to the first maneuver still ahead.
    mutating func moveStepCursor() {
        guard let m = prepared?.maneuverMeters, !m.isEmpty else { return }
        let here = state.progress.meters
        while state.stepIndex + 1 < m.count && m[state.stepIndex] <= here { state.stepIndex += 1 }
        while state.stepIndex > 0 && m[state.stepIndex - 1] > here { state.stepIndex -= 1 }
    }

    /// Traffic-aware over free-flow time to the next destination, when the route has both.
    func delayCategory() -> DelayCategory {
        guard let prepared, let route, let freeTable = prepared.measure.freeFlowSeconds else { return .noData }
        let measure = prepared.measure
        let i = min(state.nextDestination, route.destinations.count - 1)
        let point = route.destinations[i].polylinePointIndex
        let free = freeTable[point] - (measure.freeFlowSeconds(at: state.progress) ?? 0)
        guard free > 1 else { return state.delayCategory }
        return DelayCategory(ratio: (measure.seconds[point] - measure.seconds(at: state.progress)) / free)
    }

    /// Speeding against the limit where the vehicle is.
    mutating func updateSpeeding(speed: Double?, into events: inout [NavEvent]) {
        var percentage = -1.0
        var severity = SpeedAlertSeverity.none
        if let speed, let limit = prepared?.measure.speedLimitKph(at: state.progress), state.navState == .enroute {
            let kph = speed * 3.6
            percentage = max(0, (kph - limit) / limit * 100)
            if kph - limit > settings.majorSpeedAlertThresholdKph {
                severity = .major
            } else if kph - limit > settings.minorSpeedAlertThresholdKph {
                severity = .minor
            }
        }
        let old = state.speedingPercentage
        let changedClass = (old < 0) != (percentage < 0) || (old == 0) != (percentage == 0)
        if changedClass || abs(percentage - old) >= 1 {
            state.speedingPercentage = percentage
            events.append(.didUpdateSpeedingPercentage(percentage))
        }
        if severity != state.speedAlertSeverity {
            state.speedAlertSeverity = severity
            events.append(.didUpdateSpeedAlertSeverity(severity))
        }
    }

    /// Rebuilds `navInfo` and emits remaining time/distance (past their thresholds), the
    /// delay category when it changed, and the NavInfo when it is news.
    mutating func emitProgress(into events: inout [NavEvent], force: Bool) {
        let info = makeNavInfo()
        navInfo = info
        // A value is news when it moved by the threshold since it was last sent, or when
        // it now measures to another destination.
        let renew = force || state.emittedDestination != state.nextDestination
        func moved(_ value: Double, _ last: Double?, _ threshold: Double) -> Bool {
            renew || last.map { abs(value - $0) >= threshold } ?? true
        }
        if moved(info.timeToNextDestinationSeconds, state.emittedTimeSeconds, settings.timeUpdateThreshold) {
            state.emittedTimeSeconds = info.timeToNextDestinationSeconds
            events.append(
                .didUpdateRemainingTime(
                    NavEvent.RemainingTime(
                        timeToNextDestinationSeconds: info.timeToNextDestinationSeconds,
                        timeToFinalDestinationSeconds: info.timeToFinalDestinationSeconds)))
        }
        if moved(info.distanceToNextDestinationMeters, state.emittedDistanceMeters, settings.distanceUpdateThreshold) {
            state.emittedDistanceMeters = info.distanceToNextDestinationMeters
            events.append(
                .didUpdateRemainingDistance(
                    NavEvent.RemainingDistance(
                        distanceToNextDestinationMeters: info.distanceToNextDestinationMeters,
                        distanceToFinalDestinationMeters: info.distanceToFinalDestinationMeters)))
        }
        state.emittedDestination = state.nextDestination
        let mark = NavInfoMark(
            navState: info.navState, stepIndex: state.stepIndex,
            distanceToCurrentStepMeters: info.distanceToCurrentStepMeters,
            timeToCurrentStepSeconds: info.timeToCurrentStepSeconds, delayCategory: info.delayCategory,
            lightingMode: info.suggestedLightingMode, speedingPercentage: info.speedingPercentage,
            speedAlertSeverity: info.speedAlertSeverity, speedLimitKph: info.currentSpeedLimitKph)
        if let old = state.emittedNavInfo, !force, old.delayCategory != mark.delayCategory {
            events.append(.didUpdateDelayCategory(mark.delayCategory))
        }
        if force || isNews(mark) {
            state.emittedNavInfo = mark
            events.append(.didUpdateNavInfo(info))
            state.routeChanged = false
        }
    }

    private func isNews(_ mark: NavInfoMark) -> Bool {
        guard let old = state.emittedNavInfo else { return true }
        return old.navState != mark.navState || old.stepIndex != mark.stepIndex
            || old.delayCategory != mark.delayCategory || old.lightingMode != mark.lightingMode
            || old.speedAlertSeverity != mark.speedAlertSeverity
            || old.speedingPercentage != mark.speedingPercentage || old.speedLimitKph != mark.speedLimitKph
            || abs(old.distanceToCurrentStepMeters - mark.distanceToCurrentStepMeters) >= settings.distanceUpdateThreshold
            || abs(old.timeToCurrentStepSeconds - mark.timeToCurrentStepSeconds) >= settings.timeUpdateThreshold
    }

    /// The NavInfo for the current state.
    func makeNavInfo() -> NavInfo {
        guard let route, let prepared else {
            return NavInfo(navState: .stopped, suggestedLightingMode: state.lightingMode ?? .normal)
        }
        let steps = route.steps
        let enroute = state.navState == .enroute && !steps.isEmpty
        var info = NavInfo(
            navState: state.navState, steps: steps, currentStepIndex: enroute ? state.stepIndex : nil,
            remainingStartIndex: enroute ? state.stepIndex + 1 : steps.count)
        info.routeChanged = state.routeChanged
        info.delayCategory = state.delayCategory
        info.suggestedLightingMode = state.lightingMode ?? .normal
        info.speedingPercentage = state.speedingPercentage
        info.speedAlertSeverity = state.speedAlertSeverity
        info.currentSpeedMetersPerSecond = state.speedMetersPerSecond
        guard state.navState != .stopped else { return info }
        let measure = prepared.measure
        if state.navState == .enroute { info.currentSpeedLimitKph = measure.speedLimitKph(at: state.progress) }
        let here = state.progress.meters
        let now = measure.seconds(at: state.progress)
        if enroute {
            info.distanceToCurrentStepMeters = max(0, prepared.maneuverMeters[state.stepIndex] - here)
            info.timeToCurrentStepSeconds = max(0, measure.seconds[steps[state.stepIndex].polylineEndIndex] - now)
        }
        let next = min(state.nextDestination, route.destinations.count - 1)
        let nextPoint = route.destinations[next].polylinePointIndex
        info.distanceToNextDestinationMeters = max(0, measure.meters[nextPoint] - here)
        info.timeToNextDestinationSeconds = max(0, measure.seconds[nextPoint] - now)
        info.distanceToFinalDestinationMeters = max(0, measure.totalMeters - here)
        info.timeToFinalDestinationSeconds = max(0, measure.seconds[measure.seconds.count - 1] - now)
        return info
    }
}

extension Navigator: Codable {
    private enum CodingKeys: String, CodingKey {
        case settings, route, state
    }

    /// Encodes the settings, the route and the moving state (not the derived tables).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(settings, forKey: .settings)
        try c.encodeIfPresent(route, forKey: .route)
        try c.encode(state, forKey: .state)
    }

    /// Restores a navigator where it was; the route's tables are rebuilt.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let progress = Progress(
            settings: try c.decode(NavigatorSettings.self, forKey: .settings), state: try c.decode(State.self, forKey: .state))
        let route = try c.decodeIfPresent(NavRoute.self, forKey: .route)
        do {
            try self.init(route: route, progress: progress)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .route, in: c, debugDescription: error.description)
        }
    }
}
