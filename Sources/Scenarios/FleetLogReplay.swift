import Foundation
import Geo
import JSON
import TripModel

/// Replays a Fleet Engine log through the REST API (its ``FleetLogCalls``, the one path from
/// a log to calls), call by call in time order, and checks
/// after each call that every rider's JOURNEY_SHARING_V1S view is consistent with what was
/// sent: trip status, vehicle position, stops (against Fleet Engine's own responses where the
/// log has them) and versions. Optionally strips the driver's remaining distance and time
/// from the updates and measures our estimates against them.
package struct FleetLogReplay: Sendable {
    /// How to replay.
    package struct Options: Sendable {
        /// Remove `remainingDistanceMeters`/`remainingTimeSeconds` from vehicle updates and
        /// compare our estimates with the values removed.
        package var withoutDriverEstimates: Bool
        /// Read every trip's view after every call (the consistency checks).
        package var checkViews: Bool
        /// Score our remaining time and the driver's against the real arrivals (``Report/score``).
        package var score: Bool

        /// Creates options.
        package init(withoutDriverEstimates: Bool = false, checkViews: Bool = true, score: Bool = false) {
            self.withoutDriverEstimates = withoutDriverEstimates
            self.checkViews = checkViews
            self.score = score
        }
    }

    /// Distribution of absolute differences between our values and the driver's.
    package struct ErrorDistribution: Codable, Sendable {
        /// Updates compared.
        package var count: Int
        package var median: Double
        package var p90: Double
        package var maximum: Double
        /// Share of updates within the tolerance (distance: 2% or 20 m, whichever is larger).
        package var withinTolerance: Double?
    }

    /// What the replay did and found.
    package struct Report: Codable, Sendable {
        /// API calls sent (including synthesized vehicle creations).
        package var calls: Int
        /// View checks made.
        package var checks: Int
        /// Vehicles the log never creates, created from their first logged state.
        package var synthesizedVehicles: [String]
        /// Everything that did not match, in order; empty when the replay is consistent.
        package var failures: [String]
        /// Remaining distance: ours against the driver's (metres), when compared.
        package var remainingDistance: ErrorDistribution?
        /// Remaining time: ours against the driver's (seconds), when compared.
        package var remainingTime: ErrorDistribution?
        /// Every location update inside a leg and every update compared with the driver's, in
        /// log order, for plotting where the estimates go wrong.
        package var estimates: [EstimateSample] = []
        /// Our remaining time and the driver's against the real arrivals, when asked for.
        package var score: EstimateScore?
    }

    /// One vehicle update inside a leg, or where our estimates were compared with the driver's.
    package struct EstimateSample: Codable, Sendable {
        /// The log time of the update.
        package var time: Timestamp
        /// The vehicle updated.
        package var vehicleId: String
        /// The leg it lies in (index into ``EstimateScore/legs``); nil outside legs.
        package var leg: Int?
        /// Seconds from the update to the real arrival; nil outside legs.
        package var actualSeconds: Double?
        /// Remaining distance in metres: ours and the driver's (nil where either is missing).
        package var distance: Double?
        package var driverDistance: Double?
        /// Remaining time in seconds: ours and the driver's (nil where either is missing).
        package var timeSeconds: Double?
        package var driverTimeSeconds: Double?
        /// Which way ours were made.
        package var method: EstimateMethod?
        /// What ours rested on: whether the basemap covered the way, the detour and where it
        /// came from, standing time.
        package var basis: EstimateBasis?
    }

    let log: FleetLog
    let transport: any APITransport
    let serverToken: String
    let consumerToken: @Sendable (_ provider: String, _ tripId: String) async throws -> String

    /// Creates a replay of `log` over `transport`, writing with `serverToken` (one for every
    /// provider of the log) and reading each trip with the consumer token
    /// `consumerToken(provider, tripId)` returns.
    package init(
        log: FleetLog, transport: any APITransport, serverToken: String,
        consumerToken: @escaping @Sendable (_ provider: String, _ tripId: String) async throws -> String
    ) {
        self.log = log
        self.transport = transport
        self.serverToken = serverToken
        self.consumerToken = consumerToken
    }

    private struct TripState {
        var provider: String
        var status: TripStatus
        var vehicleId: String?
        var token: String
        var version: Timestamp?
        var stops: [TripWaypoint] = []
    }

    /// Runs the replay.
    package func run(_ options: Options = Options(), progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Report {
        let plan = try FleetLogCalls(log: log)
        var report = Report(
            calls: 0, checks: 0, synthesizedVehicles: plan.report.synthesizedVehicles, failures: [],
            remainingDistance: nil, remainingTime: nil)
        let legs = FleetLogLegs(calls: plan.calls)
        var scored: [EstimateScore.Sample] = []
        var trips: [String: TripState] = [:]
        var tripOrder: [String] = []
        var vehicleLocations: [String: LatLng] = [:]
        var distanceErrors: [(ours: Double, driver: Double)] = []
        var timeErrors: [(ours: Double, driver: Double)] = []

        for (index, original) in plan.calls.enumerated() {
            progress?(index, plan.calls.count)
            var call = original
            let label = "call \(index + 1) (\(call.time))"
            let driverDistance = call.vehicle?.remainingDistanceMeters
            let driverTime = call.vehicle?.remainingTimeSeconds
            if call.kind == .updateVehicle, options.withoutDriverEstimates, let mask = call.updateMask {
                call.vehicle?.remainingDistanceMeters = nil
                call.vehicle?.remainingTimeSeconds = nil
                call.updateMask = FieldMask(fields: mask.fields.filter { $0 != "remainingDistanceMeters" && $0 != "remainingTimeSeconds" })
            }
            let answer = try await send(call, &report, label)
            switch call.kind {
            case .createVehicle:
                if !call.isSynthesized, let location = call.vehicle?.lastLocation?.location { vehicleLocations[call.id] = location }
            case .updateVehicle:
                if call.updateMask?.contains("lastLocation") == true, let location = call.vehicle?.lastLocation?.location {
                    vehicleLocations[call.id] = location
                }
                // Compare only while Fleet Engine had the vehicle on a trip: afterwards the
                // driver app keeps sending a stale remaining distance.
                let onTrip: Bool
                if case .array(let current)? = call.response?["currentTrips"] { onTrip = !current.isEmpty } else { onTrip = false }
                let leg = legs.leg(ofCall: index)
                guard onTrip || leg != nil else { break }
                let ours = answer.flatMap { try? JSONCoding.decode(Vehicle.self, from: $0, root: "vehicle") }
                let actual = leg.map { legs.legs[$0].arrival.seconds(since: call.time) }
                if onTrip, let ours {
                    if let driver = driverDistance, let mine = ours.remainingDistanceMeters {
                        distanceErrors.append((Double(mine), Double(driver)))
                    }
                    if let driver = driverTime, let mine = ours.remainingTimeSeconds { timeErrors.append((Double(mine), Double(driver))) }
                }
                if let leg, let actual {
                    scored.append(
                        EstimateScore.Sample(
                            leg: leg, actualSeconds: actual, ours: ours?.remainingTimeSeconds.map(Double.init),
                            driver: driverTime.map(Double.init)))
                }
                if leg != nil || (ours != nil && (driverDistance != nil || driverTime != nil)) {
                    report.estimates.append(
                        EstimateSample(
                            time: call.time, vehicleId: call.id, leg: leg, actualSeconds: actual,
                            distance: ours?.remainingDistanceMeters.map(Double.init), driverDistance: driverDistance.map(Double.init),
                            timeSeconds: ours?.remainingTimeSeconds.map(Double.init), driverTimeSeconds: driverTime.map(Double.init),
                            method: ours?.estimateMethod, basis: ours?.estimateBasis))
                }
            case .createTrip:
                if answer != nil {
                    trips[call.id] = TripState(
                        provider: call.provider, status: .new, vehicleId: call.trip?.vehicleId,
                        token: try await consumerToken(call.provider, call.id))
                    tripOrder.append(call.id)
                }
            case .updateTrip:
                if answer != nil, let trip = call.trip, let mask = call.updateMask {
                    if mask.contains("tripStatus") { trips[call.id]?.status = trip.tripStatus }
                    if mask.contains("vehicleId") { trips[call.id]?.vehicleId = trip.vehicleId }
                }
            }
            // A vehicle made up before the call that needs it is not checked on its own.
            guard options.checkViews, !call.isSynthesized else { continue }
            for id in tripOrder {
                guard var state = trips[id] else { continue }
                try await check(id, &state, call: call, vehicleLocations: vehicleLocations, &report, label)
                trips[id] = state
            }
        }
        progress?(plan.calls.count, plan.calls.count)
        if !distanceErrors.isEmpty {
            report.remainingDistance = Self.distribution(distanceErrors) { ours, driver in abs(ours - driver) <= max(20, 0.02 * driver) }
        }
        if !timeErrors.isEmpty { report.remainingTime = Self.distribution(timeErrors, tolerance: nil) }
        if options.score { report.score = EstimateScore(legs: legs.legs, samples: scored) }
        return report
    }

    /// Checks one trip's rider view after a call.
    private func check(
        _ id: String, _ state: inout TripState, call: FleetLogCalls.Call, vehicleLocations: [String: LatLng],
        _ report: inout Report, _ label: String
    ) async throws {
        let (status, body) = try await transport.send(
            method: "GET", path: "/v1/providers/\(Self.escape(state.provider))/trips/\(Self.escape(id))?view=JOURNEY_SHARING_V1S",
            body: nil, token: state.token)
        report.checks += 1
        guard status == 200 else {
            report.failures.append("\(label): GET trip \(id) answered \(status): \(String(decoding: body, as: UTF8.self))")
            return
        }
        let view: Trip
        do { view = try JSONCoding.decode(Trip.self, from: body, root: "trip") } catch {
            report.failures.append("\(label): trip \(id) view does not decode: \(error)")
            return
        }
        if view.tripStatus != state.status {
            report.failures.append("\(label): trip \(id) is \(view.tripStatus.rawValue), the log says \(state.status.rawValue)")
        }
        if view.view != .journeySharingV1S || view.currentRouteSegment != nil || !view.route.isEmpty || !view.attributes.isEmpty {
            report.failures.append("\(label): trip \(id) view shows fields outside JOURNEY_SHARING_V1S")
        }
        let live = !state.status.isTerminal
        if live, let vehicleId = state.vehicleId, let sent = vehicleLocations[vehicleId], view.lastLocation?.location != sent {
            let shown = view.lastLocation?.location.map(\.description) ?? "nowhere"
            report.failures.append("\(label): trip \(id) shows the vehicle at \(shown), last sent \(sent)")
        }
        if !live && !view.remainingWaypoints.isEmpty {
            report.failures.append("\(label): finished trip \(id) still has remaining waypoints")
        }
        // Versions: never back, and moved exactly when the stops changed.
        let stops = view.remainingWaypoints.map(\.stop)
        if let old = state.version, let new = view.remainingWaypointsVersion {
            if new < old { report.failures.append("\(label): trip \(id) remainingWaypointsVersion went back from \(old) to \(new)") }
            if (stops != state.stops) != (new != old) {
                let what = new != old ? "moved without" : "stayed despite"
                report.failures.append("\(label): trip \(id) remainingWaypointsVersion \(what) a change of stops")
            }
        }
        state.version = view.remainingWaypointsVersion ?? state.version
        state.stops = stops
        // Against Fleet Engine's own answer to this call, where it is this trip's.
        if call.kind == .updateTrip, call.id == id, case .array(let logged)? = call.response?["remainingWaypoints"] {
            let theirs = logged.compactMap { waypoint -> LatLng? in
                guard case .number(let lat, _)? = waypoint["location"]?["point"]?["latitude"],
                    case .number(let lng, _)? = waypoint["location"]?["point"]?["longitude"]
                else { return nil }
                return LatLng(latitude: lat, longitude: lng)
            }
            let ours = view.remainingWaypoints.compactMap { $0.location?.point }
            if theirs.count != ours.count || zip(theirs, ours).contains(where: { Earth.distance($0, $1) > 5 }) {
                report.failures.append("\(label): trip \(id) stops \(ours) differ from Fleet Engine's \(theirs)")
            }
        }
    }

    /// Sends a call; returns the answer when it is a 200, records a failure when the status
    /// is not the one Fleet Engine answered.
    private func send(_ call: FleetLogCalls.Call, _ report: inout Report, _ label: String) async throws -> [UInt8]? {
        let (status, answer) = try await transport.send(method: call.method, path: call.path, body: try call.body(), token: serverToken)
        report.calls += 1
        if status != call.expectedStatus {
            report.failures.append("\(label): \(call.method) \(call.path) answered \(status): \(String(decoding: answer, as: UTF8.self))")
        }
        return status == 200 ? answer : nil
    }

    private static func escape(_ component: String) -> String { FleetLogCalls.Call.escape(component) }

    static func distribution(_ pairs: [(ours: Double, driver: Double)], tolerance: ((Double, Double) -> Bool)?) -> ErrorDistribution {
        let errors = pairs.map { abs($0.ours - $0.driver) }.sorted()
        func quantile(_ q: Double) -> Double { errors[min(errors.count - 1, Int((q * Double(errors.count - 1)).rounded()))] }
        let within = tolerance.map { test in Double(pairs.filter { test($0.ours, $0.driver) }.count) / Double(pairs.count) }
        return ErrorDistribution(
            count: errors.count, median: quantile(0.5), p90: quantile(0.9), maximum: errors.last ?? 0,
            withinTolerance: within)
    }
}
