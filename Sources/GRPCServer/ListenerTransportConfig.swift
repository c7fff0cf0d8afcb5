import GRPCNIOTransportHTTP2
import NIOCore

extension HTTP2ServerTransport.Posix.Config {
    /// The gRPC listener's transport configuration (``GRPCListener/ConnectionLimits``): at most
    /// `maxConcurrentStreams` calls per connection, HTTP/2's own flow-control window, a
    /// connection asked to go away after `idleTimeout` without calls or at `maxAge`, pinged
    /// after `keepalive` of silence and closed after two (``SilenceGuard``), each message at
    /// most `requestBytes` and one connection's open calls at most `requestBytesPerConnection`
    /// (``RequestBytesBudget``). A connection that `admit` refuses is closed at once.
    ///
    /// Why a file of its own, with nothing of tripshare's but those two handlers:
    /// `Benchmarks/GRPCFloor` compiles this same file, so that grpc-swift's own cost per call
    /// is measured under exactly the listener's configuration.
    static func listener(
        maxConcurrentStreams: Int, idleTimeout: Duration, keepalive: Duration, maxAge: Duration?, graceTime: Duration,
        flowControlWindow: Int, requestBytes: Int, requestBytesPerConnection: Int,
        admit: (@Sendable (any Channel) -> Bool)? = nil
    ) -> Self {
        let silence = TimeAmount(keepalive * 2)
        return .defaults { config in
            config.channelDebuggingCallbacks.onAcceptTCPConnection = { channel in
                // Closed here, not refused with an error: an error fails the listening
                // channel's accept, which ends the server's stream of connections.
                if let admit, !admit(channel) {
                    channel.close(promise: nil)
                    return channel.eventLoop.makeSucceededVoidFuture()
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SilenceGuard(silence: silence), position: .first)
                    try channel.pipeline.syncOperations.addHandler(RequestBytesBudget(limit: requestBytesPerConnection), position: .first)
                }
            }
            config.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in
                // A stream runs on its connection's event loop, so the two pipelines meet
                // there without locks.
                stream.eventLoop.makeCompletedFuture {
                    guard let connection = stream.parent else { return }
                    let budget = try connection.pipeline.syncOperations.handler(type: RequestBytesBudget.self)
                    try stream.pipeline.syncOperations.addHandler(RequestBytesBudget.Stream(budget: budget), position: .first)
                }
            }
            config.rpc.maxRequestPayloadSize = requestBytes
            config.http2.maxConcurrentStreams = maxConcurrentStreams
            config.http2.targetWindowSize = flowControlWindow
            config.connection.maxIdleTime = idleTimeout
            config.connection.maxAge = maxAge
            config.connection.maxGraceTime = graceTime
            config.connection.keepalive.time = keepalive
            config.connection.keepalive.timeout = keepalive
        }
    }
}
