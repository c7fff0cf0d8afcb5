// The fleet's sums (road-cell paces, area observations) are added to with upserts that lock
// their rows until the commit. Made as the writes of a batch go, two servers' batches locked
// the same rows in opposite orders and deadlocked about once per 10 s under full load;
// PostgreSQL broke each after `deadlock_timeout` (1 s) while both servers' writes waited. So a
// batch keeps its additions and makes them just before its commit, every batch in one order
// (the table, then the row's key): batches that meet wait for each other in turn and never in
// a circle. Reads in the batch see what it has yet to add (``PostgresTransaction``), as they
// would have seen the upserts.

import TripModel

/// A road-cell pass or an area observation a write batch adds before its commit.
enum AggregateAddition {
    case roadCell(provider: String, pace: RoadCellPace, memoryMeters: Double)
    case area(provider: String, observation: AreaObservation, memory: Double)

    /// Where the row comes in the order every batch takes the rows in: road cells first, then
    /// areas, each by provider and key.
    var lockKey: (table: Int, provider: String, kind: Int, key: Int64) {
        switch self {
        case .roadCell(let provider, let pace, _): (0, provider, 0, pace.cell.id)
        case .area(let provider, let observation, _): (1, provider, observation.kind.rawValue, observation.area)
        }
    }
}

extension [AggregateAddition] {
    /// `paces` (as read) with this batch's additions to the same cells of `provider` applied
    /// in order; the rows read keep their order, cells only added here follow.
    func applied(to paces: [RoadCellPace], provider: String, cells: [RoadCell]) -> [RoadCellPace] {
        guard !isEmpty else { return paces }
        let asked = Set(cells.map(\.id))
        return Self.applying(
            to: paces, key: \.cell.id,
            additions: compactMap { addition in
                guard case .roadCell(provider, let pace, let memory) = addition, asked.contains(pace.cell.id) else { return nil }
                return (pace.cell.id, { $0?.adding(pace, memoryMeters: memory) ?? pace })
            })
    }

    /// `observations` (as read) with this batch's additions to the same areas of `provider`
    /// applied in order; the rows read keep their order, areas only added here follow.
    func applied(to observations: [AreaObservation], provider: String, areas: [Int64]) -> [AreaObservation] {
        guard !isEmpty else { return observations }
        let asked = Set(areas)
        return Self.applying(
            to: observations, key: { [Int64($0.kind.rawValue), $0.area] },
            additions: compactMap { addition in
                guard case .area(provider, let observation, let memory) = addition, asked.contains(observation.area) else { return nil }
                return ([Int64(observation.kind.rawValue), observation.area], { $0?.adding(observation, memory: memory) ?? observation })
            })
    }

    private static func applying<Row, Key: Hashable>(
        to rows: [Row], key: (Row) -> Key, additions: [(key: Key, add: (Row?) -> Row)]
    ) -> [Row] {
        guard !additions.isEmpty else { return rows }
        var rows = rows
        var index = Dictionary(rows.indices.map { (key(rows[$0]), $0) }, uniquingKeysWith: { first, _ in first })
        for addition in additions {
            if let at = index[addition.key] {
                rows[at] = addition.add(rows[at])
            } else {
                index[addition.key] = rows.count
                rows.append(addition.add(nil))
            }
        }
        return rows
    }
}
