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

    /// The order every batch takes the rows in: road cells first, then areas, each by key.
    static func lockOrder(_ a: AggregateAddition, _ b: AggregateAddition) -> Bool {
        a.lockKey.lexicographicallyPrecedes(b.lockKey) { $0 < $1 }
    }

    private var lockKey: [LockKeyPart] {
        switch self {
        case .roadCell(let provider, let pace, _): [.number(0), .text(provider), .number(pace.cell.id)]
        case .area(let provider, let observation, _):
            [.number(1), .text(provider), .number(Int64(observation.kind.rawValue)), .number(observation.area)]
        }
    }

    private enum LockKeyPart: Comparable {
        case number(Int64)
        case text(String)
    }
}

extension [AggregateAddition] {
    /// `paces` (as read) with this batch's additions to the same cells of `provider` applied
    /// in order; the rows read keep their order, cells only added here follow.
    func applied(to paces: [RoadCellPace], provider: String, cells: [RoadCell]) -> [RoadCellPace] {
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
