import NIOCore
import NIOPosix
import PostgresStore
import Synchronization

/// A TCP relay on 127.0.0.1 in front of the test database that a test can cut, as when the
/// database goes away (a restart, a network failure): while cut, it closes every connection it
/// relays and each new one at once. It can also freeze, as when the database's machine stops
/// (or the network between drops everything): connections stay open, new ones are accepted,
/// and nothing is answered. It can forget its connections, as a NAT or firewall that dropped
/// them while idle: the database sees them close, their clients only when they next send.
/// Only the stores pointed at it notice; other tests sharing
/// the database go on. It runs on NIO's event loops alone (channel handlers, no tasks), so a
/// test run that keeps Swift's cooperative threads busy does not slow it down.
final class TCPRelay: Sendable {
    /// The port it listens on.
    let port: Int
    private let server: any Channel
    private let connections: Connections

    /// Listens on a free port and relays each connection to `upstream`.
    init(to upstream: PostgresLocation.Endpoint) async throws {
        let connections = Connections()
        server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { client in
                client.eventLoop.makeCompletedFuture { Self.relay(client, to: upstream, connections) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = server.localAddress?.port ?? 0
        self.connections = connections
    }

    /// The database goes away: open connections close, new ones are closed as they come.
    func cut() async {
        for channel in connections.cut() { try? await channel.close() }
    }

    /// The database is back.
    func restore() {
        connections.restore()
    }

    /// The database goes silent: what clients send is dropped, new connections are accepted
    /// and never answered, nothing is closed.
    func freeze() {
        connections.freeze()
    }

    /// Forgets the connections it relays now, as a NAT or firewall that dropped them: their
    /// database sessions end (the server side is closed), while each client's side stays open
    /// until the client next sends, and is then closed (as by the reset a client would get).
    /// New connections are relayed as before.
    func forget() async {
        for server in connections.forgetAll() { try? await server.close() }
    }

    /// How many client connections it relays now (forgotten ones included until they close).
    var relayedConnections: Int {
        connections.pairCount
    }

    /// The database answers again, as after a reboot: the connections that were silenced are
    /// closed (their streams lost bytes), new ones are relayed.
    func thaw() async {
        await cut()
        restore()
    }

    /// Closes every connection and stops listening.
    func shutdown() async {
        await cut()
        try? await server.close()
    }

    /// Connects `client` to `upstream` and glues the two together (reading from the client
    /// only once the upstream connection is up); closes it at once while cut.
    private static func relay(_ client: any Channel, to upstream: PostgresLocation.Endpoint, _ connections: Connections) {
        guard connections.admit(client) else {
            client.close(promise: nil)
            return
        }
        // Frozen: accepted (the kernel did) and never answered.
        if connections.isFrozen { return }
        let bootstrap = ClientBootstrap(group: client.eventLoop)
        let connecting: EventLoopFuture<any Channel>
        switch upstream {
        case .tcp(let host, let port): connecting = bootstrap.connect(host: host, port: port)
        case .unixSocket(let directory, let port): connecting = bootstrap.connect(unixDomainSocketPath: "\(directory)/.s.PGSQL.\(port)")
        }
        connecting.whenComplete { result in
            guard case .success(let server) = result, connections.admit(server) else {
                if case .success(let server) = result { server.close(promise: nil) }
                client.close(promise: nil)
                return
            }
            connections.pair(client: client, server: server)
            let toServer = Glue(partner: server, connections: connections)
            let toClient = Glue(partner: client, connections: connections)
            do {
                try client.pipeline.syncOperations.addHandler(toServer)
                try server.pipeline.syncOperations.addHandler(toClient)
                try client.syncOptions?.setOption(.autoRead, value: true)
            } catch {
                client.close(promise: nil)
                server.close(promise: nil)
                return
            }
            client.closeFuture.whenComplete { _ in
                connections.forget(client)
                server.close(promise: nil)
            }
            server.closeFuture.whenComplete { _ in
                connections.forget(server)
                // A forgotten client learns of it only when it next sends (Glue).
                if !connections.isForgotten(client) { client.close(promise: nil) }
            }
        }
    }

    /// Writes what its channel reads to the partner channel (drops it while frozen).
    private final class Glue: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let connections: Connections

        init(partner: any Channel, connections: Connections) {
            self.partner = partner
            self.connections = connections
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if connections.isForgotten(context.channel) {
                context.close(promise: nil)
                return
            }
            if connections.isFrozen { return }
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }
    }

    /// The relayed connections' channels, and whether the relay is cut.
    private final class Connections: Sendable {
        private struct State {
            var cut = false
            var frozen = false
            var open: [any Channel] = []
            /// Each relayed client's server-side channel.
            var servers: [ObjectIdentifier: any Channel] = [:]
            /// Clients whose connection was forgotten (``TCPRelay/forget()``).
            var forgotten: Set<ObjectIdentifier> = []
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
            state.withLock { state in
                state.open.removeAll { $0 === channel }
                state.servers[ObjectIdentifier(channel)] = nil
                state.forgotten.remove(ObjectIdentifier(channel))
            }
        }

        /// Records that `client` is relayed to `server`.
        func pair(client: any Channel, server: any Channel) {
            state.withLock { $0.servers[ObjectIdentifier(client)] = server }
        }

        var pairCount: Int { state.withLock { $0.servers.count } }

        /// Marks every relayed client forgotten; returns their server-side channels to close.
        func forgetAll() -> [any Channel] {
            state.withLock { state in
                state.forgotten.formUnion(state.servers.keys)
                return Array(state.servers.values)
            }
        }

        func isForgotten(_ client: any Channel) -> Bool {
            state.withLock { $0.forgotten.contains(ObjectIdentifier(client)) }
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
            state.withLock { state in
                state.cut = false
                state.frozen = false
            }
        }

        func freeze() {
            state.withLock { $0.frozen = true }
        }

        var isFrozen: Bool { state.withLock { $0.frozen } }
    }
}
