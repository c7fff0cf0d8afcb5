import PostgresNIO
import TripModel

// VehicleCriteria as a condition on the vehicles table: the columns of migration 0007 hold
// what VehicleCriteria.matches reads (the SQLite store's VehicleCriteria+SQLite does the
// same there), so the condition selects the same vehicles.

extension VehicleCriteria {
    /// Appends the condition, `AND`-joined, on the vehicles table under `alias` ("v."), to a
    /// query being built; "true" when every vehicle meets the criteria.
    func appendPostgresCondition(to query: inout PostgresQuery.StringInterpolation, alias v: String) {
        var first = true
        func and(_ sql: String) {
            query.appendLiteral(first ? sql : " AND " + sql)
            first = false
        }
        if let vehicleState {
            and("\(v)vehicle_state = ")
            query.appendInterpolation(vehicleState.rawValue)
        }
        if !categories.isEmpty {
            and("\(v)category = ANY(")
            query.appendInterpolation(categories.map(\.rawValue))
            query.appendLiteral("::text[])")
        }
        if let minimumCapacity {
            and("\(v)capacity >= ")
            query.appendInterpolation(minimumCapacity)
        }
        if !tripTypes.isEmpty {
            and("(\(v)trip_types & ")
            query.appendInterpolation(Self.bits(of: tripTypes))
            query.appendLiteral("::integer) <> 0")
        }
        if let locatedSince {
            and("\(v)located_us >= ")
            query.appendInterpolation(locatedSince.microseconds)
        }
        if let onTrip {
            and("\(v)on_trip = ")
            query.appendInterpolation(onTrip)
        }
        if let area {
            // The grid cells first, for the position index (migration 0001).
            and("\(v)latitude_cell BETWEEN ")
            query.appendInterpolation(PositionCell.latitudeCell(area.low.latitude))
            query.appendLiteral(" AND ")
            query.appendInterpolation(PositionCell.latitudeCell(area.high.latitude))
            query.appendLiteral(" AND \(v)latitude BETWEEN ")
            query.appendInterpolation(area.low.latitude)
            query.appendLiteral(" AND ")
            query.appendInterpolation(area.high.latitude)
            if area.crossesAntimeridian {
                query.appendLiteral(" AND (\(v)longitude >= ")
                query.appendInterpolation(area.low.longitude)
                query.appendLiteral(" OR \(v)longitude <= ")
                query.appendInterpolation(area.high.longitude)
                query.appendLiteral(")")
            } else {
                query.appendLiteral(" AND \(v)longitude_cell BETWEEN ")
                query.appendInterpolation(PositionCell.longitudeCell(area.low.longitude))
                query.appendLiteral(" AND ")
                query.appendInterpolation(PositionCell.longitudeCell(area.high.longitude))
                query.appendLiteral(" AND \(v)longitude BETWEEN ")
                query.appendInterpolation(area.low.longitude)
                query.appendLiteral(" AND ")
                query.appendInterpolation(area.high.longitude)
            }
        }
        if let attributes {
            and("")
            Self.append(attributes, to: &query, alias: v)
        }
        if first { query.appendLiteral("true") }
    }

    /// A restriction is a substring of the vehicle's attribute text.
    private static func append(_ condition: AttributeCondition, to query: inout PostgresQuery.StringInterpolation, alias v: String) {
        switch condition {
        case .restriction(let restriction):
            query.appendLiteral("strpos(\(v)attribute_text, ")
            query.appendInterpolation(restriction.indexNeedle)
            query.appendLiteral(") > 0")
        case .all(let parts), .any(let parts):
            let all: Bool
            if case .all = condition { all = true } else { all = false }
            guard !parts.isEmpty else { return query.appendLiteral(all ? "true" : "false") }
            query.appendLiteral("(")
            for (i, part) in parts.enumerated() {
                if i > 0 { query.appendLiteral(all ? " AND " : " OR ") }
                append(part, to: &query, alias: v)
            }
            query.appendLiteral(")")
        }
    }
}
