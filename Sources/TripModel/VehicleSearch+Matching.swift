// How a vehicle that meets a search's criteria (VehicleCriteria) becomes a match: which of
// its trips allow it, where the new pickup and dropoff go among its stops, and the estimates
// that follow. The rules are written out in docs/vehicle-search.md.
//
// The vehicle's own stops keep the times its journey state gives them (the navigator's or
// the estimator's, JourneyState); the new legs are straight lines times the detour factor at
// the vehicle category's speed (Estimation), as for any leg without a route.

import Geo

extension VehicleSearchQuery {
    /// Seconds added per metre of straight-line distance in the COST order: a vehicle 1 km
    /// away costs 100 s more than one as quick to reach but beside the pickup.
    package static let costSecondsPerMeter = 0.1

    /// The match for a vehicle that meets ``criteria(now:)``, or nil when its trips, seats or
    /// the radius rule it out. `trips` are its unfinished trips.
    package func match(_ vehicle: Vehicle, trips: [Trip], now: Timestamp) -> VehicleMatch? {
        guard let here = vehicle.lastLocation?.location, let tripType = tripTypes.first,
            vehicle.supportedTripTypes.contains(tripType)
        else { return nil }
        let straight = Earth.distance(here, pickupPoint.point)
        guard straight <= Double(pickupRadiusMeters) else { return nil }
        let active = trips.filter { $0.tripId != tripId && !$0.tripStatus.isTerminal }
        let capacity = vehicle.maximumCapacity ?? 0
        let legs = Legs(speed: Estimation.freeFlowSpeed(vehicle.vehicleType?.category))
        let route = Route(vehicle: vehicle, at: here, active: active, now: now, legs: legs)

        let plan: Plan
        let matchType: VehicleMatchType
        if active.isEmpty {
            guard capacity >= minimumCapacity else { return nil }
            plan = route.appended(pickup: pickupPoint.point, dropoff: dropoffPoint?.point)
            matchType = .exclusive
        } else {
            switch currentTripsPresent {
            case .none: return nil
            case .unspecified:
                guard includeBackToBack, vehicle.backToBackEnabled == true, active.count == 1,
                    active[0].tripStatus == .enrouteToDropoff, capacity >= minimumCapacity
                else { return nil }
                plan = route.appended(pickup: pickupPoint.point, dropoff: dropoffPoint?.point)
                matchType = .backToBack
            case .any:
                guard active.count <= Self.maximumCurrentTrips, route.stops.count <= Self.maximumCurrentWaypoints,
                    capacity >= minimumCapacity
                else { return nil }
                if tripType == .exclusive {
                    plan = route.appended(pickup: pickupPoint.point, dropoff: dropoffPoint?.point)
                    matchType = .backToBack
                } else {
                    // Sharing needs every current rider to share too; otherwise the new
                    // rider waits until the vehicle has finished.
                    let shareable = active.allSatisfy { $0.tripType == .shared }
                    guard let dropoff = dropoffPoint?.point,
                        let best = route.bestInsertion(
                            pickup: pickupPoint.point, dropoff: dropoff, seats: minimumCapacity, capacity: capacity,
                            afterAllStops: !shareable)
                    else { return nil }
                    plan = best
                    matchType = best.pickupIndex == route.stops.count ? .carpoolBackToBack : .carpool
                }
            }
        }
        return VehicleMatch(
            vehicle: vehicle, vehiclePickupEta: plan.pickupEta, vehiclePickupDistanceMeters: Int(plan.pickupMeters.rounded()),
            vehiclePickupStraightLineDistanceMeters: Int(straight.rounded()), vehicleDropoffEta: plan.dropoffEta,
            vehiclePickupToDropoffDistanceMeters: dropoffPoint.map { Int(legs.meters(pickupPoint.point, $0.point).rounded()) },
            tripType: tripType, vehicleTripsWaypoints: plan.waypoints, vehicleMatchType: matchType, orderedBy: orderBy)
    }

    /// Orders matches as asked (ties by vehicle name) and keeps at most `count`. Their
    /// positions are sorted, not the matches: each holds its whole vehicle, and moving
    /// hundreds of them about took a tenth of a search's time (issue 31).
    package func rank(_ matches: [VehicleMatch]) -> [VehicleMatch] {
        let keys = matches.map(rankKey)
        let order = matches.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a] < keys[b] : matches[a].vehicle.name < matches[b].vehicle.name
        }
        return order.prefix(count).map { matches[$0] }
    }

    private func rankKey(_ match: VehicleMatch) -> Double {
        switch orderBy {
        case .pickupPointETA, .unknown: match.vehiclePickupEta.secondsSince1970
        case .pickupPointDistance: Double(match.vehiclePickupDistanceMeters)
        case .dropoffPointETA: (match.vehicleDropoffEta ?? match.vehiclePickupEta).secondsSince1970
        case .pickupPointStraightDistance: Double(match.vehiclePickupStraightLineDistanceMeters)
        // Seconds to the pickup plus the weighted distance; every ETA counts from the same now.
        case .cost:
            match.vehiclePickupEta.secondsSince1970 + Double(match.vehiclePickupStraightLineDistanceMeters) * Self.costSecondsPerMeter
        }
    }
}

/// Road distance and driving time of a leg without a route.
private struct Legs {
    let speed: Double

    func meters(_ a: LatLng, _ b: LatLng) -> Double { Earth.distance(a, b) * Estimation.detourFactor }
    func seconds(_ a: LatLng, _ b: LatLng) -> Double { meters(a, b) / speed }
}

/// Where a new rider's stops go and what follows from it.
private struct Plan {
    /// How many of the vehicle's stops come before the new pickup.
    var pickupIndex: Int
    var pickupEta: Timestamp
    var pickupMeters: Double
    var dropoffEta: Timestamp?
    var waypoints: [Waypoint]
    /// Seconds the new stops add to the vehicle's way.
    var addedSeconds: Double
}

