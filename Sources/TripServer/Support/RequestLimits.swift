import Hummingbird
import JSON

/// What requests may ask of the server beyond their bytes (DESIGN §11): how many members a
/// JSON body may hold, and how many event streams one token may keep open.
public struct RequestLimits: Sendable, Equatable {
    /// Members a JSON body's objects may have (`--json-max-members`); beyond them the body is
    /// refused with INVALID_ARGUMENT before it is read whole.
    public var json: JSONParser.Limits
    /// Event streams one token may have open at once (`--max-streams-per-token`); one more is
    /// refused with RESOURCE_EXHAUSTED.
    public var streamsPerToken: Int
    /// Creates limits.
    public init(
        json: JSONParser.Limits = .standard, streamsPerToken: Int = Self.standard.streamsPerToken
    ) {
        self.json = json
        self.streamsPerToken = streamsPerToken
    }

    /// 10,000 members an object (``JSONParser/Limits/standard``); 8 streams a token: a
    /// rider's app and share page in a few tabs, a driver's app that reconnected.
    public static let standard = RequestLimits(json: .standard, streamsPerToken: 8)
}

/// Hands every request the server's ``RequestLimits`` through its context.
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let limits: RequestLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.limits = limits
        return try await next(request, context)
    }
}
