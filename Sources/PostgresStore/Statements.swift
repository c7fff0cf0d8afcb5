// The statements on the hot paths, prepared once per connection (postgres-nio prepares a
// PostgresPreparedStatement on first use and reuses it by name): a rider's read of a trip and
// a write's read of its vehicle run thousands of times a second, and parsing and planning
// them anew each time cost the database more than executing them.
//
// Each returns its rows undecoded (RowReads decodes them, whichever way they were read).

import NIOCore
import PostgresNIO
import TripStore

/// A prepared statement whose rows RowReads decodes.
protocol RowStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension RowStatement {
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// Binds `provider`, `id` and a cached row version (-1 for none).
private func bindings(_ provider: String, _ id: String, _ versions: Int64...) -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 2 + versions.count)
    bindings.append(provider)
    bindings.append(id)
    for version in versions { bindings.append(version) }
    return bindings
}

/// Columns: row_version, body, tracking, navigator_state (the last three NULL when `cached`
/// is the row's version: the caller holds it decoded), navigator_route_version, and the
/// route row's polyline and checkpoints (migrations 0009 and 0010; NULL when cached too).
private func vehicleColumns(cached: String = "$3") -> String {
    """
    v.row_version, CASE WHEN v.row_version = \(cached) THEN NULL ELSE v.body END,
        CASE WHEN v.row_version = \(cached) THEN NULL ELSE v.tracking END,
        CASE WHEN v.row_version = \(cached) THEN NULL ELSE v.navigator_state END, v.navigator_route_version,
        \(routeColumns(unless: "v.row_version = \(cached)"))
    """
}

/// The vehicle `v`'s route polyline and checkpoints (migrations 0009 and 0010), NULL when
/// `condition` holds (the caller holds the vehicle decoded) or it has no route row.
func routeColumns(unless condition: String = "false") -> String {
    """
    CASE WHEN \(condition) THEN NULL ELSE (SELECT vr.polyline FROM vehicle_routes vr WHERE vr.vehicle = v.id) END,
        CASE WHEN \(condition) THEN NULL ELSE (SELECT vr.checkpoints FROM vehicle_routes vr WHERE vr.vehicle = v.id) END
    """
}

/// The IDs and row versions of a vehicle's unfinished trips, oldest first: two array columns.
private let unfinishedTripColumns = """
    ARRAY(SELECT t.trip_id FROM trips t WHERE t.provider = v.provider AND t.vehicle_id = v.vehicle_id AND t.unfinished
          ORDER BY t.id),
    ARRAY(SELECT t.row_version FROM trips t WHERE t.provider = v.provider AND t.vehicle_id = v.vehicle_id AND t.unfinished
          ORDER BY t.id)
    """

/// A vehicle as a reader sees it.
struct VehicleRead: RowStatement {
    static let sql = "SELECT \(vehicleColumns()) FROM vehicles v WHERE v.provider = $1 AND v.vehicle_id = $2"
    var provider: String
    var id: String
    var cachedVersion: Int64

    func makeBindings() throws -> PostgresBindings { bindings(provider, id, cachedVersion) }
}

/// A vehicle locked for a write (another transaction's lock: no row), with the IDs and row
/// versions of its unfinished trips, oldest first: a vehicle write reads those next, and they
/// cannot change while the vehicle is locked (WriteBatch).
struct VehicleForWrite: RowStatement {
    static let sql = """
        SELECT \(vehicleColumns()), \(unfinishedTripColumns)
        FROM vehicles v WHERE v.provider = $1 AND v.vehicle_id = $2 FOR UPDATE OF v SKIP LOCKED
        """
    var provider: String
    var id: String
    var cachedVersion: Int64

    func makeBindings() throws -> PostgresBindings { bindings(provider, id, cachedVersion) }
}

/// Several vehicles locked for a write at once (``WriteLane``'s lock ahead): the columns of
/// ``VehicleForWrite`` for each vehicle found and not locked by another transaction, then its
/// provider and ID. $1 and $2 are the providers and IDs, $3 the cached row versions.
struct VehiclesForWrite: RowStatement {
    static let sql = """
        SELECT \(vehicleColumns(cached: "r.cached_version")), \(unfinishedTripColumns), v.provider, v.vehicle_id
        FROM unnest($1::text[], $2::text[], $3::int8[]) AS r(provider, vehicle_id, cached_version)
        JOIN vehicles v ON v.provider = r.provider AND v.vehicle_id = r.vehicle_id
        FOR UPDATE OF v SKIP LOCKED
        """
    var providers: [String]
    var ids: [String]
    var cachedVersions: [Int64]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(providers)
        bindings.append(ids)
        bindings.append(cachedVersions)
        return bindings
    }

    /// The provider and ID of the vehicle a row is: its last two columns.
    static func key(of row: PostgresRow) throws -> VehicleKey {
        let columns = PostgresRandomAccessRow(row)
        return VehicleKey(
            provider: try columns[9].decode(String.self, context: .default), id: try columns[10].decode(String.self, context: .default))
    }
}

