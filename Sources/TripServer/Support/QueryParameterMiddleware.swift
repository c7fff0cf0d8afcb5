import Hummingbird
import JSON
import TripModel

/// Refuses a query parameter that the route does not take (INVALID_ARGUMENT naming it, as
/// Fleet Engine answers), after the route is matched: the route's parameters are the ones
/// its operation lists in the OpenAPI document (``RouteCatalog``). Names may be lowerCamel or
/// the proto field names (`update_mask`). A Fleet Engine `header` sent as `header.*`
/// parameters is read here and counted in the metrics.
///
/// The authenticated API runs ``check(_:context:)`` inside ``AuthMiddleware`` rather than this
/// as a layer of its own: each middleware layer costs every request about seven hops between
/// executors (issues 29 and 31).
struct QueryParameterMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let catalog: RouteCatalog
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try check(request, context: context)
        return try await next(request, context)
    }

    /// Throws INVALID_ARGUMENT for a query parameter the matched route does not take, and
    /// counts a Fleet Engine `header` sent as parameters.
    func check(_ request: Request, context: Context) throws {
        guard let query = request.uri.query, !query.isEmpty, let route = context.endpointPath,
            let accepted = catalog.queryParameters(route: route, method: request.method)
        else {
            return
        }
        if Self.takesEveryNameAsWritten(query, accepted: accepted) { return }
        var header: [(key: String, value: JSONValue)] = []
        for (rawName, value) in request.uri.queryParameters {
            let name = ProtoJSONNames.jsonName(String(rawName))
            guard accepted.contains(name) else {
                let listed = accepted.isEmpty ? "it takes none" : "it takes \(accepted.sorted().joined(separator: ", "))"
                throw APIError.invalid("\(rawName.prefix(64)): unknown query parameter; \(listed)")
            }
            if name.hasPrefix("header.") { header.append((String(name.dropFirst("header.".count)), .string(String(value)))) }
        }
        if !header.isEmpty {
            let decoded: RequestHeader
            do {
                decoded = try StrictJSONDecoder().decode(RequestHeader.self, from: .object(header), root: "header")
            } catch {
                throw APIError(StatusError(error))
            }
            try decoded.validate(path: "header")
            metrics.recordRequestHeader(decoded)
        }
    }

    /// Whether every parameter of `query` is one the route takes, named as the route names it,
    /// with nothing to decode (no `%`, `+` or proto field name) and no `header.*`: what almost
    /// every request sends, checked on the text (parsing the query was about 1% of a GET trip's
    /// CPU, issue 31). Anything else is parsed and checked one parameter at a time.
    private static func takesEveryNameAsWritten(_ query: String, accepted: Set<String>) -> Bool {
        for parameter in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            let name = parameter.prefix { $0 != UInt8(ascii: "=") }
            if name.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "_") }) { return false }
            let text = String(Substring(name))
            if text.hasPrefix("header.") || !accepted.contains(text) { return false }
        }
        return true
    }
}
