import Foundation
import NIOCore

/// Closes a gRPC connection whose client has sent nothing for ``silence``: a client that
/// stops reading also stops answering the keepalive pings the transport sends after
/// ``GRPCListener/ConnectionLimits/keepalive`` of silence, so it is dead or stuck.
///
/// Why here: grpc-swift's transport answers an unanswered ping by asking the client to go
/// away (`GOAWAY` and one more ping) and closes only once that ping is answered, so a client
/// that reads nothing kept its connection, its streams and their answers for ever
/// (`IntegrationTests/clients/grpc-limits-test`). The close is a reset (`SO_LINGER` 0), as HTTP's write
/// time-out's: a normal close would queue behind answers such a client never takes.
final class SilenceGuard: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// How long a client may send nothing: two keepalives, one to be pinged after and one to
    /// answer in.
    let silence: TimeAmount
    private var lastRead = NIODeadline.now()
    private var check: Scheduled<Void>?

    init(silence: TimeAmount) {
        self.silence = silence
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lastRead = .now()
        schedule(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = .now()
        context.fireChannelRead(data)
    }

    private func schedule(_ context: ChannelHandlerContext) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: lastRead + silence) { [self] in
            check = nil
            guard NIODeadline.now() >= lastRead + silence else { return schedule(context) }
            let channel = context.channel
            let reset = (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            (reset ?? channel.eventLoop.makeSucceededVoidFuture()).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
