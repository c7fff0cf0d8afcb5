import Synchronization
import TripModel
import TripStore

/// Whether the fleet can take writes now: what `/readyz` answers (DESIGN §11).
package enum Readiness: Hashable, Sendable {
    /// The store reads and writes.
    case ready
    /// The store cannot take writes (or reads) now, for the reason given.
    case unavailable(String)
}

extension Fleet {
    /// How long a readiness check waits for the store: a load balancer should hear "not ready"
    /// within a second of the database going away, whatever the store's own time-outs.
    package static let readinessDeadline = Duration.milliseconds(readinessDeadlineMilliseconds)
    private static let readinessDeadlineMilliseconds = 800

    /// Ready unless the store's writes fail for want of storage (``TripStore/health``) or it
    /// cannot be read, within ``readinessDeadline``. Until a write has succeeded since start
    /// and while writes fail, each check asks the store to probe with a write of its own: so a
    /// server started on a full disk or an unwritable database says so before the first write
    /// fails, and readiness comes back by itself once space does, although nobody else writes
    /// to a server that says it is not ready. (A probe on a full disk fails before it writes
    /// anything, and concurrent probes share the store's transactions.) Checks that overlap
    /// share one look at the store, so a store that hangs gets one, not one per probe.
    package func readiness() async -> Readiness {
        let check = readinessCheck.current { [store] in await Self.checkReadiness(store) }
        return await withDeadline(Self.readinessDeadline, of: check) {
            .unavailable("the store did not answer within \(Self.readinessDeadlineMilliseconds) ms")
        }
    }

    private static func checkReadiness(_ store: any TripStore) async -> Readiness {
        if store.health.failure != nil || !store.health.hasSucceeded {
            do {
                try await store.probeWrites()
            } catch {
                return .unavailable(reason(error))
            }
        }
        do {
            _ = try await store.latestEventID()
        } catch {
            return .unavailable(reason(error))
        }
        return .ready
    }

    /// A storage failure's message; other errors are not described (`/readyz` answers
    /// anyone).
    private static func reason(_ error: any Error) -> String {
        (error as? StatusError)?.message ?? "the store cannot be reached"
    }
}

/// The readiness check under way, which later checks join rather than start their own.
final class ReadinessCheck: Sendable {
    private let running = Mutex<Task<Readiness, Never>?>(nil)

    /// The check under way, or one started now with `check`.
    func current(_ check: @escaping @Sendable () async -> Readiness) -> Task<Readiness, Never> {
        running.withLock { running in
            if let task = running { return task }
            let task = Task {
                let readiness = await check()
                self.finished()
                return readiness
            }
            running = task
            return task
        }
    }

    private func finished() {
        running.withLock { $0 = nil }
    }
}

/// `task`'s value, or `late()`'s when it has none after `deadline` (the task goes on).
private func withDeadline<T: Sendable>(_ deadline: Duration, of task: Task<T, Never>, late: @escaping @Sendable () -> T) async -> T {
    let answer = FirstAnswer<T>()
    return await withCheckedContinuation { continuation in
        answer.wait(continuation)
        Task { answer.give(await task.value) }
        Task {
            try? await Task.sleep(for: deadline)
            answer.give(late())
        }
    }
}

/// A continuation resumed by the first of several answers.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

    func wait(_ waiting: CheckedContinuation<T, Never>) { continuation.withLock { $0 = waiting } }

    func give(_ value: T) { continuation.withLock { $0.take() }?.resume(returning: value) }
}
