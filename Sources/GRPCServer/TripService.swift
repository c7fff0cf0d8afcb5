import Access
import Caching
import Fleet
import FleetEngineProtos
import GRPCCore
import SwiftProtobuf
import TripModel
import TripStore

/// `maps.fleetengine.v1.TripService` over ``Fleet``: each method authorises through Access
/// and calls the same Fleet method as its REST twin (DESIGN §14), with the model reached
/// through proto3 JSON (``ProtoJSON``).
struct TripService: Maps_Fleetengine_V1_TripService.ServiceProtocol {
    typealias Trip = TripModel.Trip
    typealias WireTrip = Maps_Fleetengine_V1_Trip

    let calls: Calls
    /// Trip views already encoded, by trip, view and revision: riders poll and a trip changes
    /// only when its vehicle reports (REST keeps their JSON the same way).
    let views: EncodedViewCache<EncodedTrip>

    func createTrip(
        request: ServerRequest<Maps_Fleetengine_V1_CreateTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireTrip> {
        try await calls.serve(request, context, .parent(\.parent, serverOnly: "create trips")) { message, parent, _ in
            if message.tripID.isEmpty { throw StatusError.invalid("tripId", "is required") }
            let input = try ProtoJSON.decode(Trip.self, from: message.trip, root: "trip")
            return try calls.reply(try await calls.fleet.createTrip(provider: parent.provider, id: message.tripID, input: input))
        }
    }

    func getTrip(
        request: ServerRequest<Maps_Fleetengine_V1_GetTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireTrip> {
        try await calls.serve(request, context, .resource(\.name, in: "trips")) { message, name, principal in
            let view = AccessPolicy.tripView(requested: try Self.view(message.view), for: principal)
            try AccessPolicy.checkTripRead(principal, tripId: name.resourceID, view: view)
            // Answered from the view encoded for the trip's current revision when one is kept:
            // the store then reads the trip's versions only (issue 30).
            let key = "providers/\(name.provider)/trips/\(name.resourceID)/\(view.rawValue)"
            let answerKept = !AccessPolicy.checkDriverNeedsTrip(principal)
            let stored: Revisioned<Trip>
            switch try await calls.fleet.trip(
                provider: name.provider, id: name.resourceID, known: answerKept ? { views.cached(key: key, revision: $0) } : nil)
            {
            case .known(let encoded): return encoded.message
            case .read(let trip): stored = trip
            }
            try AccessPolicy.checkDriver(principal, trip: stored.value)
            return try views.encoded(key: key, revision: stored.revision, missed: answerKept) {
                try EncodedTrip(calls.reply(stored.value.rendered(as: view)))
            }.message
        }
    }

    func updateTrip(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireTrip> {
        try await calls.serve(request, context, .resource(\.name, in: "trips")) { message, name, principal in
            let mask = FieldMask(wire: message.updateMask)
            try await AccessPolicy.checkTripWrite(principal, mask: mask) {
                try await calls.fleet.trip(provider: name.provider, id: name.resourceID)
            }
            let input = try ProtoJSON.decode(Trip.self, from: message.trip, root: "trip")
            return try calls.reply(try await calls.fleet.updateTrip(provider: name.provider, id: name.resourceID, input: input, mask: mask))
        }
    }

    func searchTrips(
        request: ServerRequest<Maps_Fleetengine_V1_SearchTripsRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_SearchTripsResponse> {
        try await calls.serve(request, context, .parent(\.parent, serverOnly: "search trips")) { message, parent, _ in
            // REST's body is the request less its path (`trips:search` under the parent).
            let search = try ProtoJSON.decode(TripSearchRequest.self, from: message, root: "", omitting: ["parent"])
            let page = try await calls.fleet.searchTrips(
                provider: parent.provider, query: try search.query(), minimumStaleness: search.minimumStaleness)
            return try calls.reply(SearchResponse(trips: page.items, nextPageToken: page.nextPageToken))
        }
    }

    func deleteTrip(
        request: ServerRequest<Maps_Fleetengine_V1_DeleteTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        try await calls.serve(request, context, .resource(\.name, in: "trips", serverOnly: "delete trips")) { _, name, _ in
            try await calls.fleet.deleteTrip(provider: name.provider, id: name.resourceID)
            return Google_Protobuf_Empty()
        }
    }

    func reportBillableTrip(
        request: ServerRequest<Maps_Fleetengine_V1_ReportBillableTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        let scope = Scope<Maps_Fleetengine_V1_ReportBillableTripRequest>.resource(
            \.name, in: "billableTrips", serverOnly: "report billable trips")
        return try await calls.serve(request, context, scope) { message, name, _ in
            let report = try ProtoJSON.decode(BillableTripReport.self, from: message, root: "", omitting: ["name", "header"])
            try await calls.fleet.reportBillableTrip(provider: name.provider, id: name.resourceID, report: report)
            return Google_Protobuf_Empty()
        }
    }

    /// The model's view for the wire's; an unknown number is refused as REST refuses an
    /// unknown `view`.
    static func view(_ view: Maps_Fleetengine_V1_TripView) throws(StatusError) -> TripView? {
        switch view {
        case .unspecified: nil
        case .sdk: .sdk
        case .journeySharingV1S: .journeySharingV1S
        case .UNRECOGNIZED(let number):
            throw .invalid("view", "unknown value \(number); expected SDK or JOURNEY_SHARING_V1S")
        }
    }

    /// The answer of SearchTrips, as REST's.
    private struct SearchResponse: Encodable {
        var trips: [Trip]
        var nextPageToken: String?
    }
}
