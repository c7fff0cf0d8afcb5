import TripModel
import TripStore

/// Whether the fleet can take writes now: what `/readyz` answers (DESIGN §11).
public enum Readiness: Hashable, Sendable {
    /// The store reads and writes.
    case ready
    /// The store cannot take writes (or reads) now, for the reason given.
    case unavailable(String)
}

extension Fleet {
    /// Ready unless the store's writes fail for want of storage (``TripStore/health``) or it
    /// cannot be read. While writes fail, each check asks the store to probe with a write of
    /// its own, so readiness comes back by itself once space does, although nobody else
    /// writes to a server that says it is not ready. (A probe on a full disk fails before it
    /// writes anything, and concurrent probes share the store's transactions.)
    public func readiness() async -> Readiness {
        if store.health.failure != nil {
            do {
                try await store.probeWrites()
            } catch {
                return .unavailable(Self.reason(error))
            }
        }
        do {
            _ = try await store.latestEventID()
        } catch {
            return .unavailable(Self.reason(error))
        }
        return .ready
    }

    /// A storage failure's message; other errors are not described (`/readyz` answers
    /// anyone).
    private static func reason(_ error: any Error) -> String {
        (error as? StatusError)?.message ?? "the store cannot be reached"
    }
}
