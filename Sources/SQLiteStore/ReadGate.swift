import Foundation

/// Lets the writer hold the store's new reads back for the moment it starts the WAL over.
///
/// SQLite's RESTART checkpoint waits for every reader of the log to end, but a reader that
/// starts while it waits may take the very read mark it waits for, and readers that overlap
/// without a break then keep that mark for ever: under the tests' four overlapping readers a
/// 60 s wait ran out. With new reads held at the gate, the reads under way (milliseconds in
/// this server) end, and the checkpoint finds none. Reads from outside the store (a backup,
/// another process) do not pass the gate; the writer's deadline covers them.
final class ReadGate: @unchecked Sendable {
    // `reading` and `closed` are only read and written with `condition` locked.
    private let condition = NSCondition()
    private var reading = 0
    private var closed = false

    /// Runs `body` as a read: once the gate is open, and counted until it returns.
    func read<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        while closed { condition.wait() }
        reading += 1
        condition.unlock()
        defer {
            condition.lock()
            reading -= 1
            if reading == 0 { condition.broadcast() }
            condition.unlock()
        }
        return try body()
    }

    /// Closes the gate and waits until the reads under way have ended, or `deadline`; runs
    /// `body` with whether they had, and opens the gate again.
    func closed<T>(until deadline: Date, _ body: (_ drained: Bool) throws -> T) rethrows -> T {
        condition.lock()
        closed = true
        while reading > 0, condition.wait(until: deadline) {}
        let drained = reading == 0
        condition.unlock()
        defer {
            condition.lock()
            closed = false
            condition.broadcast()
            condition.unlock()
        }
        return try body(drained)
    }
}
