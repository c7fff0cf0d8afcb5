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
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let parent = try WireName.parent(message.parent)
            try AccessPolicy.checkProvider(principal, provider: parent.provider)
            try AccessPolicy.requireServer(principal, "create vehicles")
            if message.vehicleID.isEmpty { throw StatusError.invalid("vehicleId", "is required") }
            let input = try ProtoJSON.decode(Vehicle.self, from: message.vehicle, root: "vehicle")
            let created = try await calls.fleet.createVehicle(provider: parent.provider, id: message.vehicleID, input: input)
            return try ProtoJSON.message(WireVehicle.self, encoding: created, logger: calls.logger)
        }
    }

    func getVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_GetVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireVehicle> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let name = try calls.vehicleName(message.name, principal)
            try AccessPolicy.checkVehicle(principal, vehicleId: name.resourceID, write: false)
            let vehicle = try await calls.fleet.vehicle(provider: name.provider, id: name.resourceID)
            return try ProtoJSON.message(WireVehicle.self, encoding: vehicle, logger: calls.logger)
        }
    }

    func updateVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<WireVehicle> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let name = try calls.vehicleName(message.name, principal)
            let mask = FieldMask(wire: message.updateMask)
            try AccessPolicy.checkVehicleUpdate(principal, vehicleId: name.resourceID, mask: mask)
            let input = try ProtoJSON.decode(Vehicle.self, from: message.vehicle, root: "vehicle")
            let json = try await calls.fleet.updateVehicleJSON(
                provider: name.provider, id: name.resourceID, input: input, mask: mask, extensions: .none)
            return try ProtoJSON.message(WireVehicle.self, json: json, logger: calls.logger)
        }
    }

    func updateVehicleAttributes(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleAttributesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_UpdateVehicleAttributesResponse> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let name = try calls.vehicleName(message.name, principal)
            try AccessPolicy.requireServer(principal, "update vehicle attributes")
            let body = try ProtoJSON.decode(AttributesRequest.self, from: message, root: "", omitting: ["name", "header"])
            let merged = try await calls.fleet.updateVehicleAttributes(
                provider: name.provider, id: name.resourceID, attributes: body.attributes ?? [])
            return try ProtoJSON.message(
                Maps_Fleetengine_V1_UpdateVehicleAttributesResponse.self, encoding: AttributesResponse(attributes: merged),
                logger: calls.logger)
        }
    }

    func listVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_ListVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_ListVehiclesResponse> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let parent = try WireName.parent(message.parent)
            try AccessPolicy.checkProvider(principal, provider: parent.provider)
            try AccessPolicy.requireServer(principal, "list vehicles")
            // The same request REST reads from its query parameters, every field and the filter.
            let query = try ProtoJSON.decode(VehicleListQuery.self, from: message, root: "", omitting: ["parent", "header"])
            let result = try await calls.fleet.listVehicles(provider: parent.provider, query: query)
            return try ProtoJSON.message(
                Maps_Fleetengine_V1_ListVehiclesResponse.self,
                encoding: VehicleListResponse(result), logger: calls.logger)
        }
    }

    func searchVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_SearchVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_SearchVehiclesResponse> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let parent = try WireName.parent(message.parent)
            try AccessPolicy.checkProvider(principal, provider: parent.provider)
            try AccessPolicy.requireServer(principal, "search vehicles")
            // REST's body is the request less its path (`vehicles:search` under the parent).
            let query = try ProtoJSON.decode(VehicleSearchQuery.self, from: message, root: "", omitting: ["parent"])
            let matches = try await calls.fleet.searchVehicles(provider: parent.provider, query: query)
            return try ProtoJSON.message(
                Maps_Fleetengine_V1_SearchVehiclesResponse.self, encoding: SearchResponse(matches: matches), logger: calls.logger)
        }
    }

    func deleteVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_DeleteVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        let message = request.message
        return try await calls.run(request.metadata, context) { principal in
            let name = try calls.vehicleName(message.name, principal)
            try AccessPolicy.requireServer(principal, "delete vehicles")
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

extension Calls {
    /// The vehicle a request's `name` names, checked against the caller's provider.
    func vehicleName(_ text: String, _ principal: Principal) throws -> WireName {
        let name = try WireName.resource(text, collection: "vehicles", field: "name")
        try AccessPolicy.checkProvider(principal, provider: name.provider)
        return name
    }

    /// The trip a request's `name` names, checked against the caller's provider.
    func tripName(_ text: String, _ principal: Principal) throws -> WireName {
        let name = try WireName.resource(text, collection: "trips", field: "name")
        try AccessPolicy.checkProvider(principal, provider: name.provider)
        return name
    }
}