/// A vehicle's way as it stands: its position, then its stops with their times and the
/// passengers on board after each.
private struct Route {
    struct Stop {
        var point: LatLng
        var eta: Timestamp
        /// Driving metres from the vehicle.
        var meters: Double
        /// Passengers on board once the stop is made.
        var load: Int
    }

    let here: LatLng
    let now: Timestamp
    let legs: Legs
    /// Passengers on board now.
    let load: Int
    let stops: [Stop]

    init(vehicle: Vehicle, at here: LatLng, active: [Trip], now: Timestamp, legs: Legs) {
        self.here = here
        self.now = now
        self.legs = legs
        let passengers = Dictionary(active.map { ($0.tripId, $0.numberOfPassengers ?? 1) }, uniquingKeysWith: { a, _ in a })
        load = active.filter { !$0.tripStatus.isBeforePickup && $0.tripStatus != .arrivedAtPickup }.reduce(0) {
            $0 + ($1.numberOfPassengers ?? 1)
        }
        var stops: [Stop] = []
        var previous = here
        var eta = now
        var meters = 0.0
        var onBoard = load
        for waypoint in vehicle.waypoints {
            guard let id = waypoint.tripId, let riders = passengers[id], let point = waypoint.location?.point else { continue }
            eta = max(eta, waypoint.eta ?? eta.adding(seconds: legs.seconds(previous, point)))
            meters += waypoint.distanceMeters.map(Double.init) ?? legs.meters(previous, point)
            switch waypoint.waypointType {
            case .pickup: onBoard += riders
            case .dropOff: onBoard -= riders
            default: break
            }
            stops.append(Stop(point: point, eta: eta, meters: meters, load: onBoard))
            previous = point
        }
        self.stops = stops
    }

    /// The point and time of stop `index` counted from the vehicle (0 is the vehicle itself).
    private func place(_ index: Int) -> (point: LatLng, eta: Timestamp, meters: Double, load: Int) {
        index == 0 ? (here, now, 0, load) : (stops[index - 1].point, stops[index - 1].eta, stops[index - 1].meters, stops[index - 1].load)
    }

    /// The new stops after all the vehicle's stops.
    func appended(pickup: LatLng, dropoff: LatLng?) -> Plan {
        plan(pickup: pickup, dropoff: dropoff, after: stops.count, and: stops.count)
    }

    /// The pickup after `i` of the vehicle's stops and the dropoff after `j` (j ≥ i).
    private func plan(pickup: LatLng, dropoff: LatLng?, after i: Int, and j: Int) -> Plan {
        let from = place(i)
        let pickupEta = from.eta.adding(seconds: legs.seconds(from.point, pickup))
        var waypoints = [Waypoint(latLng: here, eta: now)]
        waypoints += stops.prefix(i).map { Waypoint(latLng: $0.point, eta: $0.eta) }
        waypoints.append(Waypoint(latLng: pickup, eta: pickupEta))
        var added = legs.seconds(from.point, pickup)
        var dropoffEta: Timestamp?
        if let dropoff {
            // The stops between keep their gaps, shifted by the way round the pickup.
            var cursor = (point: pickup, eta: pickupEta)
            if j > i {
                let next = stops[i]
                let shift = pickupEta.adding(seconds: legs.seconds(pickup, next.point)).seconds(since: next.eta)
                for stop in stops[i..<j] {
                    waypoints.append(Waypoint(latLng: stop.point, eta: stop.eta.adding(seconds: shift)))
                }
                cursor = (stops[j - 1].point, stops[j - 1].eta.adding(seconds: shift))
                added += legs.seconds(pickup, next.point) - legs.seconds(from.point, next.point)
            }
            let eta = cursor.eta.adding(seconds: legs.seconds(cursor.point, dropoff))
            waypoints.append(Waypoint(latLng: dropoff, eta: eta))
            dropoffEta = eta
            added += legs.seconds(cursor.point, dropoff)
            if j < stops.count {
                added += legs.seconds(dropoff, stops[j].point) - legs.seconds(place(j).point, stops[j].point)
            }
        } else if i < stops.count {
            added += legs.seconds(pickup, stops[i].point) - legs.seconds(from.point, stops[i].point)
        }
        return Plan(
            pickupIndex: i, pickupEta: pickupEta, pickupMeters: from.meters + legs.meters(from.point, pickup), dropoffEta: dropoffEta,
            waypoints: waypoints, addedSeconds: added)
    }

    /// The places for the new pickup and dropoff that add the least time to the vehicle's way
    /// while `seats` more riders fit wherever the new rider is on board; ties go to the
    /// earlier dropoff. With `afterAllStops`, only after every current stop.
    func bestInsertion(pickup: LatLng, dropoff: LatLng, seats: Int, capacity: Int, afterAllStops: Bool) -> Plan? {
        var best: Plan?
        for i in (afterAllStops ? stops.count : 0)...stops.count {
            for j in i...stops.count {
                // On board from the pickup (after place i) to the dropoff (after place j).
                guard (i...j).allSatisfy({ place($0).load + seats <= capacity }) else { break }
                let candidate = plan(pickup: pickup, dropoff: dropoff, after: i, and: j)
                if let current = best {
                    let better =
                        candidate.addedSeconds < current.addedSeconds - 1e-9
                        || (abs(candidate.addedSeconds - current.addedSeconds) <= 1e-9
                            && (candidate.dropoffEta ?? candidate.pickupEta) < (current.dropoffEta ?? current.pickupEta))
                    if !better { continue }
                }
                best = candidate
            }
        }
        return best
    }
}
