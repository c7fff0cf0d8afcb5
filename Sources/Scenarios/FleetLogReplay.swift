import Foundation
import Geo
import TripModel

/// Replays a Fleet Engine log through the REST API, call by call in time order, and checks
/// after each call that every rider's JOURNEY_SHARING_V1S view is consistent with what was
/// sent: trip status, vehicle position, stops (against Fleet Engine's own responses where the
/// log has them) and versions. Optionally strips the driver's remaining distance and time
/// from the updates and measures our estimates against them.
public struct FleetLogReplay: Sendable {
    /// How to replay.
    public struct Options: Sendable {
        /// Remove `remainingDistanceMeters`/`remainingTimeSeconds` from vehicle updates and
        /// compare our estimates with the values removed.
        public var withoutDriverEstimates: Bool
        /// Read every trip's view after every call (the consistency checks).
        public var checkViews: Bool

        /// Creates options.
        public init(withoutDriverEstimates: Bool = false, checkViews: Bool = true) {
            self.withoutDriverEstimates = withoutDriverEstimates
            self.checkViews = checkViews
        }
    }

    /// Distribution of absolute differences between our values and the driver's.
    public struct ErrorDistribution: Codable, Sendable {
        /// Updates compared.
        public var count: Int
        public var median: Double
        public var p90: Double
        public var maximum: Double
        /// Share of updates within the tolerance (distance: 2% or 20 m, whichever is larger).
        public var withinTolerance: Double?
    }

    /// What the replay did and found.
    public struct Report: Codable, Sendable {
        /// API calls sent (including synthesized vehicle creations).
        public var calls: Int
        /// View checks made.
        public var checks: Int
        /// Vehicles the log never creates, created from their first logged state.
        public var synthesizedVehicles: [String]
        /// Everything that did not match, in order; empty when the replay is consistent.
        public var failures: [String]
        /// Remaining distance: ours against the driver's (metres), when compared.
        public var remainingDistance: ErrorDistribution?
        /// Remaining time: ours against the driver's (seconds), when compared.
        public var remainingTime: ErrorDistribution?
    }

    let log: FleetLog
    let transport: any APITransport
    let serverToken: String
    let consumerToken: @Sendable (String) async throws -> String

