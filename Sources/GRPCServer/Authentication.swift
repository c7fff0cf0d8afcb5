import Access
import GRPCCore
import Logging

/// Authenticates every call from its `authorization` metadata before its request message is
/// decoded: an anonymous client's bytes cost no decoding and are answered UNAUTHENTICATED
/// (or RESOURCE_EXHAUSTED over its rate), whatever they hold.
///
/// grpc-swift decodes a unary request when the handler asks for its message, after the
/// interceptors; checking the token here, first, is what keeps decoding behind it. The check
/// is Access's, as REST's (``Calls/caller(_:)``); the handler reads the caller it found from
/// ``caller``.
struct Authentication: ServerInterceptor {
    /// The caller of the call being handled, found by this interceptor.
    @TaskLocal static var caller: Principal?

    let calls: Calls

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>, context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let principal: Principal
        do {
            principal = try await calls.caller(request.metadata)
        } catch {
            throw RPCError.from(error, logger: calls.logger)
        }
        return try await Self.$caller.withValue(principal) { try await next(request, context) }
    }
}
