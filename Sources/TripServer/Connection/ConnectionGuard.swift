import ConnectionLimits
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import TripModel

/// Closes the connections the server should not keep (DESIGN §11): idle ones, slow request
/// heads, stalled uploads, clients that do not take their answers, and those whose request
/// the HTTP layer rejected.
///
/// It sits right after the HTTP/1.1 decoder and sees request and response parts; a small
/// ``ByteObserver`` at the front of the pipeline tells it when raw bytes arrive (the first
/// byte of a head starts its clock) and drops the input of a rejected request.
///
/// Pipelined requests are read only as their answers go out: with
/// ``maximumQueuedRequests`` unanswered, it asks the socket for nothing more, so a client
/// that sends many requests and reads no answer holds a few requests and one answer's
/// buffers, until the write timeout closes it.
///
/// A connection let in beyond the connection budget's maximum (``Admission/reserved``) is
/// answered only for `/healthz` and `/readyz`, once, and closed; anything else gets 503. One
/// beyond the reserve too (``Admission/refused``) gets 503 as soon as it is open, and is closed.
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

    /// Requests read and not yet answered beyond which nothing more is read.
    static let maximumQueuedRequests = 8
    /// The paths a health-probe-only connection is answered for.
    static let healthProbePaths: Set<Substring> = ["/healthz", "/readyz"]

    private let timeouts: ConnectionTimeouts
    private let logger: Logger
    private let admission: ConnectionBudget.Admission
    private var deadlines: ConnectionDeadlines?
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
    private var rejection: HTTPParserError?
    /// Whether the 400 being written is ours (hummingbird's empty one, replaced).
    private var answersRejection = false
    /// A read the pipeline asked for while too many requests waited for their answers.
    private var readHeld = false
    /// Whether the connection ends after the answer being written (a health probe's).
    private var closesAfterAnswer = false
    /// Whether the request is answered here (503 to a health-probe-only connection) and its
    /// parts dropped.
    private var answeredHere = false
    private var context: ChannelHandlerContext?

    /// A guard with `timeouts` for a connection the budget let in as `admission` says.
    init(timeouts: ConnectionTimeouts, logger: Logger, admission: ConnectionBudget.Admission = .admitted) {
        self.timeouts = admission == .admitted ? timeouts : timeouts.forHealthProbe
        self.logger = logger
        self.admission = admission
    }

    /// Whether bytes from the client are to be dropped (``ByteObserver`` asks).
    var dropsInput: Bool { answeredHere || (deadlines?.dropsInput ?? false) }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        deadlines = ConnectionDeadlines(timeouts: timeouts, now: context.eventLoop.now)
        scheduleTimer(context)
        if admission == .refused, context.channel.isActive { answerBusy(context, version: .http1_1) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if admission == .refused, !answeredHere { answerBusy(context, version: .http1_1) }
        context.fireChannelActive()
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
        if answeredHere { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if admission != .admitted {
                guard !closesAfterAnswer, Self.healthProbePaths.contains(head.uri.split(separator: "?", maxSplits: 1).first ?? "") else {
                    answerBusy(context, version: head.version)
                    return
                }
                closesAfterAnswer = true
            }
            deadlines?.headRead(at: context.eventLoop.now)
        case .body: break
        case .end: deadlines?.requestEnded()
        }
        scheduleTimer(context)
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deadlines?.writesDrained()
        } else {
            deadlines?.writesBlocked(at: context.eventLoop.now)
        }
        scheduleTimer(context)
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if let deadlines, deadlines.unanswered >= Self.maximumQueuedRequests, !deadlines.dropsInput {
            readHeld = true
            return
        }
        context.read()
    }

    /// Answers a request this connection may not make with 503 and closes once it is written.
    private func answerBusy(_ context: ChannelHandlerContext, version: HTTPVersion) {
        answeredHere = true
        let body = ByteBuffer(string: Self.busyAnswer)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Retry-After", value: "1")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .serviceUnavailable, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// The Google error answering a request over the connection budget.
    static let busyAnswer =
        #"{"error":{"code":503,"message":"the server holds as many connections as it may; try again in a moment","status":"UNAVAILABLE"}}"#

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
            switch part {
            case .head(var head) where closesAfterAnswer:
                head.headers.replaceOrAdd(name: "Connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            case .end:
                deadlines?.responseEnded(at: context.eventLoop.now)
                scheduleTimer(context)
                if closesAfterAnswer {
                    let written = context.eventLoop.makePromise(of: Void.self)
                    written.futureResult.assumeIsolated().whenComplete { result in
                        promise?.completeWith(result)
                        context.close(promise: nil)
                    }
                    context.writeAndFlush(data, promise: written)
                } else {
                    context.write(data, promise: promise)
                    if readHeld, let unanswered = deadlines?.unanswered, unanswered < Self.maximumQueuedRequests {
                        readHeld = false
                        context.read()
                    }
                }
            default:
                context.write(data, promise: promise)
            }
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
                let phase =
                    deadlines?.isWaitingForTheClientToRead == true ? "waiting for the client to read its answer" : deadlines?.phase.name ?? "-"
                let routine = deadlines?.phase.isIdle == true && deadlines?.isWaitingForTheClientToRead == false
                logger.log(
                    level: routine ? .debug : .info, "closing a connection: its deadline passed",
                    metadata: ["phase": "\(phase)", "remote": "\(context.remoteAddress?.description ?? "-")"])
                if deadlines?.isWaitingForTheClientToRead == true {
                    Self.resetOnClose(context.channel).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                } else {
                    context.close(promise: nil)
                }
            } else {
                scheduleTimer(context)
            }
        }
        timer = (task, deadline)
    }

    /// Makes the coming close a reset (SO_LINGER 0) for a client that does not read: a
    /// normal close queues its end behind the answers still unsent, which such a client never
    /// takes, so the kernel would keep the socket and up to its send buffer of answers for
    /// minutes after the server let it go, and the client would never see it closed.
    private static func resetOnClose(_ channel: any Channel) -> EventLoopFuture<Void> {
        guard let socket = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededVoidFuture() }
        return socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
    }

    /// The Google error answering a request the HTTP layer could not read.
    static func answer(to error: HTTPParserError) -> ByteBuffer {
        ByteBuffer(string: #"{"error":{"code":400,"message":"\#(error.message)","status":"INVALID_ARGUMENT"}}"#)
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
