import Geo

/// What vehicles have been observed to take to drive through one ``RoadCell``: the metres
/// driven and seconds taken there, summed over passes (the store keeps the sums bounded, so
/// older passes weigh less: ``Estimation/roadCellMemoryMeters``), and when the cell was last
/// observed.
public struct RoadCellPace: Hashable, Sendable {
    /// The road cell.
    package var cell: RoadCell
    /// Metres driven in the cell.
    public var meters: Double
    /// Seconds taken for them (stops at lights included).
    public var seconds: Double
    /// The server time of the latest observation.
    package var updated: Timestamp

    /// Creates a pace from its sums.
    package init(cell: RoadCell, meters: Double, seconds: Double, updated: Timestamp) {
        self.cell = cell
        self.meters = meters
        self.seconds = seconds
        self.updated = updated
    }

    /// Seconds per metre; nil while too little was driven to tell.
    package var secondsPerMeter: Double? {
        meters >= Estimation.roadCellMinimumMeters ? seconds / meters : nil
    }

    /// These sums with `pass` added, as every store adds a pass (the SQL stores in their
    /// upserts, with the same arithmetic): beyond `memoryMeters` the sums are scaled down
    /// first, so the cell follows its newer passes; an older pass does not move the time back.
    package func adding(_ pass: RoadCellPace, memoryMeters: Double) -> RoadCellPace {
        let scale = min(1, memoryMeters / max(meters, 1))
        return RoadCellPace(
            cell: cell, meters: meters * scale + pass.meters, seconds: seconds * scale + pass.seconds, updated: max(updated, pass.updated))
    }
}

extension RoadCellPace: Codable {
    private enum CodingKeys: String, CodingKey {
        case cell, meters, seconds, updated
    }

    /// Decodes a pace (the cell as its number).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cell = RoadCell(id: try c.decode(Int64.self, forKey: .cell))
        meters = try c.decode(Double.self, forKey: .meters)
        seconds = try c.decode(Double.self, forKey: .seconds)
        updated = try c.decode(Timestamp.self, forKey: .updated)
    }

    /// Encodes a pace (the cell as its number).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cell.id, forKey: .cell)
        try c.encode(meters, forKey: .meters)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(updated, forKey: .updated)
    }
}
