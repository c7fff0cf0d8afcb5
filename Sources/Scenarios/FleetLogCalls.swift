// The one path from a Fleet Engine log to API calls: `tripshare replay` sends them and checks
// the riders' views, `tripshare import fleet-log` writes them into a scenario, and the demo
// drives one trip of them. Every logged create/update becomes the REST call the driver app or
// the provider's backend made, at the time it was logged, with its body and update mask in
// REST spellings (FleetLog normalises the log's).
//
// What the log does not say is inferred, the same way for every user, and said in `notes`:
// - a vehicle the log never creates is created from its first logged state, just before the
//   first call that needs it;
// - a trip whose pickup or dropoff the log holds only as an opaque `...Handle` (jump-demo)
//   gets the place where its vehicle really arrived there (FleetLogLegs: the first sign of
//   arrival while heading for it, which may be the driver app's before the trip's status),
//   else where it stood when the trip reached ARRIVED_AT_PICKUP (pickup) or COMPLETE
//   (dropoff); a trip that never got there gets the place of its last status change instead
//   (pickup only);
// - a repeated create of the same vehicle (the app restarting) is kept, expecting 409
//   ALREADY_EXISTS, as Fleet Engine answered;
// - a trip created without a tripType is EXCLUSIVE;
// - a location update with neither a location nor a raw fix (only a handle) leaves
//   lastLocation out of the call (and the call out, when nothing else is left);
// - a location without an `updateTime` (the Driver SDK in both shared logs sends none) gets
//   its raw fix's `rawLocationTime`: the driver app's clock, which judges speeds between
//   fixes and the vehicle's pace better than the time the server received it.

import Foundation
import Geo
import JSON
import TripModel

