import NIOCore

/// When a PostgreSQL store asks whether a database that is slow to answer is there at all, and
/// how long it gives the answer (DatabaseLiveness). A write on a silent database fails after
/// about ``suspicion`` + ``check``.
///
/// The right figures depend on how crowded the machine is: a server's store asks on a
/// connection it keeps open for the purpose, which a healthy database answers in milliseconds
/// even when busy, so ``serving`` fails writes within 2 s (issue 29, item 5). A process that
/// opens dozens of stores at once on two cores (the test suite, a batch of fixture runs) saw
/// healthy databases take over a second to answer `SELECT 1` and over 1.5 s to accept a
/// connection, and called them gone at those figures: it uses ``patient``.
public struct PostgresLivenessTimings: Sendable, Hashable {
    /// How long a statement or a connection attempt waits before the store asks. Our
    /// statements take milliseconds (writes skip locked rows rather than wait for them).
    package var suspicion: Duration
    /// How long `SELECT 1` on the kept connection may take before the database counts as gone.
    package var check: Duration
    /// How long a check may take when it must first open its connection (the first check of
    /// a store that does not keep one, or after the kept one was dropped).
    package var connectingCheck: Duration

    /// Timings from their parts.
    package init(suspicion: Duration, check: Duration, connectingCheck: Duration) {
        self.suspicion = suspicion
        self.check = check
        self.connectingCheck = connectingCheck
    }

    /// A server's: writes on a silent database fail within 1.5 s (2 s when a check found the
    /// database there just before it went silent).
    public static let serving = PostgresLivenessTimings(suspicion: .milliseconds(500), check: .seconds(1), connectingCheck: .seconds(5))
    /// Many stores sharing a busy machine: about 5 s.
    package static let patient = PostgresLivenessTimings(suspicion: .seconds(2), check: .seconds(3), connectingCheck: .seconds(5))
}

extension TimeAmount {
    /// `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
