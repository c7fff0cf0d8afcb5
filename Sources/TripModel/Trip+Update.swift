// The rules for creating and updating trips (Fleet Engine's CreateTrip and UpdateTrip):
// required fields, the status state machine, and what a status change records.

extension Trip {
    /// Fields a client may name in an `updateMask`.
    package static let writableFields: Set<String> = [
        "vehicleId", "tripStatus", "tripType", "numberOfPassengers", "pickupPoint", "actualPickupPoint",
        "actualPickupArrivalPoint", "intermediateDestinations", "intermediateDestinationIndex",
        "actualIntermediateDestinationArrivalPoints", "actualIntermediateDestinations", "dropoffPoint", "actualDropoffPoint",
        "attributes", "vehicleWaypoints",
    ]
    /// Fields only the server writes (DESIGN §3).
    package static let outputOnlyFields: Set<String> = [
        "name", "pickupTime", "dropoffTime", "intermediateDestinationsVersion", "remainingWaypoints",
        "remainingWaypointsVersion", "route", "currentRouteSegment", "currentRouteSegmentVersion",
        "currentRouteSegmentTraffic", "currentRouteSegmentTrafficVersion", "currentRouteSegmentEndPoint",
        "remainingDistanceMeters", "etaToFirstWaypoint", "remainingTimeToFirstWaypoint", "remainingWaypointsRouteVersion",
        "lastLocation", "lastLocationSnappable", "view",
    ]

    /// A new trip from a create request: output-only fields are ignored; `pickupPoint` and
    /// `tripType` are required; the status starts at `NEW`.
    package static func created(from input: Trip, provider: String, id: String, now: Timestamp) throws(StatusError) -> Trip {
        try ResourceName.validateID(provider, field: "provider")
        try ResourceName.validateID(id, field: "tripId")
        guard input.pickupPoint != nil else { throw .invalid("trip.pickupPoint", "required field is missing") }
        guard input.tripType != nil else { throw .invalid("trip.tripType", "required field is missing") }
        if input.tripStatus != .new && input.tripStatus != .unknown {
            throw .invalid("trip.tripStatus", "a new trip starts as NEW, not \(input.tripStatus.rawValue)")
        }
        var trip = Trip(name: ResourceName.trip(provider: provider, id: id))
        var fields = ["tripType", "numberOfPassengers", "pickupPoint", "intermediateDestinations", "dropoffPoint", "attributes"]
        if input.vehicleId != nil { fields.append("vehicleId") }
        if !input.vehicleWaypoints.isEmpty { fields.append("vehicleWaypoints") }
        try trip.apply(input, mask: FieldMask(fields: fields), now: now, vehicleLocation: nil)
        if trip.numberOfPassengers == nil { trip.numberOfPassengers = 1 }
        return trip
    }

