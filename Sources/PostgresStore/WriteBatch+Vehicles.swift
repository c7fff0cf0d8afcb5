import NIOCore
import PostgresNIO
import TripModel
import TripStore

extension WriteBatch {
    /// The statement that writes the vehicle rows changed in this batch, all at once, each
    /// version moved by the updates it stands for; it returns each row's new version. Nil when
    /// no vehicle changed.
    func vehicleUpdate() -> VehicleUpdates? {
        guard !changedVehicles.isEmpty else { return nil }
        var update = VehicleUpdates()
        for change in changedVehicles.values { update.append(change) }
        return update
    }

    /// Records the versions ``vehicleUpdate()`` returned, for the caches.
    func vehiclesWritten(_ rows: [PostgresRow]) throws {
        for row in rows {
            let (provider, id, version) = try row.decode((String, String, Int64).self)
            let key = RowReads.key(provider, id)
            if let change = changedVehicles[key] { cacheUpdates.append(.vehicle(key, version, change.record)) }
        }
        changedVehicles = [:]
    }
}

/// The vehicle rows a write batch changed, written in one prepared statement (parsed and
/// planned once per connection, not once per batch). Arrays cannot carry NULLs here: a flag
/// (or '' for a state) says which values are absent.
struct VehicleUpdates: RowStatement {
    static let sql = """
        UPDATE vehicles v SET row_version = v.row_version + u.updates, vehicle_state = NULLIF(u.state, ''),
            latitude = CASE WHEN u.located THEN u.latitude END, longitude = CASE WHEN u.located THEN u.longitude END,
            latitude_cell = CASE WHEN u.located THEN u.latitude_cell END, longitude_cell = CASE WHEN u.located THEN u.longitude_cell END,
            body = u.body, tracking = u.tracking, navigator_state = CASE WHEN u.navigated THEN u.navigator_state END,
            navigator_route_version = u.route_version, category = NULLIF(u.category, ''), capacity = u.capacity,
            trip_types = u.trip_types, on_trip = u.on_trip, attribute_text = u.attribute_text,
            located_us = CASE WHEN u.located_us >= 0 THEN u.located_us END
        FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::boolean[], $6::float8[], $7::float8[], $8::bigint[],
                    $9::bigint[], $10::text[], $11::text[], $12::boolean[], $13::bytea[], $14::bigint[], $15::text[], $16::bigint[],
                    $17::bigint[], $18::boolean[], $19::text[], $20::bigint[])
            AS u(provider, vehicle_id, updates, state, located, latitude, longitude, latitude_cell, longitude_cell, body, tracking,
                 navigated, navigator_state, route_version, category, capacity, trip_types, on_trip, attribute_text, located_us)
        WHERE v.provider = u.provider AND v.vehicle_id = u.vehicle_id
        RETURNING v.provider, v.vehicle_id, v.row_version
        """
    var providers: [String] = []
    var ids: [String] = []
    var updates: [Int64] = []
    var states: [String] = []
    var located: [Bool] = []
    var latitudes: [Double] = []
    var longitudes: [Double] = []
    var latitudeCells: [Int64] = []
    var longitudeCells: [Int64] = []
    var bodies: [String] = []
    var trackings: [String] = []
    var navigated: [Bool] = []
    var navigatorStates: [ByteBuffer] = []
    var routeVersions: [Int64] = []
    /// The listing columns (migration 0007): '' for no category, -1 for no location time.
    var categories: [String] = []
    var capacities: [Int64] = []
    var tripTypes: [Int64] = []
    var onTrip: [Bool] = []
    var attributeTexts: [String] = []
    var locatedTimes: [Int64] = []

    mutating func append(_ change: WriteBatch.ChangedVehicle) {
        let vehicle = change.record.vehicle
        let location = vehicle.lastLocation?.location
        let cell = PostgresTransaction.cell(of: vehicle)
        providers.append(change.provider)
        ids.append(change.id)
        updates.append(change.updates)
        states.append(vehicle.vehicleState?.rawValue ?? "")
        located.append(location != nil)
        latitudes.append(location?.latitude ?? 0)
        longitudes.append(location?.longitude ?? 0)
        latitudeCells.append(Int64(cell?.latitude ?? 0))
        longitudeCells.append(Int64(cell?.longitude ?? 0))
        bodies.append(change.body)
        trackings.append(change.tracking)
        navigated.append(change.record.navigator.state != nil)
        navigatorStates.append(ByteBuffer(bytes: change.record.navigator.state ?? []))
        routeVersions.append(change.record.navigator.routeVersion)
        let columns = VehicleCriteria.Columns(vehicle)
        categories.append(columns.category ?? "")
        capacities.append(Int64(columns.capacity))
        tripTypes.append(Int64(columns.tripTypes))
        onTrip.append(columns.onTrip)
        attributeTexts.append(columns.attributeText)
        locatedTimes.append(columns.locatedMicroseconds ?? -1)
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 20)
        bindings.append(providers)
        bindings.append(ids)
        bindings.append(updates)
        bindings.append(states)
        bindings.append(located)
        bindings.append(latitudes)
        bindings.append(longitudes)
        bindings.append(latitudeCells)
        bindings.append(longitudeCells)
        bindings.append(bodies)
        bindings.append(trackings)
        bindings.append(navigated)
        bindings.append(navigatorStates)
        bindings.append(routeVersions)
        bindings.append(categories)
        bindings.append(capacities)
        bindings.append(tripTypes)
        bindings.append(onTrip)
        bindings.append(attributeTexts)
        bindings.append(locatedTimes)
        return bindings
    }
}
