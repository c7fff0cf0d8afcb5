import NIOCore
import NIOPosix
import PostgresStore
import Synchronization

/// A TCP relay on 127.0.0.1 in front of the test database that a test can cut, as when the
/// database goes away (a restart, a network failure): while cut, it closes every connection it
/// relays and each new one at once. Only the stores pointed at it notice; other tests sharing
/// the database go on.
final class TCPRelay: Sendable {
    /// The port it listens on.
    let port: Int
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let connections = Connections()
    private let serving: Task<Void, Never>

    /// Listens on a free port and relays each connection to `upstream`.
    init(to upstream: PostgresLocation.Endpoint) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        self.server = server
        port = server.channel.localAddress?.port ?? 0
        let connections = connections
        serving = Task {
            try? await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await client in inbound {
                        group.addTask { await Self.relay(client, to: upstream, connections) }
                    }
                }
            }
        }
    }

    /// The database goes away: open connections close, new ones are closed as they come.
    func cut() async {
        for channel in connections.cut() { try? await channel.close() }
    }

    /// The database is back.
    func restore() {
        connections.restore()
    }

    /// Closes every connection and stops listening.
    func shutdown() async {
        await cut()
        try? await server.channel.close()
        await serving.value
    }

    /// Copies bytes both ways until either side closes or the relay is cut.
    private static func relay(
        _ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, to upstream: PostgresLocation.Endpoint, _ connections: Connections
    ) async {
        guard connections.admit(client.channel) else {
            try? await client.channel.close()
            return
        }
        defer { connections.forget(client.channel) }
        do {
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            let wrap: @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
            let server: NIOAsyncChannel<ByteBuffer, ByteBuffer>
            switch upstream {
            case .tcp(let host, let port): server = try await bootstrap.connect(host: host, port: port, channelInitializer: wrap)
            case .unixSocket(let directory, let port):
                server = try await bootstrap.connect(unixDomainSocketPath: "\(directory)/.s.PGSQL.\(port)", channelInitializer: wrap)
            }
            guard connections.admit(server.channel) else {
                try? await server.channel.close()
                try? await client.channel.close()
                return
            }
            defer { connections.forget(server.channel) }
            try await client.executeThenClose { fromClient, toClient in
                try await server.executeThenClose { fromServer, toServer in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { for try await bytes in fromClient { try await toServer.write(bytes) } }
                        group.addTask { for try await bytes in fromServer { try await toClient.write(bytes) } }
                        // Either side's end ends both.
                        try await group.next()
                        group.cancelAll()
                    }
                }
            }
        } catch {
            try? await client.channel.close()
        }
    }

    /// The relayed connections' channels, and whether the relay is cut.
    private final class Connections: Sendable {
        private struct State {
            var cut = false
            var open: [any Channel] = []
        }
        private let state = Mutex(State())

        /// Tracks `channel`; false while cut.
        func admit(_ channel: any Channel) -> Bool {
            state.withLock { state in
                if state.cut { return false }
                state.open.append(channel)
                return true
            }
        }

        func forget(_ channel: any Channel) {
            state.withLock { state in state.open.removeAll { $0 === channel } }
        }

        /// Cuts the relay; returns the channels to close.
        func cut() -> [any Channel] {
            state.withLock { state in
                state.cut = true
                defer { state.open = [] }
                return state.open
            }
        }

        func restore() {
            state.withLock { $0.cut = false }
        }
    }
}
