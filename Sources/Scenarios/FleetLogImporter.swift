// A Fleet Engine Cloud Logging export turned into a scenario: every logged create/update
// becomes the REST call the driver app or the provider's backend made, at the time it was
// logged, with its body and update mask in REST spellings (FleetLog normalises the log's).
// A checkpoint follows every trip update: the rider's view of that trip, its preview and the
// trip events since the previous one.
//
// What the log does not say is inferred and written into the scenario's notes:
// - a vehicle the log never creates is created from its first logged state;
// - a trip whose pickup or dropoff the log holds only as an opaque `...Handle` (jump-demo)
//   gets the place where its vehicle stood when the trip reached ARRIVED_AT_PICKUP (pickup)
//   or COMPLETE (dropoff); a trip that never got there gets the place of its last status
//   change instead (pickup only);
// - a repeated create of the same vehicle (the app restarting) is kept, expecting 409
//   ALREADY_EXISTS, as Fleet Engine answered;
// - a trip created without a tripType is EXCLUSIVE;
// - a location update with neither a location nor a raw fix (only a handle) leaves
//   lastLocation out of the call (and the call out, when nothing else is left).

import Foundation
import Geo
import TripModel

/// Makes scenarios from Fleet Engine logs.
public enum FleetLogImporter {
    /// What an import did beside the scenario.
    public struct Report: Sendable {
        /// Log entries of types that are not replayed (`@type` → count).
        public var skippedEntryTypes: [String: Int]
        /// Fields the API does not model, dropped (path → count).
        public var droppedFields: [String: Int]
        /// Locations taken from `rawLocation` because the log held only a handle.
        public var locationsFromRaw: Int
        /// Vehicles created from their first logged state.
        public var synthesizedVehicles: [String]
        /// Trip places inferred from the vehicle's position.
        public var inferredPlaces: Int
        /// Location updates left out because the log has neither the location nor a raw fix.
        public var locationsWithoutPosition: Int
    }

    /// The scenario of `log`, named `name`; `source` says where the log came from.
    public static func scenario(from log: FleetLog, name: String, source: String?) throws -> (Scenario, Report) {
        let providers = Set(log.entries.map(\.call.provider))
        guard let provider = providers.sorted().first else { throw ScenarioError("the log holds no create or update calls") }
        guard providers.count == 1 else {
            throw ScenarioError("the log mixes providers \(providers.sorted()); a scenario has one")
        }
        var scenario = Scenario(name: name, description: "Fleet Engine log \(name) replayed call by call, with the rider's view, preview and trip events after every trip update.",
                                provider: provider)
        scenario.source = source
        var report = Report(skippedEntryTypes: log.skippedEntryTypes, droppedFields: log.droppedFields,
                            locationsFromRaw: log.locationsFromRaw, synthesizedVehicles: [], inferredPlaces: 0,
                            locationsWithoutPosition: 0)
        let places = inferredPlaces(log)
        var created = Set<String>()
        var tripNumbers: [String: Int] = [:]
        var tripStatus: [String: TripStatus] = [:]

        func ensureVehicle(_ id: String, at time: Timestamp) throws {
            guard !created.contains(id) else { return }
            created.insert(id)
            scenario.vehicles[id] = try json(log.synthesizedVehicle(id: id))
            scenario.timeline.append(Scenario.Call(at: time, op: .createVehicle, id: id))
            report.synthesizedVehicles.append(id)
        }

        for entry in log.entries {
            switch entry.call {
            case .createVehicle(_, let id, let vehicle):
                if created.insert(id).inserted {
                    scenario.vehicles[id] = try json(vehicle)
                    scenario.timeline.append(Scenario.Call(at: entry.time, op: .createVehicle, id: id))
                } else {
                    scenario.timeline.append(Scenario.Call(at: entry.time, op: .createVehicle, id: id, body: try json(vehicle),
                                                           expectStatus: 409))
                }
            case .updateVehicle(_, let id, var vehicle, var mask):
                try ensureVehicle(id, at: entry.time)
                if mask.contains("lastLocation"), vehicle.lastLocation?.location == nil {
                    // Only a handle and no raw fix: where the car was is unknown.
                    vehicle.lastLocation = nil
                    mask = FieldMask(fields: mask.fields.filter { $0 != "lastLocation" })
                    report.locationsWithoutPosition += 1
                    if mask.fields.isEmpty { continue }
                }
                scenario.timeline.append(Scenario.Call(at: entry.time, op: .updateVehicle, id: id,
                                                       updateMask: mask.fields.joined(separator: ","), body: try json(vehicle)))
            case .createTrip(_, let id, var trip):
                if let vehicleId = trip.vehicleId { try ensureVehicle(vehicleId, at: entry.time) }
                if trip.pickupPoint == nil, let place = places[id]?.pickup {
                    trip.pickupPoint = TerminalLocation(point: place.location)
                    scenario.notes.append("trip \(id): the log holds its pickup only as a handle; pickupPoint is where its vehicle stood at \(place.reason) (\(place.time.rfc3339))")
                    report.inferredPlaces += 1
                }
                if trip.dropoffPoint == nil, let place = places[id]?.dropoff {
                    trip.dropoffPoint = TerminalLocation(point: place.location)
                    scenario.notes.append("trip \(id): the log holds its dropoff only as a handle; dropoffPoint is where its vehicle stood at \(place.reason) (\(place.time.rfc3339))")
                    report.inferredPlaces += 1
                }
                if trip.tripType == nil {
                    trip.tripType = .exclusive
                    scenario.notes.append("trip \(id): the log's create has no tripType (the API requires one): EXCLUSIVE")
                }
                tripNumbers[id] = tripNumbers.count + 1
                tripStatus[id] = trip.tripStatus == .unknown ? .new : trip.tripStatus
                scenario.trips[id] = try json(trip)
                scenario.timeline.append(Scenario.Call(at: entry.time, op: .createTrip, id: id))
            case .updateTrip(_, let id, let trip, let mask):
                if let vehicleId = trip.vehicleId, mask.contains("vehicleId") { try ensureVehicle(vehicleId, at: entry.time) }
                scenario.timeline.append(Scenario.Call(at: entry.time, op: .updateTrip, id: id,
                                                       updateMask: mask.fields.joined(separator: ","), body: try json(trip)))
                if mask.contains("tripStatus") { tripStatus[id] = trip.tripStatus }
                let number = tripNumbers[id] ?? 0
                let status = (tripStatus[id] ?? .unknown).rawValue.lowercased().replacingOccurrences(of: "_", with: "-")
                var checkpoint = Scenario.Checkpoint(name: String(format: "%02d-trip%d-%@", scenario.checkpoints.count + 1, number, status),
                                                     at: entry.time)
                checkpoint.trip = id
                checkpoint.render = Scenario.RenderRequest(trip: id)
                if let vehicleId = trip.vehicleId ?? lastVehicle(of: id, before: entry.time, in: log) {
                    checkpoint.events = Scenario.EventSelection(vehicle: vehicleId, types: ["didUpdateTripStatus", "didUpdateRemainingWaypoints"])
                }
                scenario.checkpoints.append(checkpoint)
            }
        }
        if !report.synthesizedVehicles.isEmpty {
            scenario.notes.append("the log never creates \(report.synthesizedVehicles.joined(separator: ", ")): created from the first state Fleet Engine logged for it")
        }
        if !report.skippedEntryTypes.isEmpty {
            let counts = report.skippedEntryTypes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            scenario.notes.append("log entries not replayed: \(counts.joined(separator: ", "))")
        }
        if report.locationsFromRaw > 0 {
            scenario.notes.append("\(report.locationsFromRaw) logged locations (requests and responses) hold the road-snapped location only as a handle: the raw GPS fix is used")
        }
        if report.locationsWithoutPosition > 0 {
            scenario.notes.append("\(report.locationsWithoutPosition) location updates hold neither a location nor a raw fix (only a handle): lastLocation is left out of those calls")
        }
        let handles = report.droppedFields.filter { $0.key.hasSuffix("Handle") }.values.reduce(0, +)
        if handles > 0 { scenario.notes.append("\(handles) opaque ...Handle values in the log are dropped (the API has no such fields)") }
        return (scenario, report)
    }

