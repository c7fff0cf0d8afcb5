import TripModel

extension MemoryTransaction {
    func recordBillableTrip(provider: String, tripId: String, _ record: BillableTripRecord) throws -> BillableTripRecord {
        let key = InMemoryTripStore.Key(provider: provider, id: tripId)
        if let kept = state.billableTrips[key] { return kept }
        state.billableTrips[key] = record
        return record
    }

    func billableTrips(since: Timestamp, after: BillableTripRecord?, limit: Int) throws -> [BillableTripRecord] {
        let ordered = state.billableTrips.values.filter { $0.reportTime >= since }.sorted(by: BillableTripRecord.exportOrder)
        let start = after.map { last in ordered.firstIndex { BillableTripRecord.exportOrder(last, $0) } ?? ordered.count } ?? 0
        return Array(ordered[start...].prefix(limit))
    }
}

extension BillableTripRecord {
    /// The order of an export: by report time, then by name (byte by byte, as the stores sort).
    package static func exportOrder(_ a: BillableTripRecord, _ b: BillableTripRecord) -> Bool {
        a.reportTime != b.reportTime ? a.reportTime < b.reportTime : Array(a.name.utf8).lexicographicallyPrecedes(b.name.utf8)
    }
}