    /// Creates a replay of `log` over `transport`, writing with `serverToken` and reading each
    /// trip with the consumer token `consumerToken(tripId)` returns.
    public init(log: FleetLog, transport: any APITransport, serverToken: String,
                consumerToken: @escaping @Sendable (String) async throws -> String) {
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
    public func run(_ options: Options = Options(), progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Report {
        var report = Report(calls: 0, checks: 0, synthesizedVehicles: [], failures: [], remainingDistance: nil, remainingTime: nil)
        var trips: [String: TripState] = [:]
        var tripOrder: [String] = []
        var vehicleLocations: [String: LatLng] = [:]
        var vehicles = Set<String>()
        var distanceErrors: [(ours: Double, driver: Double)] = []
        var timeErrors: [(ours: Double, driver: Double)] = []

        for (index, entry) in log.entries.enumerated() {
            progress?(index, log.entries.count)
            let label = "call \(index + 1) (\(entry.time))"
            switch entry.call {
            case .createVehicle(let provider, let id, let vehicle):
                let response = try await send("POST", "/v1/providers/\(provider)/vehicles?vehicleId=\(escape(id))", vehicle, &report, label)
                if response != nil { vehicles.insert(id) }
                if let location = vehicle.lastLocation?.location { vehicleLocations[id] = location }
            case .updateVehicle(let provider, let id, var vehicle, var mask):
                if !vehicles.contains(id) {
                    try await synthesizeVehicle(provider: provider, id: id, &report, label)
                    vehicles.insert(id)
                }
                let driverDistance = vehicle.remainingDistanceMeters
                let driverTime = vehicle.remainingTimeSeconds
                if options.withoutDriverEstimates {
                    vehicle.remainingDistanceMeters = nil
                    vehicle.remainingTimeSeconds = nil
                    mask = FieldMask(fields: mask.fields.filter { $0 != "remainingDistanceMeters" && $0 != "remainingTimeSeconds" })
                }
                let body = try await send("PUT", "/v1/providers/\(provider)/vehicles/\(escape(id))?updateMask=\(mask.fields.joined(separator: ","))",
                                          vehicle, &report, label)
                if mask.contains("lastLocation"), let location = vehicle.lastLocation?.location { vehicleLocations[id] = location }
                // Compare only while Fleet Engine had the vehicle on a trip: afterwards the
                // driver app keeps sending a stale remaining distance.
                let onTrip: Bool
                if case .array(let current)? = entry.response?["currentTrips"] { onTrip = !current.isEmpty } else { onTrip = false }
                if let body, onTrip, let ours = try? FleetJSON.decode(Vehicle.self, from: body, root: "vehicle") {
                    if let driver = driverDistance, let mine = ours.remainingDistanceMeters {
                        distanceErrors.append((Double(mine), Double(driver)))
                    }
                    if let driver = driverTime, let mine = ours.remainingTimeSeconds { timeErrors.append((Double(mine), Double(driver))) }
                }
            case .createTrip(let provider, let id, let trip):
                if let vehicleId = trip.vehicleId, !vehicles.contains(vehicleId) {
                    try await synthesizeVehicle(provider: provider, id: vehicleId, &report, label)
                    vehicles.insert(vehicleId)
                }
                if try await send("POST", "/v1/providers/\(provider)/trips?tripId=\(escape(id))", trip, &report, label) != nil {
                    trips[id] = TripState(provider: provider, status: .new, vehicleId: trip.vehicleId, token: try await consumerToken(id))
                    tripOrder.append(id)
                }
            case .updateTrip(let provider, let id, let trip, let mask):
                if let vehicleId = trip.vehicleId, mask.contains("vehicleId"), !vehicles.contains(vehicleId) {
                    try await synthesizeVehicle(provider: provider, id: vehicleId, &report, label)
                    vehicles.insert(vehicleId)
                }
                if try await send("PUT", "/v1/providers/\(provider)/trips/\(escape(id))?updateMask=\(mask.fields.joined(separator: ","))",
                                  trip, &report, label) != nil {
                    if mask.contains("tripStatus") { trips[id]?.status = trip.tripStatus }
                    if mask.contains("vehicleId") { trips[id]?.vehicleId = trip.vehicleId }
                }
            }
            guard options.checkViews else { continue }
            for id in tripOrder {
                guard var state = trips[id] else { continue }
                try await check(id, &state, entry: entry, vehicleLocations: vehicleLocations, &report, label)
                trips[id] = state
            }
        }
        progress?(log.entries.count, log.entries.count)
        if !distanceErrors.isEmpty {
            report.remainingDistance = Self.distribution(distanceErrors) { ours, driver in abs(ours - driver) <= max(20, 0.02 * driver) }
        }
        if !timeErrors.isEmpty { report.remainingTime = Self.distribution(timeErrors, tolerance: nil) }
        return report
    }

    /// Checks one trip's rider view after a call.
    private func check(_ id: String, _ state: inout TripState, entry: FleetLog.Entry, vehicleLocations: [String: LatLng],
                       _ report: inout Report, _ label: String) async throws {
        let (status, body) = try await transport.send(
            method: "GET", path: "/v1/providers/\(state.provider)/trips/\(escape(id))?view=JOURNEY_SHARING_V1S", body: nil, token: state.token)
        report.checks += 1
        guard status == 200 else {
            report.failures.append("\(label): GET trip \(id) answered \(status): \(String(decoding: body, as: UTF8.self))")
            return
        }
        let view: Trip
        do { view = try FleetJSON.decode(Trip.self, from: body, root: "trip") } catch {
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
            report.failures.append("\(label): trip \(id) shows the vehicle at \(view.lastLocation?.location.map(\.description) ?? "nowhere"), last sent \(sent)")
        }
        if !live && !view.remainingWaypoints.isEmpty {
            report.failures.append("\(label): finished trip \(id) still has remaining waypoints")
        }
        // Versions: never back, and moved exactly when the stops changed.
        let stops = view.remainingWaypoints.map(\.stop)
        if let old = state.version, let new = view.remainingWaypointsVersion {
            if new < old { report.failures.append("\(label): trip \(id) remainingWaypointsVersion went back from \(old) to \(new)") }
            if (stops != state.stops) != (new != old) {
                report.failures.append("\(label): trip \(id) remainingWaypointsVersion \(new != old ? "moved without" : "stayed despite") a change of stops")
            }
        }
        state.version = view.remainingWaypointsVersion ?? state.version
        state.stops = stops
        // Against Fleet Engine's own answer to this call, where it is this trip's.
        if case .updateTrip(_, let tripId, _, _) = entry.call, tripId == id, case .array(let logged)? = entry.response?["remainingWaypoints"] {
            let theirs = logged.compactMap { waypoint -> LatLng? in
                guard case .number(let lat, _)? = waypoint["location"]?["point"]?["latitude"],
                      case .number(let lng, _)? = waypoint["location"]?["point"]?["longitude"] else { return nil }
                return LatLng(latitude: lat, longitude: lng)
            }
            let ours = view.remainingWaypoints.compactMap { $0.location?.point }
            if theirs.count != ours.count || zip(theirs, ours).contains(where: { Earth.distance($0, $1) > 5 }) {
                report.failures.append("\(label): trip \(id) stops \(ours) differ from Fleet Engine's \(theirs)")
            }
        }
    }

    /// Creates a vehicle the log only updates, from the first state Fleet Engine logged for it.
    private func synthesizeVehicle(provider: String, id: String, _ report: inout Report, _ label: String) async throws {
        let input = log.synthesizedVehicle(id: id)
        _ = try await send("POST", "/v1/providers/\(provider)/vehicles?vehicleId=\(escape(id))", input, &report, label)
        report.synthesizedVehicles.append(id)
    }

    private func send(_ method: String, _ path: String, _ value: some Encodable, _ report: inout Report,
                      _ label: String) async throws -> [UInt8]? {
        let body = Array(try FleetJSON.encode(value))
        let (status, answer) = try await transport.send(method: method, path: path, body: body, token: serverToken)
        report.calls += 1
        guard status == 200 else {
            report.failures.append("\(label): \(method) \(path) answered \(status): \(String(decoding: answer, as: UTF8.self))")
            return nil
        }
        return answer
    }

    private func escape(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? id
    }

    static func distribution(_ pairs: [(ours: Double, driver: Double)], tolerance: ((Double, Double) -> Bool)?) -> ErrorDistribution {
        let errors = pairs.map { abs($0.ours - $0.driver) }.sorted()
        func quantile(_ q: Double) -> Double { errors[min(errors.count - 1, Int((q * Double(errors.count - 1)).rounded()))] }
        let within = tolerance.map { test in Double(pairs.filter { test($0.ours, $0.driver) }.count) / Double(pairs.count) }
        return ErrorDistribution(count: errors.count, median: quantile(0.5), p90: quantile(0.9), maximum: errors.last ?? 0,
                                 withinTolerance: within)
    }
}
