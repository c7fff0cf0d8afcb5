import NIOCore
import PostgresNIO
import TripStore

extension WriteBatch {
    /// The statement that writes the vehicle rows changed in this batch, all at once, each
    /// version moved by the updates it stands for; it returns each row's new version. Nil when
    /// no vehicle changed.
    func vehicleUpdate() -> PostgresQuery? {
        guard !changedVehicles.isEmpty else { return nil }
        let changes = Array(changedVehicles.values)
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
        for change in changes {
            let vehicle = change.record.vehicle
            let location = vehicle.lastLocation?.location
            let cell = PostgresTransaction.cell(of: vehicle)
            providers.append(change.provider)
            ids.append(change.id)
            updates.append(change.updates)
            // Arrays cannot carry NULLs here: a flag (or '' for a state) says which are absent.
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
        }
        return """
            UPDATE vehicles v SET row_version = v.row_version + u.updates, vehicle_state = NULLIF(u.state, ''),
                latitude = CASE WHEN u.located THEN u.latitude END, longitude = CASE WHEN u.located THEN u.longitude END,
                latitude_cell = CASE WHEN u.located THEN u.latitude_cell END, longitude_cell = CASE WHEN u.located THEN u.longitude_cell END,
                body = u.body, tracking = u.tracking, navigator_state = CASE WHEN u.navigated THEN u.navigator_state END,
                navigator_route_version = u.route_version
            FROM unnest(\(providers)::text[], \(ids)::text[], \(updates)::bigint[], \(states)::text[], \(located)::boolean[],
                        \(latitudes)::float8[], \(longitudes)::float8[], \(latitudeCells)::bigint[], \(longitudeCells)::bigint[],
                        \(bodies)::text[], \(trackings)::text[], \(navigated)::boolean[], \(navigatorStates)::bytea[],
                        \(routeVersions)::bigint[])
                AS u(provider, vehicle_id, updates, state, located, latitude, longitude, latitude_cell, longitude_cell, body, tracking,
                     navigated, navigator_state, route_version)
            WHERE v.provider = u.provider AND v.vehicle_id = u.vehicle_id
            RETURNING v.provider, v.vehicle_id, v.row_version
            """
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
