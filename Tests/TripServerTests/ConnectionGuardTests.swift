import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import ConnectionLimits
@testable import TripServer

/// A connection's pipeline as the server builds it, on an event loop whose time the test
/// moves: raw bytes in, the guard after the HTTP decoder, and a stand-in for hummingbird
/// that answers every request (or none, like an event stream) and a parse error with 400.
final class GuardedConnection {
    let channel = EmbeddedChannel()
    let answering: AnswerStandIn
    let socketReads = ReadCounter()

    init(timeouts: ConnectionTimeouts = .standard, answers: Bool = true, admission: ConnectionBudget.Admission = .admitted) throws {
        answering = AnswerStandIn(answers: answers)
        let connectionGuard = ConnectionGuard(timeouts: timeouts, logger: Logger(label: "test"), admission: admission)
        try channel.pipeline.syncOperations.addHandlers([
            socketReads, ByteObserver(connectionGuard), HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder()),
            connectionGuard, answering,
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
    }

    var isOpen: Bool { channel.isActive }

    /// The client stops (or resumes) taking what the server writes: the outgoing buffer is
    /// full (or has room).
    func clientReads(_ reads: Bool) {
        channel.isWritable = reads
        channel.pipeline.fireChannelWritabilityChanged()
    }

    func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    func send(bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    func advance(seconds: Double) {
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(Int64(seconds * 1_000)))
    }

    /// Everything written to the client so far.
    func received() throws -> String {
        var text = ""
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { text += String(buffer: buffer) }
        }
        return text
    }
}

/// Counts the reads the pipeline asks of the socket (it sits where the socket is).
final class ReadCounter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Any
    var reads = 0

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }
}

