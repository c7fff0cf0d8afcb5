import Foundation
import Logging
import NIOCore
import NIOHTTP1
import TripModel

/// Closes the connections the server should not keep (DESIGN §11): idle ones, slow request
/// heads, stalled uploads, and those whose request the HTTP layer rejected.
///
/// It sits right after the HTTP/1.1 decoder and sees request and response parts; a small
/// ``ByteObserver`` at the front of the pipeline tells it when raw bytes arrive (the first
/// byte of a head starts its clock) and drops the input of a rejected request.
///
/// Why the rejection needs it: when the decoder fails (a 0x7f byte in a header, an over-long
/// URI), hummingbird answers 400 and waits for the client to close, but its inbound stream
/// has ended and nothing asks the socket for more bytes, so a client still sending a large
/// body never has its close seen and the socket stays open for good. Here the 400 becomes a
/// Google error saying what was wrong, the rest of the request is read and dropped until the
/// client pauses for the linger time (so it reads the answer rather than a reset; at most the
/// linger limit), and the connection is closed.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeouts: ConnectionTimeouts
    private let logger: Logger
    private var deadlines: ConnectionDeadlines?
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
    private var rejection: HTTPParserError?
    /// Whether the 400 being written is ours (hummingbird's empty one, replaced).
    private var answersRejection = false
    private var context: ChannelHandlerContext?

    init(timeouts: ConnectionTimeouts, logger: Logger) {
        self.timeouts = timeouts
        self.logger = logger
    }

    /// Whether bytes from the client are to be dropped (``ByteObserver`` asks).
    var dropsInput: Bool { deadlines?.dropsInput ?? false }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        deadlines = ConnectionDeadlines(timeouts: timeouts, now: context.eventLoop.now)
        scheduleTimer(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
        self.context = nil
    }

    /// Raw bytes came from the client (before decoding).
    func bytesArrived() {
        guard let context else { return }
        deadlines?.bytesArrived(at: context.eventLoop.now)
        scheduleTimer(context)
    }

    /// The client closed its side: a rejected connection is done.
    func inputClosed() {
        if dropsInput { context?.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadlines?.headRead(at: context.eventLoop.now)
        case .body: break
        case .end: deadlines?.requestEnded()
        }
        scheduleTimer(context)
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError, deadlines?.dropsInput == false {
            rejection = error
            deadlines?.rejected()
            scheduleTimer(context)
        } else if dropsInput {
            // More bytes of the rejected request reached the failed decoder: nothing to tell.
            return
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        guard let rejection, deadlines?.isRejected == true else {
            if case .end = part {
                deadlines?.responseEnded(at: context.eventLoop.now)
                scheduleTimer(context)
            }
            context.write(data, promise: promise)
            return
        }
        switch part {
        case .head(let head) where head.status == .badRequest && !answersRejection:
            answersRejection = true
            let body = Self.answer(to: rejection)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            headers.add(name: "Connection", value: "close")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .badRequest, headers: headers))),
                promise: promise)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        case .body where answersRejection:
            // The answer's body is ours; hummingbird sends none.
            promise?.succeed(())
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { [self] result in
                promise?.completeWith(result)
                switch result {
                case .success: startLingering(context)
                case .failure: context.close(promise: nil)
                }
            }
            context.writeAndFlush(data, promise: written)
        }
    }

    /// Reads and drops what the client still sends until it pauses for the linger time, the
    /// linger limit passes or it closes; then closes.
    private func startLingering(_ context: ChannelHandlerContext) {
        deadlines?.rejectionWritten(at: context.eventLoop.now)
        scheduleTimer(context)
        context.read()
    }

    /// Keeps one timer at the earliest deadline; when it fires past the deadline the
    /// connection is closed.
    private func scheduleTimer(_ context: ChannelHandlerContext) {
        guard let deadline = deadlines?.deadline else { return }
        if let timer {
            if timer.at <= deadline { return }
            timer.task.cancel()
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard let current = deadlines?.deadline else { return }
            if context.eventLoop.now >= current {
                // Said once per close, so an operator can tell a time-out from a reset by the peer;
                // idle keep-alive connections closing is routine and only said at debug level.
                logger.log(
                    level: deadlines?.phase.isIdle == true ? .debug : .info, "closing a connection: its deadline passed",
                    metadata: ["phase": "\(deadlines?.phase.name ?? "-")", "remote": "\(context.remoteAddress?.description ?? "-")"])
                context.close(promise: nil)
            } else {
                scheduleTimer(context)
            }
        }
        timer = (task, deadline)
    }

    /// The Google error answering a request the HTTP layer could not read.
    static func answer(to error: HTTPParserError) -> ByteBuffer {
        let reason: String
        switch error {
        case .headerOverflow: reason = "its head (the request line and headers) is larger than this server accepts"
        case .invalidHeaderToken: reason = "a header contains a character not allowed in headers"
        case .invalidURL: reason = "its URI is not valid"
        default: reason = error.debugDescription
        }
        let message = "the request is not valid HTTP/1.1: \(reason); the connection is closed"
        let json = #"{"error":{"code":400,"message":"\#(message)","status":"INVALID_ARGUMENT"}}"#
        return ByteBuffer(string: json)
    }
}

/// Sits at the front of a connection's pipeline: tells the ``ConnectionGuard`` when bytes
/// arrive, and drops them (asking the socket for more) once the request was rejected.
final class ByteObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connectionGuard: ConnectionGuard

    init(_ connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connectionGuard.bytesArrived()
        if connectionGuard.dropsInput { return }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // hummingbird stopped reading when the request was rejected; keep draining here.
        if connectionGuard.dropsInput { context.read() }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, connectionGuard.dropsInput {
            connectionGuard.inputClosed()
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
