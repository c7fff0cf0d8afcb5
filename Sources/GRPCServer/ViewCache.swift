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

    /// A cache of views of about `byteLimit` bytes in all.
    init(byteLimit: Int = CacheBudget.standard.messageViews) {
        entries = BoundedCache(capacity: .max, costLimit: byteLimit)
    }

    /// The view's message at `revision`, made by `make` on a miss.
    func message(key: String, revision: Revision, make: () throws -> Maps_Fleetengine_V1_Trip) rethrows -> Maps_Fleetengine_V1_Trip {
        if let hit = entries.value(forKey: key), hit.revision == revision { return hit.message }
        let message = try make()
        // The encoded size is what the message's storage holds, near enough; a miss pays one
        // encoding more beside the JSON round trip that made the message.
        let size = (try? message.serializedBytes() as [UInt8])?.count ?? 0
        // A message's decoded storage holds more than its encoding: a box per submessage.
        entries.setValue(Entry(revision: revision, message: message), forKey: key, cost: size * 2 + key.utf8.count + 160)
        return message
    }
}
