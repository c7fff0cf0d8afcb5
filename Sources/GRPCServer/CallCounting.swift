import GRPCCore

/// A server transport whose every call is counted in ``CallMetrics``, also one its client
/// reset before the answer went out.
///
/// Why here: ``CallMetrics`` counts a call when its answer has been written or the call
/// failed. When the client resets the stream first, grpc-swift's first write (the answer's
/// headers) fails and the answer's producer, where the count is made, never runs; a call
/// whose metadata was never read does not reach the interceptors at all. So each call's task
/// carries a ``CallMetrics/Call`` that counting marks, and a call still unmarked when
/// grpc-swift is done with it is counted here, as CANCELLED.
struct CallCounting<Base: ServerTransport>: ServerTransport {
    typealias Bytes = Base.Bytes

    let base: Base
    let metrics: CallMetrics

    func configure(context: GRPCServerContext) {
        base.configure(context: context)
    }

    func listen(
        streamHandler: @escaping @Sendable (_ stream: RPCStream<Inbound, Outbound>, _ context: ServerContext) async -> Void
    ) async throws {
        let metrics = metrics
        try await base.listen { stream, context in
            let call = CallMetrics.Call()
            await CallMetrics.$call.withValue(call) { await streamHandler(stream, context) }
            if !call.isCounted { metrics.recordUncounted(method: stream.descriptor.fullyQualifiedMethod, since: call.arrival) }
        }
    }

    func beginGracefulShutdown() {
        base.beginGracefulShutdown()
    }
}
