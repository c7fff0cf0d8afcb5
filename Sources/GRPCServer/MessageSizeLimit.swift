import GRPCCore

/// A server transport whose request messages larger than `limit` bytes are refused with a
/// status, RESOURCE_EXHAUSTED naming the limit, before they are decoded.
///
/// Why here: grpc-swift-nio-transport answers a message beyond its own
/// `maxRequestPayloadSize` by resetting the stream, which clients see as UNAVAILABLE or
/// CANCELLED, as if the server had failed. So the transport keeps a larger hard cap
/// (``GRPCListener/transportRequestBytes``) and this answers the messages between the two.
struct MessageSizeLimit<Base: ServerTransport>: ServerTransport {
    typealias Bytes = Base.Bytes

    let base: Base
    let limit: Int

    func configure(context: GRPCServerContext) {
        base.configure(context: context)
    }

    func listen(
        streamHandler: @escaping @Sendable (_ stream: RPCStream<Inbound, Outbound>, _ context: ServerContext) async -> Void
    ) async throws {
        let limit = limit
        try await base.listen { stream, context in
            let checked = stream.inbound.map { part -> RPCRequestPart<Bytes> in
                if case .message(let bytes) = part, bytes.count > limit {
                    throw RPCError(
                        code: .resourceExhausted, message: "the request message is \(bytes.count) bytes, larger than \(limit) bytes")
                }
                return part
            }
            await streamHandler(
                RPCStream(descriptor: stream.descriptor, inbound: RPCAsyncSequence(wrapping: checked), outbound: stream.outbound), context)
        }
    }

    func beginGracefulShutdown() {
        base.beginGracefulShutdown()
    }
}