/// A trip and, when its row is marked so, its vehicle. Columns: the trip's row_version,
/// progress_from_vehicle, vehicle_id and body (NULL when $3 is its version), the vehicle's
/// row_version, body, tracking and navigator_state (NULL when $4 is its version, or not
/// joined), navigator_route_version and its route's polyline and checkpoints (NULL
/// as the body is).
private let tripSelect = """
    SELECT t.row_version, t.progress_from_vehicle, t.vehicle_id, CASE WHEN t.row_version = $3 THEN NULL ELSE t.body END,
        v.row_version, CASE WHEN v.row_version = $4 THEN NULL ELSE v.body END, CASE WHEN v.row_version = $4 THEN NULL ELSE v.tracking END,
        CASE WHEN v.row_version = $4 THEN NULL ELSE v.navigator_state END, v.navigator_route_version,
        \(routeColumns(unless: "v.row_version = $4"))
    FROM trips t
    LEFT JOIN vehicles v ON t.progress_from_vehicle AND v.provider = t.provider AND v.vehicle_id = t.vehicle_id
    WHERE t.provider = $1 AND t.trip_id = $2
    """

/// A trip as riders read it.
struct TripRead: RowStatement {
    static let sql = tripSelect
    var provider: String
    var id: String
    var cachedTrip: Int64
    var cachedVehicle: Int64

    func makeBindings() throws -> PostgresBindings { bindings(provider, id, cachedTrip, cachedVehicle) }
}

/// A trip locked for a write (another transaction's lock: no row).
struct TripForWrite: RowStatement {
    static let sql = tripSelect + " FOR UPDATE OF t SKIP LOCKED"
    var provider: String
    var id: String
    var cachedTrip: Int64
    var cachedVehicle: Int64

    func makeBindings() throws -> PostgresBindings { bindings(provider, id, cachedTrip, cachedVehicle) }
}

/// Several riders' trip reads in one statement (``TripReadBatcher``): the columns of
/// ``TripRead`` for each trip found, then the read's position in the arrays (from 1). $1 and $2
/// are the providers and trip IDs, $3 and $4 the cached trip and vehicle row versions.
struct TripReads: RowStatement {
    static let sql = """
        SELECT t.row_version, t.progress_from_vehicle, t.vehicle_id, CASE WHEN t.row_version = r.cached_trip THEN NULL ELSE t.body END,
            v.row_version, CASE WHEN v.row_version = r.cached_vehicle THEN NULL ELSE v.body END,
            CASE WHEN v.row_version = r.cached_vehicle THEN NULL ELSE v.tracking END,
            CASE WHEN v.row_version = r.cached_vehicle THEN NULL ELSE v.navigator_state END, v.navigator_route_version,
            CASE WHEN v.row_version = r.cached_vehicle THEN NULL ELSE (SELECT vr.polyline FROM vehicle_routes vr WHERE vr.vehicle = v.id) END,
            CASE WHEN v.row_version = r.cached_vehicle THEN NULL ELSE (SELECT vr.checkpoints FROM vehicle_routes vr WHERE vr.vehicle = v.id) END,
            r.position
        FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[]) WITH ORDINALITY
            AS r(provider, trip_id, cached_trip, cached_vehicle, position)
        JOIN trips t ON t.provider = r.provider AND t.trip_id = r.trip_id
        LEFT JOIN vehicles v ON t.progress_from_vehicle AND v.provider = t.provider AND v.vehicle_id = t.vehicle_id
        """
    var reads: [TripRead]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(reads.map(\.provider))
        bindings.append(reads.map(\.id))
        bindings.append(reads.map(\.cachedTrip))
        bindings.append(reads.map(\.cachedVehicle))
        return bindings
    }

    /// The position (from 0) in ``reads`` of the read a row answers: its last column.
    static func position(of row: PostgresRow) throws -> Int {
        Int(try PostgresRandomAccessRow(row)[11].decode(Int64.self, context: .default)) - 1
    }
}
