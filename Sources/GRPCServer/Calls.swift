import Access
import Fleet
import GRPCCore
import Logging
import TripModel

/// What every call of both services shares: the fleet, who checks tokens, and how a call is
/// run: its caller authenticated from the `authorization` metadata, its deadline honoured,
/// and whatever it throws turned into the gRPC status of the same refusal on REST.
struct Calls: Sendable {
    /// The application layer, as REST's routes call it.
    let fleet: Fleet
    /// Token verification and rate limits (Access), shared with REST.
    let authenticator: Authenticator
    /// Where failures that are our fault are logged.
    let logger: Logger

    /// Runs one call for the caller `metadata`'s token stands for.
    ///
    /// With a deadline (`grpc-timeout`), the call races it: once grpc-swift cancels the RPC at
    /// the deadline, the client is answered DEADLINE_EXCEEDED at once instead of after the
    /// work (which, like any write a client gave up on, may still complete).
    func run<Output: Sendable>(
        _ metadata: Metadata, _ context: ServerContext,
        _ body: @escaping @Sendable (Principal) async throws -> Output
    ) async throws -> ServerResponse<Output> {
        do {
            let principal = try await caller(metadata)
            guard metadata[stringValues: "grpc-timeout"].first(where: { _ in true }) != nil else {
                return ServerResponse(message: try await body(principal))
            }
            return ServerResponse(message: try await Self.racingDeadline(context) { try await body(principal) })
        } catch {
            throw RPCError.from(error, logger: logger)
        }
    }

    /// The caller of the `authorization: Bearer <token>` metadata (UNAUTHENTICATED without
    /// one, RESOURCE_EXHAUSTED over its rate), exactly as REST's `Authorization` header.
    func caller(_ metadata: Metadata) async throws -> Principal {
        guard let header = metadata[stringValues: "authorization"].first(where: { _ in true }) else {
            throw StatusError(.unauthenticated, "missing 'authorization: Bearer <token>' metadata")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw StatusError(.unauthenticated, "the authorization metadata must be 'Bearer <token>'")
        }
        return try await authenticator.principal(token: String(parts[1].trimmingSpaces))
    }

    private static func racingDeadline<Output: Sendable>(
        _ context: ServerContext, _ body: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        try await withThrowingTaskGroup(of: Output.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await context.cancellation.cancelled
                throw RPCError(code: .deadlineExceeded, message: "the call's deadline passed before it was answered")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw RPCError(code: .internalError, message: "internal error")
            }
            return first
        }
    }
}
