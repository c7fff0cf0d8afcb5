import ConnectionLimits
import NIOCore
import NIOEmbedded
import Testing

@Suite struct ConnectionBudgetTests {
    /// Up to the maximum connections are admitted, then the reserve's for health probes, then
    /// none; a released place is taken again.
    @Test func admitsUpToTheMaximumThenTheReserve() {
        let budget = ConnectionBudget(maximum: 2, reserve: 1)
        #expect(budget.admit() == .admitted)
        #expect(budget.admit() == .admitted)
        #expect(budget.admit() == .reserved)
        #expect(budget.admit() == .refused)
        #expect(budget.openConnections == 3)
        budget.release()
        budget.release()
        #expect(budget.admit() == .admitted)
    }

    /// A connected channel, as an accepted connection is.
    static func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    /// Closes `channel` as a socket closes: its close future completes (which an embedded
    /// channel does on its loop's next run).
    static func close(_ channel: EmbeddedChannel) throws {
        try channel.close().wait()
        channel.embeddedEventLoop.run()
    }

    /// A channel's place comes back when it closes; a refused channel took none.
    @Test func channelPlaceIsReleasedWhenItCloses() throws {
        let budget = ConnectionBudget(maximum: 1, reserve: 0)
        let first = try Self.connection()
        #expect(budget.admit(first) == .admitted)
        let second = try Self.connection()
        #expect(budget.admit(second) == .refused)
        try Self.close(second)
        #expect(budget.openConnections == 1)
        try Self.close(first)
        #expect(budget.openConnections == 0)
        #expect(budget.admit(try Self.connection()) == .admitted)
    }

    /// The default maximum leaves descriptors for the database and files, and has a ceiling.
    @Test func defaultMaximumFollowsTheFileLimit() {
        #expect(ConnectionBudget.defaultMaximum(fileLimit: 300) == 300 - ConnectionBudget.otherFiles - ConnectionBudget.healthReserve)
        #expect(ConnectionBudget.defaultMaximum(fileLimit: 1_024) == 896)
        #expect(ConnectionBudget.defaultMaximum(fileLimit: 1_048_576) == ConnectionBudget.defaultCeiling)
        #expect(ConnectionBudget.defaultMaximum(fileLimit: 50) == 1)
    }
}

@Suite struct OpenFileLimitTests {
    /// Raising sets the soft limit to the hard one, and the process sees it.
    @Test func raisesTheSoftLimitToTheHardOne() throws {
        let raised = try #require(OpenFileLimit.raiseToHard())
        #expect(raised.soft == raised.hard)
        #expect(OpenFileLimit.current() == raised)
    }
}
