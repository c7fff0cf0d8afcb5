import NIOCore
import NIOHTTP2

/// The request bytes one gRPC connection may have in the server's memory at once: the DATA of
/// its open calls, counted as it arrives and given back when each call's stream closes. A
/// call whose next bytes would go over is reset (HTTP/2 `RST_STREAM`); the connection's other
/// calls go on.
///
/// Why: the transport reads a message of up to ``GRPCListener/transportRequestBytes`` before
/// it is answered, and a connection may have ``GRPCListener/ConnectionLimits/maxConcurrentStreams``
/// calls open, so without this one connection could hold 100 × 8 MiB of half-sent requests.
/// With it, a connection holds at most ``GRPCListener/requestBytesPerConnection``, which is
/// room for one message at the transport's cap beside ordinary calls (a few hundred bytes
/// each), so a single oversized message is still answered RESOURCE_EXHAUSTED, not reset.
///
/// The budget sits in the connection's pipeline, where its streams find it, and passes the
/// connection's bytes on untouched (NIO takes only inbound or outbound handlers).
final class RequestBytesBudget: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// The bytes of the connection's open calls, and how many there may be.
    private var held = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `bytes` into the count, or says false when that would go over the limit.
    fileprivate func take(_ bytes: Int) -> Bool {
        guard held + bytes <= limit else { return false }
        held += bytes
        return true
    }

    fileprivate func giveBack(_ bytes: Int) {
        held -= bytes
    }

    /// Counts the DATA of one call's stream against its connection's budget (first in the
    /// stream's pipeline, before the transport's own handlers buffer the message).
    final class Stream: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame.FramePayload

        private let budget: RequestBytesBudget
        private var taken = 0

        init(budget: RequestBytesBudget) {
            self.budget = budget
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .data(let frame) = unwrapInboundIn(data) {
                let bytes = frame.data.readableBytes
                guard budget.take(bytes) else {
                    // Closing a stream resets it; what was read of it is given back below.
                    context.close(promise: nil)
                    return
                }
                taken += bytes
            }
            context.fireChannelRead(data)
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            budget.giveBack(taken)
            taken = 0
        }
    }
}
