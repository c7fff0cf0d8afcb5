import TripModel

/// The role rules of DESIGN §4, written once for both wires: REST's routes and gRPC's
/// methods call these same checks with the same messages. Each failure is a
/// PERMISSION_DENIED that says what the token may not do (and never whether the other
/// resource exists).
package enum AccessPolicy {
    /// A token is good only for its own provider's resources (a server token naming `*`, for
    /// every provider's).
    package static func checkProvider(_ principal: Principal, provider: String) throws(AccessDenied) {
        guard principal.mayAccess(provider: provider) else {
            throw .denied("this \(principal.role.rawValue) token is for provider '\(principal.provider)', not '\(provider.prefix(64))'")
        }
    }

    /// Changes that reach every provider's resources (the style sheets all previews are drawn
    /// with) take a server token for every provider (`authorization.provider` `*`).
    package static func requireServerOfAllProviders(_ principal: Principal, _ action: String) throws(AccessDenied) {
        try requireServer(principal, action)
        guard principal.provider == Principal.allProviders else {
            throw .denied(
                "styles are shared by every provider of this server: to \(action), use a server token for every "
                    + "provider (`tripshare token --role server --provider '*'`); this one is for '\(principal.provider)'")
        }
    }

    /// Calls only a server token may make: creating and deleting resources, listing,
    /// searching, styles.
    package static func requireServer(_ principal: Principal, _ action: String) throws(AccessDenied) {
        guard principal.role == .server else { throw .denied("a \(principal.role.rawValue) token may not \(action)") }
    }

    /// The trip a share link opens (its page, its picture, its map: `what`): a share link
    /// carries a consumer token for one trip, and any other token opens nothing there.
    package static func sharedTrip(_ principal: Principal, _ what: String) throws(AccessDenied) -> String {
        guard principal.role == .consumer, let tripId = principal.tripId else {
            throw .denied("a share link's \(what) opens with a consumer token for one trip")
        }
        return tripId
    }

    /// The vehicle a driver's page link opens: it carries a driver token for one vehicle.
    package static func drivenVehicle(_ principal: Principal) throws(AccessDenied) -> String {
        guard principal.role == .driver, let vehicleId = principal.vehicleId else {
            throw .denied("a driver's page opens with a driver token for one vehicle")
        }
        return vehicleId
    }

    /// The trip view a read gets: the one asked for, else what the caller may see (a
    /// consumer's is JOURNEY_SHARING_V1S, everyone else's SDK).
    package static func tripView(requested: TripView?, for principal: Principal) -> TripView {
        guard let requested, requested != .unspecified else { return principal.role == .consumer ? .journeySharingV1S : .sdk }
        return requested
    }

    /// A consumer may read only its own trip, and only in the journey-sharing view.
    /// Drivers are checked against the trip's vehicle once it is loaded (``checkDriver``).
    package static func checkTripRead(_ principal: Principal, tripId: String, view: TripView) throws(AccessDenied) {
        switch principal.role {
        case .server, .driver: return
        case .consumer:
            try checkConsumerTrip(principal, tripId: tripId)
            guard view == .journeySharingV1S else {
                throw .denied("a consumer token may read only the JOURNEY_SHARING_V1S view")
            }
        }
    }

    /// A consumer may follow only its own trip (its events, its preview, its page).
    package static func checkConsumerTrip(_ principal: Principal, tripId: String) throws(AccessDenied) {
        if principal.role == .consumer, principal.tripId != tripId { throw .denied("this consumer token is for another trip") }
    }

    /// A driver may touch a trip only while it is assigned to the driver's vehicle. Another
    /// vehicle's trip is answered as a trip that does not exist (404, the same message), so a
    /// driver cannot learn which trip IDs exist (issue 29, item 6).
    /// Whether ``checkDriver(_:trip:)`` needs the trip to decide: a read by anyone else may
    /// be answered before the trip is read (from a view encoded for its revision).
    package static func checkDriverNeedsTrip(_ principal: Principal) -> Bool { principal.role == .driver }

    package static func checkDriver(_ principal: Principal, trip: Trip) throws(AccessDenied) {
        guard principal.role == .driver else { return }
        guard let vehicle = principal.vehicleId, trip.vehicleId == vehicle else {
            throw AccessDenied(StatusError.notFound("trip", trip.tripId))
        }
    }

    /// Trip fields a driver may change: its progress, not the booking.
    package static let driverTripFields: Set<String> = [
        "tripStatus", "intermediateDestinationIndex", "actualPickupPoint", "actualDropoffPoint",
    ]

    /// Who may update a trip, and which fields.
    package static func checkTripWrite(_ principal: Principal, mask: FieldMask) throws(AccessDenied) {
        switch principal.role {
        case .server: return
        case .consumer: throw .denied("a consumer token may not change trips")
        case .driver:
            if let field = mask.fields.first(where: { !driverTripFields.contains($0) }) {
                throw .denied("a driver token may not change '\(field)'; drivers may change \(driverTripFields.sorted().joined(separator: ", "))")
            }
        }
    }

    /// Who may update a trip, and which fields, as ``checkTripWrite(_:mask:)``; a driver only
    /// while the trip is assigned to its vehicle (``checkDriver(_:trip:)``). `trip` reads the
    /// trip, and is called only for a driver: a server's update costs no extra read.
    package static func checkTripWrite(_ principal: Principal, mask: FieldMask, trip: () async throws -> Trip) async throws {
        try checkTripWrite(principal, mask: mask)
        if principal.role == .driver { try checkDriver(principal, trip: try await trip()) }
    }

    /// Who may read or update a vehicle: a server, or the driver of that vehicle.
    package static func checkVehicle(_ principal: Principal, vehicleId: String, write: Bool) throws(AccessDenied) {
        switch principal.role {
        case .server: return
        case .consumer: throw .denied("a consumer token may not \(write ? "change" : "read") vehicles")
        case .driver:
            guard principal.vehicleId == vehicleId else { throw .denied("this driver token is for another vehicle") }
        }
    }

    /// Vehicle fields a driver may write; the rest (capacity, types, attributes) are the
    /// provider's.
    package static let driverVehicleFields: Set<String> = [
        "vehicleState", "lastLocation", "currentRouteSegment", "currentRouteSegmentEndPoint", "currentRouteSegmentTraffic",
        "remainingDistanceMeters", "remainingTimeSeconds", "etaToFirstWaypoint", "navigationStatus", "deviceSettings",
        "pastLocations",
    ]

    /// Whether the pictures a token has drawn count against the server's pixel budget: a
    /// driver's and a consumer's do; a server token's do not (a provider's backend draws for
    /// its whole fleet), as with the request rate.
    package static func drawsWithinPixelBudget(_ principal: Principal) -> Bool {
        principal.role != .server
    }

    /// Who may update a vehicle, and which fields: a server any, its driver the
    /// ``driverVehicleFields``.
    package static func checkVehicleUpdate(_ principal: Principal, vehicleId: String, mask: FieldMask) throws(AccessDenied) {
        try checkVehicle(principal, vehicleId: vehicleId, write: true)
        if principal.role == .driver, let field = mask.fields.first(where: { !driverVehicleFields.contains($0) }) {
            throw .denied("a driver token may not change '\(field)'")
        }
    }
}
