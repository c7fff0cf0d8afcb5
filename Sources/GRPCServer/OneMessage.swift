import GRPCCore

/// Every method here is unary: a request stream without exactly one whole message is the
/// client's fault, and is answered INVALID_ARGUMENT saying so. grpc-swift answers those
/// INTERNAL ("Empty stream.", "Too many messages.", a frame cut short), which would blame the
/// server and count as its failure in `/metrics`.
struct OneMessage: ServerInterceptor {
    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>, context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        var checked = request
        checked.messages = RPCAsyncSequence(wrapping: Messages(base: request.messages))
        return try await next(checked, context)
    }

    /// The request's messages, refused unless there is exactly one.
    private struct Messages<Element: Sendable>: AsyncSequence, Sendable {
        let base: RPCAsyncSequence<Element, any Error>

        func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

        struct Iterator: AsyncIteratorProtocol {
            var base: RPCAsyncSequence<Element, any Error>.AsyncIterator
            var count = 0

            mutating func next() async throws -> Element? {
                let message: Element?
                do {
                    message = try await base.next()
                } catch let error as RPCError where error.code != .internalError {
                    throw error // too large, or not a message: already the client's fault
                } catch {
                    throw RPCError(code: .invalidArgument, message: "the request is not a whole gRPC message: \(error)")
                }
                guard let message else {
                    if count == 0 { throw RPCError(code: .invalidArgument, message: "the request carries no message") }
                    return nil
                }
                count += 1
                if count > 1 { throw RPCError(code: .invalidArgument, message: "the request carries more than one message") }
                return message
            }
        }
    }
}
