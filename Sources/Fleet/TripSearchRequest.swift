import TripModel
import TripStore

/// A `trips:search` request as REST's body and gRPC's SearchTripsRequest (through proto3
/// JSON) carry it: one strict decoding for both wires (DESIGN §14).
public struct TripSearchRequest: Decodable, Sendable {
    /// Only trips assigned to this vehicle.
    public var vehicleId: String?
    /// Only trips that are not COMPLETE or CANCELED.
    public var activeTripsOnly: Bool?
    /// Trips per page; 0 or absent for the default.
    public var pageSize: Int?
    /// The previous page's `nextPageToken`.
    public var pageToken: String?
    /// Only trips whose state changed within this long ago; absent for any.
    public var minimumStaleness: ProtoDuration?

    /// The query the request asks for; INVALID_ARGUMENT for a page size out of range.
    public func query() throws(StatusError) -> TripSearchQuery {
        TripSearchQuery(
            vehicleId: vehicleId, activeTripsOnly: activeTripsOnly ?? false,
            page: try PageRequest(pageSize: pageSize ?? 0, pageToken: pageToken))
    }
}
