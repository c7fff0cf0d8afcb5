// Where a recorded log says each vehicle really reached a stop (DESIGN §5, "Estimates are
// scored against what happened"). A leg is a vehicle's way to one stop: it opens at the first
// location update that finds the vehicle with a current trip, not waiting at a stop (its
// first trip's status is not ARRIVED_*) and not heading for the stop it has just reached, and
// closes at the first sign that it arrived:
// - a trip of the vehicle reaching ARRIVED_AT_PICKUP, ARRIVED_AT_INTERMEDIATE_DESTINATION or
//   COMPLETE;
// - the driver app's navigation status ARRIVED_AT_DESTINATION;
// - the driver app's remaining distance at most ``FleetLogLegs/arrivalMeters``.
// Signs that follow an arrival (the driver app says it arrived, then the provider sets the
// trip status) close nothing: the next leg opens with the next update on the way to the next
// stop. A leg whose trip is cancelled or taken off the vehicle before it arrives is dropped:
// where the vehicle was going then has no arrival to score against.

import Geo
import TripModel

/// The legs of every vehicle in a log's calls: when each really arrived at a stop.
package struct FleetLogLegs: Sendable {
    /// The driver app's remaining distance at or under which the vehicle has arrived.
    package static let arrivalMeters = 30

    /// What showed that the vehicle arrived.
    package enum ArrivalSign: Hashable, Sendable, CustomStringConvertible {
        /// A trip of the vehicle reached this status.
        case tripStatus(TripStatus)
        /// The driver app's navigation said ARRIVED_AT_DESTINATION.
        case navigationArrived
        /// The driver app's remaining distance was this many metres.
        case driverDistance(Int)

        /// How the sign reads in a table.
        package var description: String {
            switch self {
            case .tripStatus(let status): status.rawValue
            case .navigationArrived: "navigation ARRIVED_AT_DESTINATION"
            case .driverDistance(let meters): "driver's remaining distance \(meters) m"
            }
        }
    }

    /// One vehicle's way to one stop.
    package struct Leg: Hashable, Sendable {
        /// The vehicle.
        package var vehicleId: String
        /// The log time of the leg's first update.
        package var start: Timestamp
        /// The log time the vehicle arrived.
        package var arrival: Timestamp
        /// What showed it.
        package var sign: ArrivalSign
        /// Where the vehicle was when it arrived (its last reported location); nil when the
        /// log never placed it.
        package var place: LatLng?
        /// The vehicle's trips while under way, in assignment order.
        package var tripIds: [String]
        /// The stop it arrived at, as far as the trips' statuses tell: the stop the arriving
        /// status names, else the one its first trip was heading for.
        package var stop: Stop?
        /// The indices of the leg's location updates (into the calls, or the log's entries, the
        /// legs were found in), in order.
        package var updates: [Int]

        /// The leg's length in seconds, from its first update to the arrival.
        package var seconds: Double { arrival.seconds(since: start) }
    }

    /// A stop of a trip: the trip and which of its stops.
    package struct Stop: Hashable, Sendable {
        /// The trip.
        package var tripId: String
        /// Its pickup, an intermediate destination or its dropoff.
        package var type: WaypointType

        /// A trip's stop.
        package init(tripId: String, type: WaypointType) {
            self.tripId = tripId
            self.type = type
        }
    }

    /// The legs, ordered by arrival.
    package var legs: [Leg]

    /// The leg the location update at `callIndex` lies in, if any.
    package func leg(ofCall callIndex: Int) -> Int? { legOfCall[callIndex] }

    private var legOfCall: [Int: Int]

    /// Finds the legs of `calls` (in time order, as ``FleetLogCalls`` makes them); a leg's
    /// `updates` index `calls`.
    package init(calls: [FleetLogCalls.Call]) {
        self.init(events: calls.enumerated().map { (index: $0.offset, time: $0.element.time, call: $0.element.logCall) })
    }

    /// Finds the legs of a log as recorded; a leg's `updates` index `log.entries`.
    init(log: FleetLog) {
        self.init(events: log.entries.enumerated().map { (index: $0.offset, time: $0.element.time, call: $0.element.call) })
    }

    private init(events: [(index: Int, time: Timestamp, call: FleetLog.Call)]) {
        var tripVehicle: [String: String] = [:]
        var tripStatus: [String: TripStatus] = [:]
        var tripOrder: [String] = []
        var position: [String: LatLng] = [:]
        var open: [String: Leg] = [:]
        var arrivedAt: [String: Stop] = [:]
        var legs: [Leg] = []

        func currentTrips(of vehicleId: String) -> [String] {
            tripOrder.filter { tripVehicle[$0] == vehicleId && !(tripStatus[$0]?.isTerminal ?? false) }
        }
        func arrive(_ vehicleId: String, at time: Timestamp, _ sign: ArrivalSign, trip: String? = nil) {
            guard var leg = open.removeValue(forKey: vehicleId) else { return }
            leg.arrival = time
            leg.sign = sign
            leg.place = position[vehicleId]
            leg.stop = trip.flatMap { id in tripStatus[id]?.nextStopType.map { Stop(tripId: id, type: $0) } } ?? heading(vehicleId)
            if let stop = leg.stop { arrivedAt[vehicleId] = stop }
            legs.append(leg)
        }
        // The stop the vehicle's first trip is heading for.
        func heading(_ vehicleId: String) -> Stop? {
            guard let id = currentTrips(of: vehicleId).first, let type = tripStatus[id]?.nextStopType else { return nil }
            return Stop(tripId: id, type: type)
        }

        for (index, time, call) in events {
            switch call {
            case .createVehicle(_, let id, let vehicle):
                if let location = vehicle.lastLocation?.location { position[id] = location }
            case .createTrip(_, let id, let trip):
                if !tripOrder.contains(id) { tripOrder.append(id) }
                tripVehicle[id] = trip.vehicleId
                tripStatus[id] = trip.tripStatus
            case .updateTrip(_, let id, let trip, let mask):
                if !tripOrder.contains(id) { tripOrder.append(id) }
                let previousVehicle = tripVehicle[id]
                if mask.contains("vehicleId") { tripVehicle[id] = trip.vehicleId }
                guard mask.contains("tripStatus") else {
                    if let leaving = previousVehicle, leaving != tripVehicle[id], open[leaving]?.tripIds.contains(id) == true {
                        open[leaving] = nil
                    }
                    continue
                }
                let status = trip.tripStatus
                tripStatus[id] = status
                if let vehicleId = tripVehicle[id], status == .arrivedAtPickup || status == .arrivedAtIntermediateDestination || status == .complete {
                    arrive(vehicleId, at: time, .tripStatus(status), trip: id)
                }
                // The trip left its vehicle unfinished: where that leg ended is unknown.
                if let leaving = previousVehicle, leaving != tripVehicle[id] || status == .canceled, open[leaving]?.tripIds.contains(id) == true {
                    open[leaving] = nil
                }
            case .updateVehicle(_, let id, let vehicle, let mask):
                let located = mask.contains("lastLocation") ? vehicle.lastLocation?.location : nil
                if let located { position[id] = located }
                if mask.contains("navigationStatus"), vehicle.navigationStatus == .arrivedAtDestination {
                    arrive(id, at: time, .navigationArrived)
                    continue
                }
                if mask.contains("remainingDistanceMeters"), let meters = vehicle.remainingDistanceMeters, meters <= Self.arrivalMeters {
                    arrive(id, at: time, .driverDistance(meters))
                    continue
                }
                guard located != nil else { continue }
                let trips = currentTrips(of: id)
                guard let first = trips.first, !(tripStatus[first]?.isWaitingAtStop ?? false) else { continue }
                if open[id] == nil {
                    guard let stop = heading(id), stop != arrivedAt[id] else { continue }
                    open[id] = Leg(
                        vehicleId: id, start: time, arrival: time, sign: .navigationArrived, place: nil, tripIds: [], stop: nil,
                        updates: [])
                }
                for trip in trips where open[id]?.tripIds.contains(trip) == false { open[id]?.tripIds.append(trip) }
                open[id]?.updates.append(index)
            }
        }
        self.legs = legs
        var legOfCall: [Int: Int] = [:]
        for (number, leg) in legs.enumerated() {
            for index in leg.updates { legOfCall[index] = number }
        }
        self.legOfCall = legOfCall
    }
}

