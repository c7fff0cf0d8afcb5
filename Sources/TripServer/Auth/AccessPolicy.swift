import TripModel

/// The role matrix of DESIGN §4 as pure checks; each failure is a 403 that says what the
/// token may not do (and never whether the other resource exists).
enum AccessPolicy {
    /// The path parameter that names a provider: every guarded route that has it is checked
    /// against the token's provider by ``AuthMiddleware``.
    static let providerParameter = "provider"

    /// A token is good only for its own provider's resources (a server token naming `*`, for
    /// every provider's).
    static func checkProvider(_ principal: Principal, provider: String) throws(APIError) {
        guard principal.mayAccess(provider: provider) else {
            throw .denied("this \(principal.role.rawValue) token is for provider '\(principal.provider)', not '\(provider.prefix(64))'")
        }
    }

    /// Changes that reach every provider's resources (the style sheets all previews are drawn
    /// with) take a server token for every provider (`authorization.provider` `*`).
    static func requireServerOfAllProviders(_ principal: Principal, _ action: String) throws(APIError) {
        try requireServer(principal, action)
        guard principal.provider == Principal.allProviders else {
            throw .denied(
                "styles are shared by every provider of this server: to \(action), use a server token for every "
                    + "provider (`tripshare token --role server --provider '*'`); this one is for '\(principal.provider)'")
        }
    }
    /// Calls only a server token may make: creating and deleting resources, listing,
    /// searching, styles.
    static func requireServer(_ principal: Principal, _ action: String) throws(APIError) {
        guard principal.role == .server else { throw .denied("a \(principal.role.rawValue) token may not \(action)") }
    }

    /// A consumer may read only its own trip, and only in the journey-sharing view.
    /// Drivers are checked against the trip's vehicle once it is loaded (``checkDriver``).
    static func checkTripRead(_ principal: Principal, tripId: String, view: TripView) throws(APIError) {
        switch principal.role {
        case .server, .driver: return
        case .consumer:
            guard principal.tripId == tripId else { throw .denied("this consumer token is for another trip") }
            guard view == .journeySharingV1S else {
                throw .denied("a consumer token may read only the JOURNEY_SHARING_V1S view")
            }
        }
    }

    /// A driver may touch a trip only while it is assigned to the driver's vehicle.
    static func checkDriver(_ principal: Principal, trip: Trip) throws(APIError) {
        guard principal.role == .driver else { return }
        guard let vehicle = principal.vehicleId, trip.vehicleId == vehicle else {
            throw .denied("this driver token is for a vehicle that does not serve this trip")
        }
    }

    /// Trip fields a driver may change: its progress, not the booking.
    static let driverTripFields: Set<String> = ["tripStatus", "intermediateDestinationIndex", "actualPickupPoint", "actualDropoffPoint"]

    /// Who may update a trip, and which fields.
    static func checkTripWrite(_ principal: Principal, mask: FieldMask) throws(APIError) {
        switch principal.role {
        case .server: return
        case .consumer: throw .denied("a consumer token may not change trips")
        case .driver:
            if let field = mask.fields.first(where: { !driverTripFields.contains($0) }) {
                throw .denied("a driver token may not change '\(field)'; drivers may change \(driverTripFields.sorted().joined(separator: ", "))")
            }
        }
    }

    /// Who may read or update a vehicle: a server, or the driver of that vehicle.
    static func checkVehicle(_ principal: Principal, vehicleId: String, write: Bool) throws(APIError) {
        switch principal.role {
        case .server: return
        case .consumer: throw .denied("a consumer token may not \(write ? "change" : "read") vehicles")
        case .driver:
            guard principal.vehicleId == vehicleId else { throw .denied("this driver token is for another vehicle") }
        }
    }
}
