import GRDB
import TripModel

// VehicleCriteria as a condition on the vehicles table: the columns of migration 0016 hold
// what VehicleCriteria.matches reads, so the condition selects the same vehicles (the store
// conformance checks compare both on a random fleet).

extension VehicleCriteria {
    /// The condition, `AND`-joined, on `vehicles` (no alias), with its arguments; "1" when
    /// every vehicle meets the criteria.
    func sqliteCondition() -> (sql: String, arguments: StatementArguments) {
        var parts: [String] = []
        var arguments: StatementArguments = []
        if let vehicleState {
            parts.append("vehicle_state = ?")
            arguments += [vehicleState.rawValue]
        }
        if !categories.isEmpty {
            parts.append("category IN (\(Array(repeating: "?", count: categories.count).joined(separator: ", ")))")
            arguments += StatementArguments(categories.map(\.rawValue))
        }
        if let minimumCapacity {
            parts.append("capacity >= ?")
            arguments += [minimumCapacity]
        }
        if !tripTypes.isEmpty {
            parts.append("(trip_types & ?) != 0")
            arguments += [Self.bits(of: tripTypes)]
        }
        if let locatedSince {
            parts.append("located_us >= ?")
            arguments += [locatedSince.microseconds]
        }
        if let onTrip {
            parts.append("on_trip = ?")
            arguments += [onTrip]
        }
        if let area {
            // The grid cells first, for the position index (migration 0008).
            let south = PositionCell.latitudeCell(area.low.latitude)
            let north = PositionCell.latitudeCell(area.high.latitude)
            parts.append("latitude_cell BETWEEN ? AND ? AND latitude BETWEEN ? AND ?")
            arguments += [south, north, area.low.latitude, area.high.latitude]
            if area.crossesAntimeridian {
                parts.append("(longitude >= ? OR longitude <= ?)")
            } else {
                let west = PositionCell.longitudeCell(area.low.longitude)
                let east = PositionCell.longitudeCell(area.high.longitude)
                parts.append("longitude_cell BETWEEN ? AND ? AND longitude BETWEEN ? AND ?")
                arguments += [west, east]
            }
            arguments += [area.low.longitude, area.high.longitude]
        }
        if let attributes {
            parts.append(Self.sql(attributes, &arguments))
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    }

    /// A restriction is a substring of the vehicle's attribute text.
    private static func sql(_ condition: AttributeCondition, _ arguments: inout StatementArguments) -> String {
        switch condition {
        case .restriction(let restriction):
            arguments += [restriction.indexNeedle]
            return "instr(attribute_text, ?) > 0"
        case .all(let parts):
            return parts.isEmpty ? "1" : "(" + parts.map { sql($0, &arguments) }.joined(separator: " AND ") + ")"
        case .any(let parts):
            return parts.isEmpty ? "0" : "(" + parts.map { sql($0, &arguments) }.joined(separator: " OR ") + ")"
        }
    }
}
