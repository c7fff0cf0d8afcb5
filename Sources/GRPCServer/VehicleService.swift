import Access
import Fleet
import FleetEngineProtos
import GRPCCore
import SwiftProtobuf
import TripModel
import TripStore

/// `maps.fleetengine.v1.VehicleService` over ``Fleet``: each method authorises through
/// Access and calls the same Fleet method as its REST twin (DESIGN §14), with the model
/// reached through proto3 JSON (``ProtoJSON``).
struct VehicleService: Maps_Fleetengine_V1_VehicleService.ServiceProtocol {
    typealias Vehicle = TripModel.Vehicle
    typealias WireVehicle = Maps_Fleetengine_V1_Vehicle

    let calls: Calls

    func createVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_CreateVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireVehicle> {
        try await calls.serve(request, context, .parent(\.parent, serverOnly: "create vehicles")) { message, parent, _ in
            if message.vehicleID.isEmpty { throw StatusError.invalid("vehicleId", "is required") }
            let input = try ProtoJSON.decode(Vehicle.self, from: message.vehicle, root: "vehicle")
            return try calls.reply(try await calls.fleet.createVehicle(provider: parent.provider, id: message.vehicleID, input: input))
        }
    }

    func getVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_GetVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireVehicle> {
        try await calls.serve(request, context, .resource(\.name, in: "vehicles")) { _, name, principal in
            try AccessPolicy.checkVehicle(principal, vehicleId: name.resourceID, write: false)
            return try calls.reply(try await calls.fleet.vehicle(provider: name.provider, id: name.resourceID))
        }
    }

    func updateVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireVehicle> {
        try await calls.serve(request, context, .resource(\.name, in: "vehicles")) { message, name, principal in
            let mask = FieldMask(wire: message.updateMask)
            try AccessPolicy.checkVehicleUpdate(principal, vehicleId: name.resourceID, mask: mask)
            let input = try ProtoJSON.decode(Vehicle.self, from: message.vehicle, root: "vehicle")
            let json = try await calls.fleet.updateVehicleJSON(
                provider: name.provider, id: name.resourceID, input: input, mask: mask, extensions: .none
            ).bytes()
            return try ProtoJSON.message(WireVehicle.self, json: json, logger: calls.logger)
        }
    }

    func updateVehicleAttributes(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleAttributesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_UpdateVehicleAttributesResponse> {
        let scope = Scope<Maps_Fleetengine_V1_UpdateVehicleAttributesRequest>.resource(
            \.name, in: "vehicles", serverOnly: "update vehicle attributes")
        return try await calls.serve(request, context, scope) { message, name, _ in
            let body = try ProtoJSON.decode(AttributesRequest.self, from: message, root: "", omitting: ["name", "header"])
            let merged = try await calls.fleet.updateVehicleAttributes(
                provider: name.provider, id: name.resourceID, attributes: body.attributes ?? [])
            return try calls.reply(AttributesResponse(attributes: merged))
        }
    }

    func listVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_ListVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_ListVehiclesResponse> {
        try await calls.serve(request, context, .parent(\.parent, serverOnly: "list vehicles")) { message, parent, _ in
            // The same request REST reads from its query parameters, every field and the filter.
            let query = try ProtoJSON.decode(VehicleListQuery.self, from: message, root: "", omitting: ["parent", "header"])
            return try calls.reply(VehicleListResponse(try await calls.fleet.listVehicles(provider: parent.provider, query: query)))
        }
    }

    func searchVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_SearchVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_SearchVehiclesResponse> {
        try await calls.serve(request, context, .parent(\.parent, serverOnly: "search vehicles")) { message, parent, _ in
            // REST's body is the request less its path (`vehicles:search` under the parent).
            let query = try ProtoJSON.decode(VehicleSearchQuery.self, from: message, root: "", omitting: ["parent"])
            return try calls.reply(SearchResponse(matches: try await calls.fleet.searchVehicles(provider: parent.provider, query: query)))
        }
    }

    func deleteVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_DeleteVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        try await calls.serve(request, context, .resource(\.name, in: "vehicles", serverOnly: "delete vehicles")) { _, name, _ in
            try await calls.fleet.deleteVehicle(provider: name.provider, id: name.resourceID)
            return Google_Protobuf_Empty()
        }
    }

    /// UpdateVehicleAttributesRequest less its `name`.
    private struct AttributesRequest: Decodable {
        var attributes: [Attribute]?
    }

    /// The answer of UpdateVehicleAttributes: the vehicle's whole list after the merge.
    private struct AttributesResponse: Encodable {
        var attributes: [Attribute]
    }

    /// The answer of SearchVehicles, as REST's.
    private struct SearchResponse: Encodable {
        var matches: [VehicleMatch]
    }
}
