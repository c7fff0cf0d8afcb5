import Access
import GRPCCore
import SwiftProtobuf
import TripModel

/// What a request acts on and who may act on it: the checks every method makes before its
/// own rules, the same for both services.
struct Scope<Request: Sendable>: Sendable {
    /// The resource name the request carries, read and checked for its shape.
    let name: @Sendable (Request) throws(StatusError) -> WireName
    /// What the caller does, when only a server token may do it ("create vehicles").
    let serverOnly: String?

    /// A request under `providers/{provider}` (its `parent`), such as a create or a search.
    static func parent(_ parent: @escaping @Sendable (Request) -> String, serverOnly action: String) -> Scope {
        Scope(name: { request throws(StatusError) in try WireName.parent(parent(request)) }, serverOnly: action)
    }

    /// A request on one resource of `collection` (its `name`), with `action` when only a
    /// server token may do it.
    static func resource(
        _ name: @escaping @Sendable (Request) -> String, in collection: String, serverOnly action: String? = nil
    ) -> Scope {
        Scope(
            name: { request throws(StatusError) in try WireName.resource(name(request), collection: collection, field: "name") },
            serverOnly: action)
    }
}

extension Calls {
    /// Serves one unary method (DESIGN §14): the caller authenticated (``run(_:_:_:)``), the
    /// resource `scope` names checked against the caller's provider and, where only servers may
    /// act, role; then `body`, with the request's message, that name and the caller, does what
    /// is the method's own (its rules are Access's and Fleet's) and answers with the wire's
    /// message, usually through ``reply(_:)``.
    func serve<Request: Sendable, Response: Sendable>(
        _ request: ServerRequest<Request>, _ context: ServerContext, _ scope: Scope<Request>,
        _ body: @escaping @Sendable (Request, WireName, Principal) async throws -> Response
    ) async throws -> ServerResponse<Response> {
        let message = request.message
        return try await run(request.metadata, context) { principal in
            let name = try scope.name(message)
            try AccessPolicy.checkProvider(principal, provider: name.provider)
            if let action = scope.serverOnly { try AccessPolicy.requireServer(principal, action) }
            return try await body(message, name, principal)
        }
    }

    /// The model's `value` as the response message `Response`, through proto3 JSON
    /// (``ProtoJSON``).
    func reply<Response: SwiftProtobuf.Message>(_ value: some Encodable) throws(StatusError) -> Response {
        try ProtoJSON.message(Response.self, encoding: value, logger: logger)
    }
}
