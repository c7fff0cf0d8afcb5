import Foundation
import JSON
import Styling
import TripModel
import TripStore

/// The trip events Fleet logs on writes, named after the Consumer SDK's trip model
/// listener (`didUpdateTripStatus`, `didUpdateETAToNextWaypoint`, ...). Navigation events
/// (DESIGN §8) are appended by the navigator through the same log.
enum Events {
    static let tripStatus = "didUpdateTripStatus"
    static let eta = "didUpdateETAToNextWaypoint"
    static let remainingWaypoints = "didUpdateRemainingWaypoints"
    static let vehicleLocation = "didUpdateVehicleLocation"
    /// A vehicle's driver-screen settings changed (DESIGN §9); the vehicle's stream only.
    static let navigationUISettings = "didUpdateNavigationUISettings"

    /// ETA moves smaller than this are not worth an event (the Navigation SDK's default
    /// `timeUpdateThreshold`).
    static let etaThresholdSeconds = 1.0

    struct StatusData: Encodable {
        var tripStatus: TripStatus
        var previousTripStatus: TripStatus?
    }

    struct ETAData: Encodable {
        var etaToFirstWaypoint: Timestamp?
        var remainingTimeToFirstWaypoint: ProtoDuration?
        var remainingDistanceMeters: Int?
        var pickupTime: Timestamp?
        var dropoffTime: Timestamp?

        private enum CodingKeys: String, CodingKey {
            case etaToFirstWaypoint, remainingTimeToFirstWaypoint, remainingDistanceMeters, pickupTime, dropoffTime
        }

        /// As synthesised, with `encodeIfSet` (most location updates log one of these).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfSet(etaToFirstWaypoint, forKey: .etaToFirstWaypoint)
            try c.encodeIfSet(remainingTimeToFirstWaypoint, forKey: .remainingTimeToFirstWaypoint)
            try c.encodeIfSet(remainingDistanceMeters, forKey: .remainingDistanceMeters)
            try c.encodeIfSet(pickupTime, forKey: .pickupTime)
            try c.encodeIfSet(dropoffTime, forKey: .dropoffTime)
        }
    }

    struct WaypointsData: Encodable {
        var remainingWaypointsVersion: Timestamp?
        var remainingWaypointCount: Int
    }

    static func status(_ trip: Trip, previous: TripStatus?, now: Timestamp) -> NewEvent {
        make(tripStatus, now, trip.vehicleId, [trip.tripId], StatusData(tripStatus: trip.tripStatus, previousTripStatus: previous))
    }

    static func vehicleLocation(_ vehicle: Vehicle, now: Timestamp) -> NewEvent {
        make(vehicleLocation, now, ResourceName.lastComponent(of: vehicle.name), vehicle.currentTrips, vehicle.lastLocation)
    }

    /// Locations a vehicle reports late (`pastLocations`), oldest first, for its location
    /// history: on the vehicle's stream only, as riders want where the car is now.
    static func pastLocations(_ locations: [VehicleLocation], vehicleId: String, now: Timestamp) -> [NewEvent] {
        locations.enumerated()
            .sorted { a, b in
                let (ta, tb) = (a.element.updateTime ?? now, b.element.updateTime ?? now)
                return ta != tb ? ta < tb : a.offset < b.offset
            }
            .map { _, location in
                var location = location
                location.serverTime = now
                return make(vehicleLocation, now, vehicleId, [], location)
            }
    }

    /// The settings in effect after a change, with their version: a driver's screen redraws
    /// from it without reading them back.
    static func navigationUISettings(_ updated: VehicleNavigationUISettings, vehicleId: String, now: Timestamp) -> NewEvent {
        let data = JSONValue.object([
            ("version", .number(Double(updated.version), integer: updated.version)),
            (NavigationUISettings.jsonRoot, updated.settings.jsonValue),
        ])
        return make(navigationUISettings, now, vehicleId, [], data)
    }

    static func progress(old: Trip, new: Trip, vehicleId: String, now: Timestamp) -> [NewEvent] {
        var events: [NewEvent] = []
        if old.remainingWaypoints.map(\.stop) != new.remainingWaypoints.map(\.stop) {
            events.append(
                make(
                    remainingWaypoints, now, vehicleId, [new.tripId],
                    WaypointsData(
                        remainingWaypointsVersion: new.remainingWaypointsVersion,
                        remainingWaypointCount: new.remainingWaypoints.count)))
        }
        let moved: Bool
        switch (old.etaToFirstWaypoint, new.etaToFirstWaypoint) {
        case (let a?, let b?): moved = abs(b.seconds(since: a)) >= etaThresholdSeconds
        case (nil, nil): moved = false
        default: moved = true
        }
        if moved {
            events.append(
                make(
                    eta, now, vehicleId, [new.tripId],
                    ETAData(
                        etaToFirstWaypoint: new.etaToFirstWaypoint,
                        remainingTimeToFirstWaypoint: new.remainingTimeToFirstWaypoint,
                        remainingDistanceMeters: new.remainingDistanceMeters,
                        pickupTime: new.pickupTime, dropoffTime: new.dropoffTime)))
        }
        return events
    }

    private static func make(_ type: String, _ now: Timestamp, _ vehicleId: String?, _ tripIds: [String], _ data: some Encodable) -> NewEvent {
        let json = (try? JSONCoding.encodeText(data)) ?? "{}"
        return NewEvent(time: now, vehicleId: vehicleId, tripIds: tripIds, type: type, data: json)
    }
}