    /// Applies the masked fields of `input`. A status change must follow the state machine
    /// (else FAILED_PRECONDITION); arriving at pickup records `actualPickupArrivalPoint`,
    /// leaving it `actualPickupPoint` and `pickupTime`, arriving at and leaving an
    /// intermediate destination add to `actualIntermediateDestinationArrivalPoints` and
    /// `actualIntermediateDestinations`, completing records `actualDropoffPoint` and
    /// `dropoffTime`, from `vehicleLocation` and `now` unless the client sent them. An
    /// `intermediateDestinationsVersion` sent with a change of index or status must be the
    /// current one (else FAILED_PRECONDITION: the stops changed since the client read them).
    package mutating func apply(_ input: Trip, mask: FieldMask, now: Timestamp, vehicleLocation: VehicleLocation?) throws(StatusError) {
        try mask.validate(writable: Self.writableFields, outputOnly: Self.outputOnlyFields)
        if let seen = input.intermediateDestinationsVersion, mask.contains("intermediateDestinationIndex") || mask.contains("tripStatus"),
            seen != intermediateDestinationsVersion
        {
            throw StatusError(
                .failedPrecondition,
                "trip.intermediateDestinationsVersion: \(seen) is not the current version "
                    + "(\(intermediateDestinationsVersion?.rfc3339 ?? "none")); the intermediate destinations changed, read the trip again")
        }
        if tripStatus.isTerminal {
            let changesStatus = mask.contains("tripStatus") && input.tripStatus != tripStatus
            if changesStatus || mask.fields != ["tripStatus"] {
                throw StatusError(.failedPrecondition, "trip \(tripId) is \(tripStatus.rawValue) and can no longer change")
            }
            return
        }
        let previousStatus = tripStatus
        for field in mask.fields {
            let path = "trip.\(field)"
            switch field {
            case "vehicleId":
                if let id = input.vehicleId, !id.isEmpty {
                    try ResourceName.validateID(id, field: path)
                    vehicleId = id
                } else {
                    vehicleId = nil
                }
            case "tripStatus":
                guard input.tripStatus != .unknown else { throw .invalid(path, "required field is missing") }
                guard tripStatus.canMove(to: input.tripStatus) else {
                    throw StatusError(
                        .failedPrecondition,
                        "\(path): cannot move from \(tripStatus.rawValue) to \(input.tripStatus.rawValue)")
                }
                tripStatus = input.tripStatus
            case "tripType":
                guard input.tripType != nil else { throw .invalid(path, "required field is missing") }
                tripType = input.tripType
            case "numberOfPassengers":
                try Check.integer(input.numberOfPassengers, path, 1...Limits.maximumCapacity)
                numberOfPassengers = input.numberOfPassengers
            case "pickupPoint":
                guard let point = input.pickupPoint else { throw .invalid(path, "required field is missing") }
                try Check.terminal(point, path)
                pickupPoint = point
            case "actualPickupPoint":
                if let stop = input.actualPickupPoint { try Check.latLng(stop.point, "\(path).point") }
                actualPickupPoint = input.actualPickupPoint
            case "actualPickupArrivalPoint":
                if let stop = input.actualPickupArrivalPoint { try Check.latLng(stop.point, "\(path).point") }
                actualPickupArrivalPoint = input.actualPickupArrivalPoint
            case "actualIntermediateDestinationArrivalPoints":
                try Check.stops(input.actualIntermediateDestinationArrivalPoints, path)
                actualIntermediateDestinationArrivalPoints = input.actualIntermediateDestinationArrivalPoints
            case "actualIntermediateDestinations":
                try Check.stops(input.actualIntermediateDestinations, path)
                actualIntermediateDestinations = input.actualIntermediateDestinations
            case "intermediateDestinations":
                try Check.count(input.intermediateDestinations, path, max: Limits.maximumIntermediateDestinations)
                for (i, stop) in input.intermediateDestinations.enumerated() { try Check.terminal(stop, "\(path)[\(i)]") }
                if input.intermediateDestinations != intermediateDestinations || intermediateDestinationsVersion == nil {
                    intermediateDestinations = input.intermediateDestinations
                    intermediateDestinationsVersion = Versioning.next(after: intermediateDestinationsVersion, now: now)
                }
            case "intermediateDestinationIndex":
                intermediateDestinationIndex = input.intermediateDestinationIndex
            case "dropoffPoint":
                if let point = input.dropoffPoint { try Check.terminal(point, path) }
                dropoffPoint = input.dropoffPoint
            case "actualDropoffPoint":
                if let stop = input.actualDropoffPoint { try Check.latLng(stop.point, "\(path).point") }
                actualDropoffPoint = input.actualDropoffPoint
            case "attributes":
                try Check.attributes(input.attributes, path)
                attributes = input.attributes
            case "vehicleWaypoints":
                // Only the order is taken (JourneyState.checkStopOrder checks it against the
                // vehicle's trips); the write flow hands it to the vehicle.
                try Check.stopOrder(input.vehicleWaypoints, path)
                vehicleWaypoints = input.vehicleWaypoints.map(\.stop)
            default: break
            }
        }
        try recordStatusChange(from: previousStatus, mask: mask, now: now, vehicleLocation: vehicleLocation)
        if let index = intermediateDestinationIndex, !intermediateDestinations.indices.contains(index) {
            throw .invalid(
                "trip.intermediateDestinationIndex",
                "\(index) is out of range for \(intermediateDestinations.count) intermediate destinations")
        }
    }

    private mutating func recordStatusChange(
        from previous: TripStatus, mask: FieldMask, now: Timestamp,
        vehicleLocation: VehicleLocation?
    ) throws(StatusError) {
        guard tripStatus != previous else { return }
        let indexGiven = mask.contains("intermediateDestinationIndex")
        let here = vehicleLocation?.location
        let stopHere = here.map { StopLocation(point: $0, timestamp: now) }
        // Leaving an intermediate destination: the rider boarded there.
        if previous == .arrivedAtIntermediateDestination, !tripStatus.isTerminal, !mask.contains("actualIntermediateDestinations"),
            let stopHere
        {
            actualIntermediateDestinations.append(stopHere)
        }
        switch tripStatus {
        case .arrivedAtPickup:
            if !mask.contains("actualPickupArrivalPoint"), let stopHere { actualPickupArrivalPoint = stopHere }
        case .arrivedAtIntermediateDestination:
            if !mask.contains("actualIntermediateDestinationArrivalPoints"), let stopHere {
                actualIntermediateDestinationArrivalPoints.append(stopHere)
            }
        case .enrouteToIntermediateDestination:
            if intermediateDestinations.isEmpty {
                throw StatusError(.failedPrecondition, "trip.tripStatus: the trip has no intermediate destinations")
            }
            if !indexGiven {
                intermediateDestinationIndex = previous == .arrivedAtIntermediateDestination ? (intermediateDestinationIndex ?? -1) + 1 : 0
            }
            if (intermediateDestinationIndex ?? 0) >= intermediateDestinations.count {
                throw StatusError(.failedPrecondition, "trip.tripStatus: every intermediate destination has been visited")
            }
        case .complete:
            if actualDropoffPoint == nil, let here { actualDropoffPoint = StopLocation(point: here, timestamp: now) }
            dropoffTime = now
        default: break
        }
        // The state machine passes pickup only by leaving ARRIVED_AT_PICKUP.
        if previous == .arrivedAtPickup && tripStatus != .canceled {
            if actualPickupPoint == nil, let here { actualPickupPoint = StopLocation(point: here, timestamp: now) }
            pickupTime = now
        }
        if tripStatus.isTerminal { detachFromVehicle(now: now) }
    }

    /// Drops the live fields that only make sense while the trip runs.
    mutating func clearProgress() {
        remainingWaypoints = []
        route = []
        currentRouteSegment = nil
        currentRouteSegmentTraffic = nil
        currentRouteSegmentEndPoint = nil
        remainingDistanceMeters = nil
        etaToFirstWaypoint = nil
        remainingTimeToFirstWaypoint = nil
        lastLocationSnappable = nil
        if tripStatus == .canceled { dropoffTime = nil }
    }
}
