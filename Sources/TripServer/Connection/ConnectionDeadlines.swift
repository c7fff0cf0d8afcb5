import NIOCore

/// The deadlines of one HTTP/1.1 connection as a pure value: events in, the next deadline
/// out (``ConnectionGuard`` turns them into a timer and a close).
///
/// - Waiting for a request head: the first request's head must be whole within the head
///   timeout of the connection's start; a later one within the idle timeout of the previous
///   response, then within the head timeout of its first byte.
/// - Reading a body: bytes must keep coming, at least every idle timeout.
/// - Answering: no deadline (an event stream answers for hours).
/// - Rejected: the HTTP layer answers 400; then the rest of the request is dropped for the
///   linger time after the last byte (at most the linger limit), and the connection closed.
/// - In every phase: while the outgoing buffer is full (the client does not take its answers),
///   the connection must drain within the write timeout of filling it.
struct ConnectionDeadlines: Equatable {
    /// Where the connection is.
    enum Phase: Equatable {
        /// No request in progress; `headStarted` is when the next head's first byte came.
        case awaitingHead(since: NIODeadline, headStarted: NIODeadline?)
        /// A head was read and its body is still arriving; bytes last came at `lastActivity`.
        case readingBody(lastActivity: NIODeadline)
        /// Whole requests are waiting for their answers.
        case answering
        /// The HTTP layer could not read the request and is answering 400.
        case rejected
        /// The 400 was sent at `since`; input is dropped until none came for the linger time
        /// (it last came at `lastByte`), or the linger limit, then the connection is closed.
        case lingering(since: NIODeadline, lastByte: NIODeadline)
    }

    let timeouts: ConnectionTimeouts
    private(set) var phase: Phase
    /// Requests whose head was read and whose answer has not ended.
    private(set) var unanswered = 0
    /// When the outgoing buffer filled up, while it stays full.
    private(set) var writesBlockedSince: NIODeadline?

    /// A connection that started at `now`: its first head's time runs from here.
    init(timeouts: ConnectionTimeouts, now: NIODeadline) {
        self.timeouts = timeouts
        phase = .awaitingHead(since: now, headStarted: now)
    }

    /// When the connection is to be closed unless something happens first.
    var deadline: NIODeadline? {
        guard let writesBlockedSince else { return phaseDeadline }
        let drain = writesBlockedSince + .init(timeouts.write)
        return phaseDeadline.map { min($0, drain) } ?? drain
    }

    /// Whether the deadline that passes first is the write timeout's.
    var isWaitingForTheClientToRead: Bool {
        guard let writesBlockedSince else { return false }
        let drain = writesBlockedSince + .init(timeouts.write)
        return phaseDeadline.map { drain <= $0 } ?? true
    }

    /// The deadline of the phase alone.
    private var phaseDeadline: NIODeadline? {
        switch phase {
        case .awaitingHead(let since, let headStarted):
            if let headStarted { return headStarted + .init(timeouts.requestHead) }
            return since + .init(timeouts.idle)
        case .readingBody(let lastActivity): return lastActivity + .init(timeouts.idle)
        case .answering, .rejected: return nil
        case .lingering(let since, let lastByte):
            return min(since + .init(timeouts.lingerLimit), lastByte + .init(timeouts.linger))
        }
    }

    /// Whether bytes that arrive are dropped (the request they belong to was rejected).
    var dropsInput: Bool {
        switch phase {
        case .rejected, .lingering: true
        default: false
        }
    }

    /// Whether the 400 of a rejected request is being written.
    var isRejected: Bool { phase == .rejected }

    /// Bytes came from the client.
    mutating func bytesArrived(at now: NIODeadline) {
        switch phase {
        case .awaitingHead(let since, nil): phase = .awaitingHead(since: since, headStarted: now)
        case .readingBody: phase = .readingBody(lastActivity: now)
        case .lingering(let since, _): phase = .lingering(since: since, lastByte: now)
        default: break
        }
    }

    /// A request head was read whole.
    mutating func headRead(at now: NIODeadline) {
        guard !dropsInput else { return }
        unanswered += 1
        phase = .readingBody(lastActivity: now)
    }

    /// A request ended (its body, if any, read whole).
    mutating func requestEnded() {
        guard !dropsInput else { return }
        phase = .answering
    }

    /// An answer ended.
    mutating func responseEnded(at now: NIODeadline) {
        guard !dropsInput else { return }
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, phase == .answering { phase = .awaitingHead(since: now, headStarted: nil) }
    }

    /// The outgoing buffer filled up: the client is not taking what it was sent.
    mutating func writesBlocked(at now: NIODeadline) {
        if writesBlockedSince == nil { writesBlockedSince = now }
    }

    /// The outgoing buffer has room again.
    mutating func writesDrained() {
        writesBlockedSince = nil
    }

    /// The HTTP layer could not parse the request.
    mutating func rejected() {
        phase = .rejected
    }

    /// The rejection's 400 was written at `now`.
    mutating func rejectionWritten(at now: NIODeadline) {
        phase = .lingering(since: now, lastByte: now)
    }
}

extension ConnectionDeadlines.Phase {
    /// Whether the connection is kept alive between requests with nothing arriving.
    var isIdle: Bool {
        if case .awaitingHead(_, nil) = self { return true }
        return false
    }

    /// A short name for the log: what the connection was doing when it was closed.
    var name: String {
        if isIdle { return "awaiting a request (idle)" }
        return switch self {
        case .awaitingHead: "reading a request head"
        case .readingBody: "reading a request body"
        case .answering: "answering"
        case .rejected: "answering a rejected request"
        case .lingering: "dropping a rejected request's rest"
        }
    }
}
