import ConnectionLimits
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird's HTTP/1.1 channel with a ``ConnectionGuard`` and a place in the process's
/// ``ConnectionBudget``: the server `serve` and `demo` run (``TripServerApp/httpServer(timeouts:budget:)``).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let timeouts: ConnectionTimeouts
    let budget: ConnectionBudget

    /// The kernel's send buffer for a client connection (Linux doubles it). Left to itself
    /// the kernel grows it to 4 MB on loopback, so a client that reads nothing had about 4 MB
    /// of answers queued before the server's own buffer filled and the write timeout started,
    /// and a thousand such clients 4 GB of kernel memory. 64 KiB still lets a phone 100 ms away
    /// take 10 Mbit/s, more than any answer of this API needs.
    static let sendBufferBytes = 64 * 1024

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admission = budget.admit(channel)
        let timeouts = self.timeouts
        let inner = self.inner
        return channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBufferBytes)).flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let connectionGuard = ConnectionGuard(timeouts: timeouts, logger: logger, admission: admission)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(connectionGuard, position: .after(decoder))
            try pipeline.addHandler(ByteObserver(connectionGuard), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension TripServerApp {
    /// The HTTP server to run the router with: HTTP/1.1 whose connections time out and close
    /// as `timeouts` say, whose rejected requests are answered in the Google error shape and
    /// closed, and whose connections beyond `budget` are refused (DESIGN §11).
    package static func httpServer(
        timeouts: ConnectionTimeouts = .standard, budget: ConnectionBudget = ConnectionBudget(maximum: ConnectionBudget.defaultCeiling)
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: .init()), timeouts: timeouts, budget: budget)
        }
    }
}