    /// A place inferred for a trip stop.
    struct Place {
        var location: LatLng
        var time: Timestamp
        var reason: String
    }

    /// Pickup and dropoff places from the vehicle's position at the trip's status changes.
    static func inferredPlaces(_ log: FleetLog) -> [String: (pickup: Place?, dropoff: Place?)] {
        var positions: [String: LatLng] = [:]
        var tripVehicles: [String: String] = [:]
        var out: [String: (pickup: Place?, dropoff: Place?)] = [:]
        var fallback: [String: Place] = [:]
        for entry in log.entries {
            switch entry.call {
            case .createVehicle(_, let id, let vehicle), .updateVehicle(_, let id, let vehicle, _):
                if let location = vehicle.lastLocation?.location { positions[id] = location }
            case .createTrip(_, let id, let trip):
                if let vehicleId = trip.vehicleId { tripVehicles[id] = vehicleId }
            case .updateTrip(_, let id, let trip, let mask):
                if mask.contains("vehicleId"), let vehicleId = trip.vehicleId { tripVehicles[id] = vehicleId }
                guard mask.contains("tripStatus"), let vehicleId = tripVehicles[id], let position = positions[vehicleId] else { continue }
                let reason = "\(trip.tripStatus.rawValue)"
                switch trip.tripStatus {
                case .arrivedAtPickup: out[id, default: (nil, nil)].pickup = Place(location: position, time: entry.time, reason: reason)
                case .complete: out[id, default: (nil, nil)].dropoff = Place(location: position, time: entry.time, reason: reason)
                default: fallback[id] = Place(location: position, time: entry.time, reason: "its last status change, \(reason)")
                }
            }
        }
        for (id, place) in fallback where out[id]?.pickup == nil { out[id, default: (nil, nil)].pickup = place }
        return out
    }

    /// The vehicle a trip was last assigned to before `time`.
    static func lastVehicle(of tripId: String, before time: Timestamp, in log: FleetLog) -> String? {
        var vehicle: String?
        for entry in log.entries where entry.time <= time {
            switch entry.call {
            case .createTrip(_, let id, let trip) where id == tripId: vehicle = trip.vehicleId ?? vehicle
            case .updateTrip(_, let id, let trip, let mask) where id == tripId && mask.contains("vehicleId"): vehicle = trip.vehicleId
            default: break
            }
        }
        return vehicle
    }

    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(FleetJSON.encode(value))
    }
}

extension FleetLog.Call {
    /// The provider the call is under.
    var provider: String {
        switch self {
        case .createVehicle(let provider, _, _), .updateVehicle(let provider, _, _, _),
             .createTrip(let provider, _, _), .updateTrip(let provider, _, _, _):
            return provider
        }
    }
}
