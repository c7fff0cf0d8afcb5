import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird's HTTP/1.1 channel with a ``ConnectionGuard``: the server `serve` and `demo`
/// run (``TripServerApp/httpServer(timeouts:)``).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let timeouts: ConnectionTimeouts

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = self.timeouts
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let connectionGuard = ConnectionGuard(timeouts: timeouts, logger: logger)
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
    /// as `timeouts` say, and whose rejected requests are answered in the Google error shape
    /// and closed (DESIGN §11).
    public static func httpServer(timeouts: ConnectionTimeouts = .standard) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: .init()), timeouts: timeouts)
        }
    }
}