/// What hummingbird does at the end of the pipeline, reduced: answers each request once it
/// is read whole (unless told not to), and a parse error with an empty 400.
final class AnswerStandIn: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let answers: Bool
    var errors: [any Error] = []
    /// The paths of the requests read, in order.
    var paths: [String] = []
    /// Requests read whole and not answered (when not answering by itself).
    var waiting = 0
    private var context: ChannelHandlerContext?

    init(answers: Bool) { self.answers = answers }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): paths.append(head.uri)
        case .body: break
        case .end:
            if answers { answer(context) } else { waiting += 1 }
        }
    }

    /// Answers the oldest waiting request.
    func answerOne() {
        guard let context, waiting > 0 else { return }
        waiting -= 1
        answer(context)
    }

    private func answer(_ context: ChannelHandlerContext) {
        let headers = HTTPHeaders([("Content-Length", "2")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "ok")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        errors.append(error)
        guard error is HTTPParserError else { return }
        let headers = HTTPHeaders([("Connection", "close"), ("Content-Length", "0")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

@Suite struct ConnectionGuardTests {
    static let get = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    /// A connection that sends nothing is closed when its first head is due.
    @Test func silentConnectionIsClosedAfterTheHeadTimeout() throws {
        let connection = try GuardedConnection()
        connection.advance(seconds: 9.9)
        #expect(connection.isOpen)
        connection.advance(seconds: 0.1)
        #expect(!connection.isOpen)
    }

    /// A first head sent slowly is cut off at the head timeout, however steadily it trickles.
    @Test func slowFirstHeadIsCutOff() throws {
        let connection = try GuardedConnection()
        for byte in "GET /healthz HTTP/1.1\r\n".utf8 {
            try connection.send(bytes: [byte])
            connection.advance(seconds: 0.5)
        }
        #expect(!connection.isOpen)
    }

    /// After an answer, a kept-alive connection may wait the idle timeout for its next
    /// request; that request's head then has the head timeout from its first byte.
    @Test func keptAliveConnectionIdlesThenHeadsAreTimed() throws {
        let connection = try GuardedConnection()
        try connection.send(Self.get)
        #expect(try connection.received().hasPrefix("HTTP/1.1 200 OK"))
        connection.advance(seconds: 74)
        #expect(connection.isOpen)
        try connection.send("GET /healthz HT")
        connection.advance(seconds: 9)
        try connection.send("TP/1.1\r\nHost")
        connection.advance(seconds: 0.9)
        #expect(connection.isOpen)
        connection.advance(seconds: 0.1)
        #expect(!connection.isOpen)

        let idle = try GuardedConnection()
        try idle.send(Self.get)
        idle.advance(seconds: 74.9)
        #expect(idle.isOpen)
        idle.advance(seconds: 0.1)
        #expect(!idle.isOpen)
    }

    /// An upload may be slow but not stall for longer than the idle timeout.
    @Test func stalledUploadIsClosed() throws {
        let connection = try GuardedConnection()
        try connection.send("PUT /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
        for _ in 0..<3 {
            connection.advance(seconds: 70)
            try connection.send("0123456789")
        }
        #expect(connection.isOpen)
        connection.advance(seconds: 75)
        #expect(!connection.isOpen)
    }

    /// While a request is being answered (an event stream, say) nothing times out.
    @Test func answeringHasNoDeadline() throws {
        let connection = try GuardedConnection(answers: false)
        try connection.send(Self.get)
        connection.advance(seconds: 3 * 3_600)
        #expect(connection.isOpen)
    }

    /// A head the decoder rejects (a 0x7f byte in a header) while a large body follows: the
    /// client gets a Google error saying what was wrong, the rest of its bytes are dropped
    /// without errors, and the connection closes when it closes its side...
    @Test func rejectedRequestIsAnsweredAndClosedWhenTheClientCloses() throws {
        let connection = try GuardedConnection()
        try connection.send(bytes: Array("POST /v1/x HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{7f}b\r\nContent-Length: 5000000\r\n\r\n".utf8))
        let answer = try connection.received()
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer)")
        #expect(answer.contains("Connection: close"))
        #expect(
            answer.contains(
                #"{"error":{"code":400,"message":"the request is not valid HTTP/1.1: a header contains a character not allowed in headers; the connection is closed","status":"INVALID_ARGUMENT"}}"#
            ))
        let errorsSoFar = connection.answering.errors.count
        for _ in 0..<100 { try connection.send(String(repeating: "x", count: 10_000)) }
        #expect(connection.answering.errors.count == errorsSoFar)
        #expect(connection.isOpen)
        connection.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(!connection.isOpen)
    }

    /// ...or once it pauses for the linger time, or at the linger limit if it goes on
    /// sending.
    @Test func rejectedRequestIsClosedAfterLingering() throws {
        let connection = try GuardedConnection()
        try connection.send("GET /\(String(repeating: "a", count: 100)) HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        #expect(try connection.received().hasPrefix("HTTP/1.1 400"))
        connection.advance(seconds: 1.9)
        try connection.send("more")
        connection.advance(seconds: 1.9)
        #expect(connection.isOpen)
        connection.advance(seconds: 0.1)
        #expect(!connection.isOpen)

        let endless = try GuardedConnection()
        try endless.send("GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        for _ in 0..<29 {
            endless.advance(seconds: 1)
            try endless.send(String(repeating: "x", count: 1_000))
        }
        #expect(endless.isOpen)
        endless.advance(seconds: 1)
        #expect(!endless.isOpen)
    }

    /// The pure deadlines: a pipelined request keeps the connection answering until every
    /// request is answered.
    @Test func deadlinesFollowPipelinedRequests() {
        let timeouts = ConnectionTimeouts(idle: .seconds(75), requestHead: .seconds(10), linger: .seconds(2))
        let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var deadlines = ConnectionDeadlines(timeouts: timeouts, now: t0)
        #expect(deadlines.deadline == t0 + .seconds(10))
        deadlines.headRead(at: t0)
        deadlines.requestEnded()
        deadlines.headRead(at: t0)
        deadlines.requestEnded()
        #expect(deadlines.deadline == nil)
        deadlines.responseEnded(at: t0 + .seconds(1))
        #expect(deadlines.deadline == nil)
        deadlines.responseEnded(at: t0 + .seconds(2))
        #expect(deadlines.deadline == t0 + .seconds(77))
    }

    /// A client that stops reading its answer is closed at the write timeout; one that reads
    /// again in time keeps its connection, and the clock starts anew when its buffer fills again.
    @Test func clientThatDoesNotReadIsClosedAtTheWriteTimeout() throws {
        let connection = try GuardedConnection(answers: false)
        try connection.send(Self.get)
        connection.clientReads(false)
        connection.advance(seconds: 29)
        connection.clientReads(true)
        connection.advance(seconds: 29)
        connection.clientReads(false)
        connection.advance(seconds: 29.9)
        #expect(connection.isOpen)
        connection.advance(seconds: 0.1)
        #expect(!connection.isOpen)

        // Whatever the phase: here the answer went out and the next head is awaited.
        let idle = try GuardedConnection()
        try idle.send(Self.get)
        idle.clientReads(false)
        idle.advance(seconds: 30)
        #expect(!idle.isOpen)
    }

    /// Pipelined requests: with eight unanswered, the socket is asked for nothing more until
    /// an answer goes out; answered, reading resumes.
    @Test func pipelinedRequestsAreReadAsAnswersDrain() throws {
        let connection = try GuardedConnection(answers: false)
        try connection.send(String(repeating: Self.get, count: 8))
        #expect(connection.answering.waiting == 8)
        let before = connection.socketReads.reads
        connection.channel.read()
        #expect(connection.socketReads.reads == before)
        connection.answering.answerOne()
        #expect(connection.socketReads.reads == before + 1)
        connection.channel.read()
        #expect(connection.socketReads.reads == before + 2)
        try connection.send(Self.get)
        connection.channel.read()
        #expect(connection.socketReads.reads == before + 2)
    }

    /// A connection let in beyond the budget's maximum gets its health probe answered, with
    /// `Connection: close`, and is closed...
    @Test func reservedConnectionAnswersAHealthProbeOnce() throws {
        let connection = try GuardedConnection(admission: .reserved)
        try connection.send("GET /readyz?verbose=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try connection.received()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close"))
        #expect(!connection.isOpen)
        #expect(connection.answering.paths == ["/readyz?verbose=1"])
    }

    /// ...anything else gets 503 without reaching the application...
    @Test func reservedConnectionRefusesOtherRequests() throws {
        let connection = try GuardedConnection(admission: .reserved)
        try connection.send("GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" + Self.get)
        let answer = try connection.received()
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(answer)")
        #expect(answer.contains(#""status":"UNAVAILABLE""#))
        #expect(answer.contains("Retry-After: 1"))
        #expect(!connection.isOpen)
        #expect(connection.answering.paths.isEmpty)

        // ...and must send its head within 2 s.
        let silent = try GuardedConnection(admission: .reserved)
        silent.advance(seconds: 2)
        #expect(!silent.isOpen)
    }

    /// A connection beyond the reserve too is answered 503 at once and closed.
    @Test func refusedConnectionIsAnsweredAndClosed() throws {
        let connection = try GuardedConnection(admission: .refused)
        let answer = try connection.received()
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(answer)")
        #expect(!connection.isOpen)
    }
}