/// A Fleet Engine log as the API calls that replay it.
package struct FleetLogCalls: Sendable {
    /// One API call.
    package struct Call: Sendable {
        /// What kind of call.
        package enum Kind: String, Sendable {
            case createVehicle, updateVehicle, createTrip, updateTrip
        }

        /// The kind of call.
        package var kind: Kind
        /// When the log recorded it.
        package var time: Timestamp
        /// The provider.
        package var provider: String
        /// The vehicle's or trip's ID.
        package var id: String
        /// The body of a vehicle call.
        package var vehicle: Vehicle?
        /// The body of a trip call.
        package var trip: Trip?
        /// The update mask of an update.
        package var updateMask: FieldMask?
        /// The HTTP status the API answers when it behaves as Fleet Engine did.
        package var expectedStatus: Int
        /// Fleet Engine's logged response; nil for a call the log does not hold.
        package var response: JSONValue?
        /// True for a vehicle creation the log does not hold (made from its first logged state).
        package var isSynthesized: Bool

        /// `POST` for a create, `PUT` for an update.
        package var method: String { kind == .createVehicle || kind == .createTrip ? "POST" : "PUT" }

        /// The request path with its query (the ID and update mask percent-encoded).
        package var path: String {
            let provider = "/v1/providers/\(Self.escape(self.provider))"
            let mask = updateMask.map { "?updateMask=\(Self.escape($0.fields.joined(separator: ",")))" } ?? ""
            switch kind {
            case .createVehicle: return "\(provider)/vehicles?vehicleId=\(Self.escape(id))"
            case .updateVehicle: return "\(provider)/vehicles/\(Self.escape(id))\(mask)"
            case .createTrip: return "\(provider)/trips?tripId=\(Self.escape(id))"
            case .updateTrip: return "\(provider)/trips/\(Self.escape(id))\(mask)"
            }
        }

        /// The request body (JSON).
        package func body() throws -> [UInt8] {
            if let vehicle { return Array(try JSONCoding.encode(vehicle)) }
            if let trip { return Array(try JSONCoding.encode(trip)) }
            return Array("{}".utf8)
        }

        static func escape(_ component: String) -> String {
            component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#&=+")))
                ?? component
        }
    }

    /// What the making of the calls found beside them.
    package struct Report: Sendable {
        /// Log entries of types that are not replayed (`@type` → count).
        package var skippedEntryTypes: [String: Int]
        /// Fields the API does not model, dropped (path → count).
        package var droppedFields: [String: Int]
        /// Locations taken from `rawLocation` because the log held only a handle.
        package var locationsFromRaw: Int
        /// Locations whose `updateTime` is their raw fix's `rawLocationTime`.
        package var updateTimesFromRaw: Int
        /// Vehicles created from their first logged state.
        package var synthesizedVehicles: [String]
        /// Trip places inferred from the vehicle's position.
        package var inferredPlaces: Int
        /// Location updates left out because the log has neither the location nor a raw fix.
        package var locationsWithoutPosition: Int
    }

    /// The calls, in time order.
    package var calls: [Call]
    /// What was inferred, for people (a scenario's notes).
    package var notes: [String]
    /// Counts of what was skipped, dropped or inferred.
    package var report: Report

    /// The calls that replay `log`.
    package init(log: FleetLog) throws {
        var calls: [Call] = []
        var notes: [String] = []
        var report = Report(
            skippedEntryTypes: log.skippedEntryTypes, droppedFields: log.droppedFields,
            locationsFromRaw: log.locationsFromRaw, updateTimesFromRaw: 0, synthesizedVehicles: [], inferredPlaces: 0,
            locationsWithoutPosition: 0)
        let places = Self.inferredPlaces(log)
        var created = Set<String>()

        func ensureVehicle(_ provider: String, _ id: String, at time: Timestamp) {
            guard created.insert(id).inserted else { return }
            calls.append(
                Call(
                    kind: .createVehicle, time: time, provider: provider, id: id, vehicle: log.synthesizedVehicle(id: id),
                    expectedStatus: 200, isSynthesized: true))
            report.synthesizedVehicles.append(id)
        }

        /// The driver app's own time of a fix, where the log has it.
        func stampUpdateTime(_ vehicle: inout Vehicle) {
            guard var location = vehicle.lastLocation, location.updateTime == nil, let time = location.rawLocationTime else { return }
            location.updateTime = time
            vehicle.lastLocation = location
            report.updateTimesFromRaw += 1
        }

        for entry in log.entries {
            switch entry.call {
            case .createVehicle(let provider, let id, var vehicle):
                stampUpdateTime(&vehicle)
                let repeated = !created.insert(id).inserted
                calls.append(
                    Call(
                        kind: .createVehicle, time: entry.time, provider: provider, id: id, vehicle: vehicle,
                        expectedStatus: repeated ? 409 : 200, response: entry.response, isSynthesized: false))
            case .updateVehicle(let provider, let id, var vehicle, var mask):
                ensureVehicle(provider, id, at: entry.time)
                if mask.contains("lastLocation"), vehicle.lastLocation?.location == nil {
                    // Only a handle and no raw fix: where the car was is unknown.
                    vehicle.lastLocation = nil
                    mask = FieldMask(fields: mask.fields.filter { $0 != "lastLocation" })
                    report.locationsWithoutPosition += 1
                    if mask.fields.isEmpty { continue }
                }
                if mask.contains("lastLocation") { stampUpdateTime(&vehicle) }
                calls.append(
                    Call(
                        kind: .updateVehicle, time: entry.time, provider: provider, id: id, vehicle: vehicle, updateMask: mask,
                        expectedStatus: 200, response: entry.response, isSynthesized: false))
            case .createTrip(let provider, let id, var trip):
                if let vehicleId = trip.vehicleId { ensureVehicle(provider, vehicleId, at: entry.time) }
                if trip.pickupPoint == nil, let place = places[id]?.pickup {
                    trip.pickupPoint = TerminalLocation(point: place.location)
                    notes.append(
                        "trip \(id): the log holds its pickup only as a handle; "
                            + "pickupPoint is where its vehicle stood at \(place.reason) (\(place.time.rfc3339))")
                    report.inferredPlaces += 1
                }
                if trip.dropoffPoint == nil, let place = places[id]?.dropoff {
                    trip.dropoffPoint = TerminalLocation(point: place.location)
                    notes.append(
                        "trip \(id): the log holds its dropoff only as a handle; "
                            + "dropoffPoint is where its vehicle stood at \(place.reason) (\(place.time.rfc3339))")
                    report.inferredPlaces += 1
                }
                if trip.tripType == nil {
                    trip.tripType = .exclusive
                    notes.append("trip \(id): the log's create has no tripType (the API requires one): EXCLUSIVE")
                }
                calls.append(
                    Call(
                        kind: .createTrip, time: entry.time, provider: provider, id: id, trip: trip,
                        expectedStatus: 200, response: entry.response, isSynthesized: false))
            case .updateTrip(let provider, let id, let trip, let mask):
                if let vehicleId = trip.vehicleId, mask.contains("vehicleId") { ensureVehicle(provider, vehicleId, at: entry.time) }
                calls.append(
                    Call(
                        kind: .updateTrip, time: entry.time, provider: provider, id: id, trip: trip, updateMask: mask,
                        expectedStatus: 200, response: entry.response, isSynthesized: false))
            }
        }
        if !report.synthesizedVehicles.isEmpty {
            let vehicles = report.synthesizedVehicles.joined(separator: ", ")
            notes.append("the log never creates \(vehicles): created from the first state Fleet Engine logged for it")
        }
        if !report.skippedEntryTypes.isEmpty {
            let counts = report.skippedEntryTypes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            notes.append("log entries not replayed: \(counts.joined(separator: ", "))")
        }
        if report.locationsFromRaw > 0 {
            notes.append(
                "\(report.locationsFromRaw) logged locations (requests and responses) hold the road-snapped location "
                    + "only as a handle: the raw GPS fix is used")
        }
        if report.updateTimesFromRaw > 0 {
            notes.append(
                "\(report.updateTimesFromRaw) logged locations have no updateTime: it is their rawLocationTime (the driver app's clock)")
        }
        if report.locationsWithoutPosition > 0 {
            notes.append(
                "\(report.locationsWithoutPosition) location updates hold neither a location nor a raw fix (only a handle): "
                    + "lastLocation is left out of those calls")
        }
        let handles = report.droppedFields.filter { $0.key.hasSuffix("Handle") }.values.reduce(0, +)
        if handles > 0 { notes.append("\(handles) opaque ...Handle values in the log are dropped (the API has no such fields)") }
        self.calls = calls
        self.notes = notes
        self.report = report
    }

    /// The vehicle a trip was last assigned to by the calls up to `time`.
    package func lastVehicle(of tripId: String, before time: Timestamp) -> String? {
        var vehicle: String?
        for call in calls where call.time <= time && call.id == tripId {
            switch call.kind {
            case .createTrip: vehicle = call.trip?.vehicleId ?? vehicle
            case .updateTrip where call.updateMask?.contains("vehicleId") == true: vehicle = call.trip?.vehicleId
            default: break
            }
        }
        return vehicle
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
        // Where the vehicle really arrived, when the log shows it, wins: the driver app often
        // says so before the provider sets the trip's status.
        for leg in FleetLogLegs(log: log).legs.reversed() {
            guard let stop = leg.stop, let location = leg.place else { continue }
            let place = Place(location: location, time: leg.arrival, reason: "its arrival (\(leg.sign))")
            switch stop.type {
            case .pickup: out[stop.tripId, default: (nil, nil)].pickup = place
            case .dropOff: out[stop.tripId, default: (nil, nil)].dropoff = place
            case .intermediateDestination: break
            }
        }
        return out
    }
}
