import TripModel
import TripStore

/// A `trips:search` request as REST's body and gRPC's SearchTripsRequest (through proto3
/// JSON) carry it: one strict decoding for both wires (DESIGN §14).
package struct TripSearchRequest: Decodable, Sendable {
    /// Only trips assigned to this vehicle.
    package var vehicleId: String?
    /// Only trips that are not COMPLETE or CANCELED.
    package var activeTripsOnly: Bool?
    /// Trips per page; 0 or absent for the default.
    package var pageSize: Int?
    /// The previous page's `nextPageToken`.
    package var pageToken: String?
    /// Only trips whose state changed within this long ago; absent for any.
    package var minimumStaleness: ProtoDuration?

    /// The query the request asks for; INVALID_ARGUMENT for a page size out of range.
    package func query() throws(StatusError) -> TripSearchQuery {
        TripSearchQuery(
            vehicleId: vehicleId, activeTripsOnly: activeTripsOnly ?? false,
            page: try PageRequest(pageSize: pageSize ?? 0, pageToken: pageToken))
    }
}
