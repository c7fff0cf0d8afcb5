import Access
import Fleet
import Hummingbird
import TripModel
import TripStore

/// `GET .../trips/{id}/events` and `GET .../vehicles/{id}/events`: the event log as
/// Server-Sent Events (DESIGN §8), resumable from `Last-Event-ID`; a client resuming from an
/// event retention has deleted gets `eventsExpired` first (DESIGN §11). Each stream numbers its
/// events on its own (``EventStreamIDs``), and a token holds at most
/// ``RequestLimits/streamsPerToken`` streams.
struct EventRoutes {
    let fleet: Fleet
    let broadcaster: EventBroadcaster

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/providers/{provider}/trips/{tripId}/events", use: tripEvents)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/events", use: vehicleEvents)
    }

    /// A trip's events: for the trip's consumer, the driver of its vehicle, or a server.
    @Sendable func tripEvents(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let provider = try context.pathParameter("provider")
        let id = try context.pathParameter("tripId")
        try AccessPolicy.checkConsumerTrip(principal, tripId: id)
        let trip = try await fleet.trip(provider: provider, id: id)
        try AccessPolicy.checkDriver(principal, trip: trip)
        return try await stream(.trip(provider: provider, tripId: id), request, context)
    }

    /// A vehicle's events: for its driver or a server.
    @Sendable func vehicleEvents(_ request: Request, context: TripRequestContext) async throws -> Response {
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(try context.caller(), vehicleId: id, write: false)
        let provider = try context.pathParameter("provider")
        _ = try await fleet.vehicle(provider: provider, id: id)
        return try await stream(.vehicle(provider: provider, vehicleId: id), request, context)
    }

    /// An endless event stream; it ends when the client goes away or the server shuts down.
    private func stream(_ filter: EventFilter, _ request: Request, _ context: TripRequestContext) async throws -> Response {
        let ids = try await fleet.eventStreamIDs(for: filter)
        let resume = try ServerSentEvents.resumeID(request, ids: ids)
        let subscription = try await broadcaster.subscribe(
            filter, after: resume, owner: try context.caller(), limit: context.limits.streamsPerToken)
        return Response(
            status: .ok, headers: ServerSentEvents.headers,
            body: ResponseBody { writer in
                var subscription = subscription
                defer { subscription.close() }
                try await writer.write(ByteBuffer(string: ServerSentEvents.opening))
                while true {
                    switch try await subscription.next() {
                    case .events(let events):
                        var buffer = ByteBuffer()
                        for event in events { ServerSentEvents.append(event, id: ids.id(of: event.id), to: &buffer) }
                        try await writer.write(buffer)
                    case .expired(let through):
                        var buffer = ByteBuffer()
                        ServerSentEvents.appendExpired(through: ids.id(of: through), to: &buffer)
                        try await writer.write(buffer)
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ServerSentEvents.heartbeat))
                    case .finished:
                        try await writer.finish(nil)
                        return
                    }
                }
            })
    }
}
