// A rider's read answered from what the caller already derived from the trip's current
// revision (an encoded view), read before the trip's rows: at 50,000 trips most reads missed
// the decoded and composed caches and decoded two rows to answer with a view the view cache
// already held (issue 30).

import TripModel

/// A trip, or what the caller keeps for its current revision.
package enum TripLookup<Known: Sendable>: Sendable {
    /// What the caller keeps for the trip's current revision: the trip was not read.
    case known(Known)
    /// The trip, read whole: the caller keeps nothing for its revision.
    case read(Revisioned<Trip>)
}

/// A store that can read a trip's revision before its rows, and skip the rows.
package protocol TripRevisionFirstReads: TripStore {
    /// What `known` returns for the trip's current revision or, when it returns nil, the trip
    /// read as ``TripStore/revisionedTrip(provider:id:)`` reads it; nil when the trip is absent.
    /// The caller keeps what it derives from a trip read here, so the store need not keep the
    /// trip for the next reader.
    func trip<Known: Sendable>(provider: String, id: String, known: (Revision) -> Known?) async throws -> TripLookup<Known>?
}
