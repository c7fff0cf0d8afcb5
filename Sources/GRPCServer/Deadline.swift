import GRPCCore
import Synchronization

/// The deadline a client gave its call (`grpc-timeout`), and the race that answers at it.
///
/// grpc-swift cancels the RPC when the timeout passes, but a handler stuck in work that does
/// not notice cancellation (a write waiting for a database lock) would still answer only when
/// that work ends. ``race(_:)`` answers at the deadline instead: the work runs in a task of its
/// own, so nothing waits for it once the deadline has been answered.
struct Deadline: Sendable {
    /// How long the client allowed, from when the call arrived.
    let timeout: Duration
    /// When the call arrived.
    let start: ContinuousClock.Instant

    /// How much sooner than ours a client's deadline may pass: its clock started when it sent
    /// the call, before the call reached us, and under load the call waits for a thread before
    /// our clock starts. A quarter of the client's time, at least 250 ms: in the whole test
    /// suite on two cores a call whose client reset it at its 8 s deadline had been on our
    /// clock for 7.6 s, and a fixed 250 ms counted that deadline as a cancel.
    var clientHeadStart: Duration { max(.milliseconds(250), timeout / 4) }

    /// The deadline of a call whose `grpc-timeout` metadata is `text`, counted from `arrival`;
    /// nil for a value gRPC's wire format does not allow (1–8 digits and a unit: H, M, S, m, u
    /// or n).
    init?(grpcTimeout text: String, arrival: ContinuousClock.Instant = .now) {
        guard let unit = text.last, (2...9).contains(text.count), let amount = Int64(text.dropLast()), amount >= 0 else {
            return nil
        }
        switch unit {
        case "H": timeout = .seconds(amount * 3_600)
        case "M": timeout = .seconds(amount * 60)
        case "S": timeout = .seconds(amount)
        case "m": timeout = .milliseconds(amount)
        case "u": timeout = .microseconds(amount)
        case "n": timeout = .nanoseconds(amount)
        default: return nil
        }
        start = arrival
    }

    /// The answer of `work`, or, if grpc-swift cancels the RPC first, DEADLINE_EXCEEDED once the
    /// deadline has passed or is within ``clientHeadStart`` (CANCELLED before that: the client
    /// went away, or the server is stopping). Work that loses the race is not stopped, as a write a client gave up on on
    /// REST is not.
    func race<Output: Sendable>(_ work: @escaping @Sendable () async throws -> Output) async throws -> Output {
        let answer = FirstAnswer<Output>()
        return try await withRPCCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.wait(continuation)
                Task { answer.give(await Result { try await work() }) }
            }
        } onCancelRPC: { [self] in
            // The client's deadline began before its request got here, so its own timeout
            // (which resets the stream) comes before ours: a cancel that close to the deadline
            // is the deadline.
            let passed = ContinuousClock.now - start + clientHeadStart >= timeout
            answer.give(
                .failure(
                    passed
                        ? RPCError(code: .deadlineExceeded, message: "the call's deadline passed before it was answered")
                        : RPCError(code: .cancelled, message: "the call was cancelled before it was answered")))
        }
    }
}

/// The first of several answers, handed to one waiting continuation; later answers are dropped.
private final class FirstAnswer<Output: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Output, any Error>?
        var answer: Result<Output, any Error>?
        var resumed = false
    }
    private let state = Mutex(State())

    /// Waits on `continuation`, resumed at once if an answer came first.
    func wait(_ continuation: CheckedContinuation<Output, any Error>) {
        let ready: Result<Output, any Error>? = state.withLock { state in
            guard let answer = state.answer, !state.resumed else {
                state.continuation = continuation
                return nil
            }
            state.resumed = true
            return answer
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Gives `answer` to the waiting continuation, unless one was given already.
    func give(_ answer: Result<Output, any Error>) {
        let waiting: CheckedContinuation<Output, any Error>? = state.withLock { state in
            guard state.answer == nil else { return nil }
            state.answer = answer
            guard let continuation = state.continuation else { return nil }
            state.resumed = true
            state.continuation = nil
            return continuation
        }
        waiting?.resume(with: answer)
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`.
    fileprivate init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
