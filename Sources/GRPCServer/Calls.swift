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

    /// Runs one call for its caller, whom ``Authentication`` found from the `authorization`
    /// metadata before the request was decoded.
    ///
    /// With a deadline (`grpc-timeout`), the call races it (``Deadline``): the client is
    /// answered DEADLINE_EXCEEDED when it passes instead of after the work.
    func run<Output: Sendable>(
        _ metadata: Metadata, _ context: ServerContext,
        _ body: @escaping @Sendable (Principal) async throws -> Output
    ) async throws -> ServerResponse<Output> {
        do {
            guard let principal = Authentication.caller else {
                throw StatusError(.internal, "the call reached its method without passing authentication")
            }
            // Counted from the call's arrival, not from here: token checks and a busy pool may
            // have kept it waiting, and the client's clock did not wait.
            let arrival = CallMetrics.call?.arrival ?? .now
            guard let timeout = metadata[stringValues: "grpc-timeout"].first(where: { _ in true }),
                let deadline = Deadline(grpcTimeout: timeout, arrival: arrival)
            else {
                return ServerResponse(message: try await body(principal))
            }
            return ServerResponse(message: try await deadline.race { try await body(principal) })
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
}
