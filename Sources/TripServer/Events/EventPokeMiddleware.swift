import Hummingbird

/// Tells the event broadcaster after every write request that the log may have grown, so
/// SSE clients hear of it without polling. A poke costs a flag when the pump is busy.
struct EventPokeMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let broadcaster: EventBroadcaster

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        if request.method != .get && request.method != .head { broadcaster.poke() }
        return response
    }
}