extension TripStatus {
    /// Whether a trip in this status has its vehicle waiting at one of its stops.
    fileprivate var isWaitingAtStop: Bool { self == .arrivedAtPickup || self == .arrivedAtIntermediateDestination }

    /// The kind of stop a trip in this status is heading for, or has just reached.
    fileprivate var nextStopType: WaypointType? {
        switch self {
        case .new, .enrouteToPickup, .arrivedAtPickup: .pickup
        case .enrouteToIntermediateDestination, .arrivedAtIntermediateDestination: .intermediateDestination
        case .enrouteToDropoff, .complete: .dropOff
        case .unknown, .canceled: nil
        }
    }
}

extension FleetLogCalls.Call {
    /// The call as the log's own kind of call.
    var logCall: FleetLog.Call {
        switch kind {
        case .createVehicle: .createVehicle(provider: provider, id: id, vehicle: vehicle ?? Vehicle(name: ""))
        case .updateVehicle:
            .updateVehicle(provider: provider, id: id, vehicle: vehicle ?? Vehicle(name: ""), mask: updateMask ?? FieldMask(fields: []))
        case .createTrip: .createTrip(provider: provider, id: id, trip: trip ?? Trip(name: ""))
        case .updateTrip: .updateTrip(provider: provider, id: id, trip: trip ?? Trip(name: ""), mask: updateMask ?? FieldMask(fields: []))
        }
    }
}
