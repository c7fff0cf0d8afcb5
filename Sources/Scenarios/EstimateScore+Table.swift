import Foundation

extension EstimateScore {
    /// The score as text lines for a terminal: one row per leg and one for all, ours and the
    /// driver app's side by side on the updates where both gave an estimate, then ours on
    /// every update we gave one on.
    package var table: [String] {
        var lines = [
            "remaining time against the real arrivals (updates with at least \(Int(Self.minimumSeconds)) s to go):",
            Self.row(
                "leg", "vehicle", "length", "scored", "ours", "both", "ours MAE", "median", "MAPE", "bias", "driver MAE", "median", "MAPE",
                "bias"),
        ]
        for (index, leg) in legs.enumerated() {
            lines.append(
                Self.line(
                    "\(index + 1)", leg.vehicleId, String(format: "%.0f s", leg.arrival.seconds(since: leg.start)), leg.score))
        }
        lines.append(Self.line("all", "", "", overall))
        if let ours = overall.ours {
            lines.append(
                String(
                    format: "ours on all %d updates with an estimate: MAE %.1f s, median %.1f s, MAPE %.1f%%, bias %+.1f s", ours.count,
                    ours.meanAbsolute, ours.medianAbsolute, 100 * ours.meanAbsolutePercentage, ours.bias))
        }
        for (index, leg) in legs.enumerated() {
            lines.append("  leg \(index + 1) ends at \(leg.arrival.rfc3339): \(leg.arrivalSign)")
        }
        return lines
    }

    private static func line(_ leg: String, _ vehicle: String, _ length: String, _ group: Group) -> String {
        func errors(_ e: Errors?) -> [String] {
            guard let e else { return ["-", "-", "-", "-"] }
            return [
                String(format: "%.1f s", e.meanAbsolute), String(format: "%.1f s", e.medianAbsolute),
                String(format: "%.1f%%", 100 * e.meanAbsolutePercentage), String(format: "%+.1f s", e.bias),
            ]
        }
        let cells =
            [leg, vehicle, length, "\(group.updates)", String(format: "%.0f%%", 100 * group.ourShare), "\(group.oursWhereBoth?.count ?? 0)"]
            + errors(group.oursWhereBoth) + errors(group.driverWhereBoth)
        return row(cells)
    }

    private static func row(_ cells: String...) -> String { row(cells) }

    private static func row(_ cells: [String]) -> String {
        let widths = [4, 12, 8, 7, 5, 5, 9, 8, 7, 9, 11, 8, 7, 9]
        return zip(cells, widths).map { cell, width in cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count) }
            .joined().trimmingCharacters(in: .whitespaces)
    }
}
