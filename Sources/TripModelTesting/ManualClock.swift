import Synchronization
import TripModel

/// A clock a test moves by hand: the one settable clock of the test suites, for everything
/// that reads a ``TripModel/WallClock`` (stores, fleets, token authorities) or plain seconds
/// (rate limiters, pixel budgets).
package final class ManualClock: Sendable {
    /// Where a clock starts unless told otherwise: 2025-02-05 17:02:31 UTC, the tests' epoch.
    package static let testEpoch = Timestamp(secondsSince1970: 1_738_774_951)

    private let time: Mutex<Timestamp>

    /// A clock reading `start` until it is moved.
    package init(_ start: Timestamp = ManualClock.testEpoch) { time = Mutex(start) }

    /// The time now.
    package var now: Timestamp { time.withLock { $0 } }

    /// This clock as a ``TripModel/WallClock``.
    package var wallClock: WallClock { WallClock { [self] in now } }

    /// This clock as seconds since 1970, the form rate limiters and budgets read.
    package var seconds: @Sendable () -> Double { { [self] in now.secondsSince1970 } }

    /// Moves the time on by `seconds` (one second unless told).
    package func advance(by seconds: Double = 1) { time.withLock { $0 = $0.adding(seconds: seconds) } }

    /// Sets the time to `timestamp`, forwards or back.
    package func set(_ timestamp: Timestamp) { time.withLock { $0 = timestamp } }
}
