// The reads of one vehicle row and of one trip (with its vehicle when the trip's live fields
// are read from it), shared by transactions (blocking) and the store's own async reads.
//
// Each read is one statement that returns the rows' current versions, and their bodies only
// when the cache does not hold those versions already (the statement is given the versions
// the cache holds): a read of an unchanged row costs one round trip and no decoding, and a
// row another process wrote comes back whole.

import Foundation
import JSON
import NIOCore
import PostgresNIO
import TripModel
import TripStore

/// What a read found.
enum RowRead<Value> {
    /// No such row.
    case absent
    /// The value and the cache updates its decoding brings.
    case found(Value, [CacheUpdate])
    /// The cache dropped the version the statement was told it holds: read again without.
    case cacheRace
}

enum RowReads {
    static func key(_ provider: String, _ id: String) -> String { provider + "/" + id }

    // MARK: Vehicles

    /// Decodes a vehicle read (VehicleRead, VehicleForWrite): its first seven columns.
    static func vehicle(_ rows: [PostgresRow], key: String, caches: DecodedRowCaches) throws -> RowRead<VehicleRecord> {
        guard let row = rows.first else { return .absent }
        let (version, body, tracking, state, routeVersion, polyline, checkpoints) =
            try row.decode((Int64, String?, String?, ByteBuffer?, Int64, String?, ByteBuffer?).self)
        guard let body, let tracking else {
            guard let cached = caches.vehicles.value(for: key, version: version) else { return .cacheRace }
            return .found(cached, [])
        }
        let record = try vehicleRecord(
            body: body, tracking: tracking, state: state, routeVersion: routeVersion, polyline: polyline, checkpoints: checkpoints)
        return .found(record, [.vehicle(key, version, record)])
    }

    /// A vehicle record from its row's columns and its route row's (migration 0009).
    static func vehicleRecord(
        body: String, tracking: String, state: ByteBuffer?, routeVersion: Int64, polyline: String?, checkpoints: ByteBuffer?
    ) throws -> VehicleRecord {
        var vehicle = try StoredRows.decode(Vehicle.self, body)
        let tracking = try StoredRows.decode(RouteTracking.self, tracking)
        let route = StoredRoute.attach(
            polyline: polyline, checkpoints: checkpoints?.readableBytesView, to: &vehicle, tracking: tracking)
        return VehicleRecord(
            vehicle: vehicle, tracking: tracking,
            navigator: NavigatorRecord(state: state.map { Array($0.readableBytesView) }, routeVersion: routeVersion), route: route)
    }

    /// A vehicle from its row's body and tracking and its route's row (migration 0009), for
    /// reads that keep no measure.
    static func vehicle(body: String, tracking: String, polyline: String?, checkpoints: ByteBuffer?) throws -> Vehicle {
        StoredRoute.vehicle(
            body: try StoredRows.decode(Vehicle.self, body), tracking: try StoredRows.decode(RouteTracking.self, tracking), polyline: polyline,
            checkpoints: checkpoints?.readableBytesView)
    }

    /// The row version of a vehicle read's row.
    static func vehicleVersion(_ rows: [PostgresRow]) throws -> Int64? {
        try rows.first?.decode(Int64.self)
    }

    /// The unfinished trips (IDs and row versions, oldest first) a VehicleForWrite row lists.
    static func unfinishedTrips(_ rows: [PostgresRow]) throws -> [(id: String, version: Int64)] {
        guard let row = rows.first else { return [] }
        let (_, _, _, _, _, _, _, ids, versions) =
            try row.decode((Int64, String?, String?, ByteBuffer?, Int64, String?, ByteBuffer?, [String], [Int64]).self)
        return Array(zip(ids, versions))
    }

    // MARK: Trips

    /// The versions to send with a trip read: the cached trip row's, and its vehicle's.
    static func cachedTripVersions(provider: String, id: String, caches: DecodedRowCaches) -> (trip: Int64, vehicle: Int64) {
        let key = key(provider, id)
        guard let tripVersion = caches.trips.version(for: key) else { return (-1, -1) }
        let vehicleId = caches.trips.value(for: key, version: tripVersion)?.trip.vehicleId
        let vehicleVersion = vehicleId.flatMap { caches.vehicles.version(for: Self.key(provider, $0)) } ?? -1
        return (tripVersion, vehicleVersion)
    }

