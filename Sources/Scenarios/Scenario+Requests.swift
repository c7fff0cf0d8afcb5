// The HTTP request each timeline call stands for. The fixture runner sends it through the
// router in process; `tripshare demo` sends it to a live server at the call's offset.

import Access
import Foundation
import JSON
import TripModel

extension Scenario {
    /// One REST request: method, path with its query string, and body.
    package struct Request: Sendable {
        /// `POST`, `PUT` or `DELETE`.
        package var method: String
        /// The path, with `vehicleId`/`tripId`/`updateMask` in its query string.
        package var path: String
        /// The JSON body, if the call sends one.
        package var body: JSONValue?
        /// Who may send it: styles are every provider's, the rest the scenario's provider's.
        package var provider: String
    }

    /// The path under which the scenario's resources live.
    package var providerPath: String { "/v1/providers/\(Self.escape(provider))" }

    /// The request `call` sends (a create without a body sends the scenario's resource).
    package func request(for call: Call) -> Request {
        let id = Self.escape(call.id)
        let mask = call.updateMask.map { "?updateMask=\(Self.escape($0))" } ?? ""
        let p = providerPath
        switch call.op {
        case .createVehicle:
            return Request(method: "POST", path: "\(p)/vehicles?vehicleId=\(id)", body: call.body ?? vehicles[call.id], provider: provider)
        case .updateVehicle: return Request(method: "PUT", path: "\(p)/vehicles/\(id)\(mask)", body: call.body, provider: provider)
        case .deleteVehicle: return Request(method: "DELETE", path: "\(p)/vehicles/\(id)", body: nil, provider: provider)
        case .createTrip: return Request(method: "POST", path: "\(p)/trips?tripId=\(id)", body: call.body ?? trips[call.id], provider: provider)
        case .updateTrip: return Request(method: "PUT", path: "\(p)/trips/\(id)\(mask)", body: call.body, provider: provider)
        case .deleteTrip: return Request(method: "DELETE", path: "\(p)/trips/\(id)", body: nil, provider: provider)
        case .setRoute:
            return Request(method: "PUT", path: "\(p)/vehicles/\(id)/route", body: call.route.flatMap { routes[$0] }, provider: provider)
        case .deleteRoute: return Request(method: "DELETE", path: "\(p)/vehicles/\(id)/route", body: nil, provider: provider)
        case .putStyle:
            return Request(method: "PUT", path: "/v1/styles/\(id)", body: call.body ?? styles[call.id], provider: Principal.allProviders)
        }
    }

    /// A path component with the characters that would end it escaped.
    package static func escape(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#&=+"))) ?? component
    }
}

extension JSONValue {
    /// `value` as a client sends it: encoded from the model type, keeping only the top-level
    /// `fields` when given (an update's mask, or what a create sets), so an API change breaks
    /// the build, not the request.
    package static func body(_ value: some Encodable, fields: [String]? = nil) throws -> JSONValue {
        guard case .object(let members) = try JSONParser.parse(Array(try JSONCoding.encode(value))) else {
            throw ScenarioError("\(type(of: value)) does not encode as an object")
        }
        guard let fields else { return .object(members) }
        return .object(members.filter { fields.contains($0.key) })
    }
}
