import Foundation

/// The time source of everything that stamps or estimates: injected so tests and fixture
/// replays run on a fixed or scripted clock.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Timestamp

    /// A clock that reads `read`.
    package init(_ read: @escaping @Sendable () -> Timestamp) { self.read = read }

    /// The current time.
    package var now: Timestamp { read() }

    /// The system clock.
    public static let system = WallClock { Timestamp(Date()) }

    /// A clock stopped at `time`.
    package static func fixed(_ time: Timestamp) -> WallClock { WallClock { time } }
}
