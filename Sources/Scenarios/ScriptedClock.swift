// The clock of a replay: it reads whatever time the script last set, so the store stamps
// versions, computes ETAs and checks tokens at the scenario's times, and two runs of a
// scenario produce the same bytes.

import Synchronization
import TripModel

/// A clock that shows the time it was last set to.
package final class ScriptedClock: Sendable {
    private let time: Mutex<Timestamp>

    /// A clock showing `start`.
    package init(start: Timestamp) { time = Mutex(start) }

    /// The time shown.
    package var now: Timestamp { time.withLock { $0 } }

    /// Shows `newTime` from now on.
    package func set(_ newTime: Timestamp) { time.withLock { $0 = newTime } }

    /// The clock as stores, token authorities and renderers take it.
    package var wallClock: WallClock { WallClock { [self] in now } }
}
