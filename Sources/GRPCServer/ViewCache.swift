import Caching
import FleetEngineProtos
import TripStore

/// Trip views as response messages, by trip, view and revision (the gRPC twin of REST's
/// encoded-view cache): an entry is used only for the revision it was made from, so a write
/// anywhere, on any server, is never answered stale.
final class ViewCache: Sendable {
    private struct Entry: Sendable {
        var revision: Revision
        var message: Maps_Fleetengine_V1_Trip
    }

    private let entries: BoundedCache<String, Entry>

    /// A cache of at most `capacity` views and about `byteLimit` bytes of them.
    init(capacity: Int = 20_000, byteLimit: Int = 128 << 20) {
        entries = BoundedCache(capacity: capacity, costLimit: byteLimit)
    }

    /// The view's message at `revision`, made by `make` on a miss.
    func message(key: String, revision: Revision, make: () throws -> Maps_Fleetengine_V1_Trip) rethrows -> Maps_Fleetengine_V1_Trip {
        if let hit = entries.value(forKey: key), hit.revision == revision { return hit.message }
        let message = try make()
        // The encoded size is what the message's storage holds, near enough; a miss pays one
        // encoding more beside the JSON round trip that made the message.
        let size = (try? message.serializedBytes() as [UInt8])?.count ?? 0
        entries.setValue(Entry(revision: revision, message: message), forKey: key, cost: size)
        return message
    }
}
