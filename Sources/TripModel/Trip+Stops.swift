extension Trip {
    /// The stops this trip still has to make, in order, given its status: pickup (until the
    /// vehicle leaves it), the intermediate destinations not yet passed, and the dropoff.
    package var remainingStops: [TripWaypoint] {
        let id = tripId
        var stops: [TripWaypoint] = []
        if tripStatus.isTerminal { return stops }
        if tripStatus.isBeforePickup || tripStatus == .arrivedAtPickup, let pickupPoint {
            stops.append(TripWaypoint(location: pickupPoint, tripId: id, waypointType: .pickup))
        }
        let firstIntermediate: Int
        switch tripStatus {
        case .enrouteToIntermediateDestination, .arrivedAtIntermediateDestination:
            firstIntermediate = intermediateDestinationIndex ?? 0
        case .enrouteToDropoff:
            firstIntermediate = intermediateDestinations.count
        default:
            firstIntermediate = 0
        }
        for stop in intermediateDestinations.dropFirst(firstIntermediate) {
            stops.append(TripWaypoint(location: stop, tripId: id, waypointType: .intermediateDestination))
        }
        if let dropoffPoint {
            stops.append(TripWaypoint(location: dropoffPoint, tripId: id, waypointType: .dropOff))
        }
        return stops
    }

    /// Forgets the live state derived from a vehicle: the trip ended or left its vehicle.
    package mutating func detachFromVehicle(now: Timestamp) {
        let hadStops = !remainingWaypoints.isEmpty
        clearProgress()
        lastLocation = tripStatus.isTerminal ? lastLocation : nil
        if hadStops {
            remainingWaypointsVersion = Versioning.next(after: remainingWaypointsVersion, now: now)
            remainingWaypointsRouteVersion = Versioning.next(after: remainingWaypointsRouteVersion, now: now)
        }
        if !tripStatus.isTerminal {
            pickupTime = tripStatus.isBeforePickup || tripStatus == .arrivedAtPickup ? nil : pickupTime
            dropoffTime = nil
        }
    }
}