    /// Decodes a trip read's row (TripRead, TripForWrite): the trip as riders read it, with its revision, and its
    /// row as stored. `vehicleHere` is the vehicle as the caller's transaction holds it, if
    /// it does (then it is the one to compose with).
    static func trip(
        _ rows: [PostgresRow], provider: String, id: String, caches: DecodedRowCaches, compose: Bool,
        vehicleHere: (String) -> VehicleRecord? = { _ in nil }
    ) throws -> RowRead<(trip: Revisioned<Trip>, row: TripRow)> {
        guard let row = rows.first else { return .absent }
        let key = key(provider, id)
        let (
            tripVersion, progressFromVehicle, vehicleId, tripBody, vehicleVersion, vehicleBody, tracking, state, routeVersion, polyline, checkpoints
        ) =
            try row.decode((Int64, Bool, String?, String?, Int64?, String?, String?, ByteBuffer?, Int64?, String?, ByteBuffer?).self)
        var updates: [CacheUpdate] = []
        let stored: TripRow
        if let tripBody {
            stored = TripRow(trip: try StoredRows.decode(Trip.self, tripBody), progressFromVehicle: progressFromVehicle)
            updates.append(.trip(key, tripVersion, stored))
        } else if let cached = caches.trips.value(for: key, version: tripVersion) {
            stored = cached
        } else {
            return .cacheRace
        }
        guard compose, stored.progressFromVehicle, let vehicleId, let vehicleVersion else {
            return .found((Revisioned(value: stored.trip, revision: Revision(row: tripVersion)), stored), updates)
        }
        let vehicleKey = Self.key(provider, vehicleId)
        let revision = Revision(row: tripVersion, vehicleRow: vehicleVersion)
        if let here = vehicleHere(vehicleKey) {
            return .found((Revisioned(value: stored.trip.withProgress(of: here.vehicle), revision: revision), stored), updates)
        }
        if let composed = caches.composedTrips.value(for: key, version: vehicleVersion), composed.revision.row == tripVersion {
            return .found((composed, stored), updates)
        }
        let vehicle: Vehicle
        if let vehicleBody, let tracking {
            let record = try vehicleRecord(
                body: vehicleBody, tracking: tracking, state: state, routeVersion: routeVersion ?? 0, polyline: polyline,
                checkpoints: checkpoints)
            updates.append(.vehicle(vehicleKey, vehicleVersion, record))
            vehicle = record.vehicle
        } else if let cached = caches.vehicles.value(for: vehicleKey, version: vehicleVersion) {
            vehicle = cached.vehicle
        } else {
            return .cacheRace
        }
        return .found((Revisioned(value: stored.trip.withProgress(of: vehicle), revision: revision), stored), updates)
    }

    /// Keeps a trip composed for riders, for the next reader of the same revision.
    static func rememberComposed(_ trip: Revisioned<Trip>, provider: String, id: String, caches: DecodedRowCaches) {
        guard trip.revision.vehicleRow != 0 else { return }
        caches.composedTrips.store(trip, for: key(provider, id), version: trip.revision.vehicleRow)
    }

    /// The statement of a trip row's update; returns the new row_version.
    static func tripUpdate(provider: String, id: String, _ row: TripRow) throws -> PostgresQuery {
        let trip = row.trip
        let body = try JSONCoding.encodeText(row.storedTrip)
        return """
            UPDATE trips SET row_version = row_version + 1, vehicle_id = \(trip.vehicleId), trip_status = \(trip.tripStatus.rawValue),
                unfinished = \(!trip.tripStatus.isTerminal), body = \(body),
                progress_from_vehicle = \(row.progressFromVehicle)
            WHERE provider = \(provider) AND trip_id = \(id) RETURNING row_version
            """
    }
}
