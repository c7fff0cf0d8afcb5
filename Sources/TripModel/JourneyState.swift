import Geo

/// The trip state riders see, derived from the vehicle (DESIGN §5): run on every write that
/// touches a vehicle or its trips, inside the store's transaction.
///
/// The vehicle is snapped onto its current route segment (incrementally, from where it was
/// last time, or where its navigator has it); the first leg runs along that segment from the
/// snapped position, carrying the driver's traffic report; later legs follow the navigator's
/// route where it leads from one stop to the next, and are straight stand-ins where no route
/// is known (see ``Estimation``). Driver-sent remaining distance and time
/// win for the first leg; where the vehicle's navigator has a route (``RouteProgress``), the
/// legs it visits take its distances and times; otherwise distance is measured on the route
/// and time estimated by ``RoutePace`` (typical speed, traffic, turns, the fleet's road
/// cells, the vehicle's own pace), scaled by how the driver's own reports compared with that
/// estimate on this route.
public enum JourneyState {
    /// What prompted a refresh.
    public struct Trigger: Sendable {
        /// The server time of the write.
        package var now: Timestamp
        /// The write set a new `lastLocation`.
        package var locationUpdated: Bool
        /// The write carried a driver-sent `remainingDistanceMeters`.
        package var driverSentDistance: Bool
        /// The write carried a driver-sent `remainingTimeSeconds`.
        package var driverSentTime: Bool
        /// The write set the vehicle's `waypoints` (the order of stops): it must hold every
        /// remaining stop of its trips, each trip's in its own order (``checkStopOrder``).
        package var waypointsSet: Bool
        /// The write changed the paths the trips' waypoints follow other than by moving the
        /// vehicle: new traffic from the driver, a new route for the navigator.
        package var pathsChanged: Bool
        /// The request field that set the order, for errors: `vehicle.waypoints` or
        /// `trip.vehicleWaypoints`.
        package var orderField: String

        /// Creates a trigger.
        public init(
            now: Timestamp, locationUpdated: Bool = false, driverSentDistance: Bool = false, driverSentTime: Bool = false,
            waypointsSet: Bool = false, pathsChanged: Bool = false, orderField: String = "vehicle.waypoints"
        ) {
            self.now = now
            self.waypointsSet = waypointsSet
            self.pathsChanged = pathsChanged
            self.orderField = orderField
            self.locationUpdated = locationUpdated
            self.driverSentDistance = driverSentDistance
            self.driverSentTime = driverSentTime
        }
    }

    /// Recomputes the vehicle's waypoints and estimates and every given trip's live fields.
    /// `trips` are the vehicle's unfinished trips; they come back in driving order.
    /// With `guidance` (the vehicle's navigator on its route with steps), the legs that route
    /// visits take its distances and durations; the others are estimated. `roadPaces` are the
    /// fleet's paces for the cells ``roadCellsToRead(vehicle:tracking:now:)`` named, read for
    /// this refresh (nil when it named none); `roads` is what the basemap says about the route
    /// ``routeToReadRoadsOf(vehicle:tracking:)`` named (nil when it named none, or without a
    /// basemap); `roadsNearLine` what it says about the roads near the straight line
    /// ``lineToReadRoadsNear(vehicle:trips:tracking:now:)`` named; `areaObservations` what the
    /// fleet showed in the areas ``areasToRead(vehicle:trips:tracking:now:)`` named.
    /// `measuredRoute` is the vehicle's route segment as measured before (the stored record's),
    /// used when it is still the vehicle's, so that an update does not measure the whole route
    /// again. Returns what the fleet learns from this vehicle's leg and drive (``updateLeg``,
    /// ``updateDrive``), for the store.
    @discardableResult
    public static func refresh(
        vehicle: inout Vehicle, trips: inout [Trip], tracking: inout RouteTracking, trigger: Trigger,
        guidance: RouteProgress? = nil, roadPaces: [RoadCellPace]? = nil, roads: RoadsAlong? = nil, roadsNearLine: RoadMix? = nil,
        areaObservations: [AreaObservation]? = nil, measuredRoute: MeasuredRoute? = nil
    ) throws(StatusError) -> [AreaObservation] {
        let now = trigger.now
        updateDriverFlags(&tracking, trigger)
        orderTrips(&trips, previous: vehicle.currentTrips)
        vehicle.currentTrips = trips.map(\.tripId)

        if trigger.waypointsSet { try checkStopOrder(vehicle.waypoints, trips: trips, field: trigger.orderField) }
        let stops = orderedStops(vehicle: vehicle, trips: trips)
        let speed = Estimation.freeFlowSpeed(vehicle.vehicleType?.category)
        let followed = followedRoute(of: vehicle, known: measuredRoute)
        let route = followed?.route
        // What reads the whole route (a new route's first snap, its profile) decodes it once.
        var decodedWhole: PolylineMeasure?
        func whole(_ route: MeasuredRoute) -> PolylineMeasure {
            if let decodedWhole { return decodedWhole }
            let measure = route.wholeMeasure()
            decodedWhole = measure
            return measure
        }
        let before = tracking
        let position = vehicle.lastLocation?.location.map {
            snap(guidance?.position ?? $0, on: route, version: followed?.version, tracking: &tracking, whole: whole)
        }
        if trigger.locationUpdated {
            tracking.fixTime = vehicle.lastLocation?.updateTime ?? now
            tracking.fixLocation = vehicle.lastLocation?.location
        }
        updateProfile(
            &tracking, route: route, version: followed?.version, paces: route == nil ? nil : roadPaces, roads: roads, now: now, whole: whole)
        let roadSpeeds = Estimation.drivesAtRoadSpeed(vehicle.vehicleType?.category)
        updateLinePace(
            &tracking, onRoute: route != nil, position: vehicle.lastLocation?.location, firstStop: stops.first,
            paces: route == nil ? roadPaces : nil, roads: roadsNearLine, observations: areaObservations, now: now)
        var learned = updateLeg(&tracking, before: before, firstStop: stops.first, position: vehicle.lastLocation?.location, trigger: trigger)
        learned += updateDrive(&tracking, before: before, trigger: trigger)
        let lineSecondsPerMeter = route == nil ? tracking.linePace?.secondsPerMeter(typical: 1 / speed, roadSpeeds: roadSpeeds) : nil
        updateTripPace(
            &tracking, before: before, trigger: trigger, driving: isDriving(position, stops: stops, trips: trips),
            firstStop: stops.first, traffic: vehicle.currentRouteSegmentTraffic?.trafficRendering.roadStretch, speed: speed,
            roadSpeeds: roadSpeeds, lineSecondsPerMeter: lineSecondsPerMeter)
        // Without a route the vehicle's own pace counts in full (TripPace.lineRatio).
        let ownRatio = (route == nil ? tracking.tripPace?.lineRatio : tracking.tripPace?.ratio) ?? 1
        let pace = RoutePace(speed: speed, profile: tracking.profile, ownRatio: ownRatio, roadSpeeds: roadSpeeds)

        // Leg 0: from the vehicle to its first stop (or along its route when it has none).
        var legs: [TrafficPath] = []
        var firstLegOnRoute = false
        let firstLegStart = tracking.distanceAlongMeters
        if let followed, position != nil,
            stops.isEmpty || routeReaches(followed.route, stops[0], endPoint: vehicle.currentRouteSegmentEndPoint)
        {
            let stretches = vehicle.currentRouteSegmentTraffic?.trafficRendering.roadStretch
            legs.append(TrafficPath(remainderOf: followed.route, from: firstLegStart, stretches: stretches, pace: pace))
            firstLegOnRoute = true
        } else if let position, let first = stops.first?.location?.point {
            legs.append(
                TrafficPath(
                    straightFrom: position, to: first, pace: pace, secondsPerMeter: lineSecondsPerMeter,
                    detourFactor: tracking.linePace?.detourFactor ?? Estimation.detourFactor))
        }
        if !legs.isEmpty {
            for i in stops.indices.dropFirst() {
                guard let a = stops[i - 1].location?.point, let b = stops[i].location?.point else { break }
                if let path = guidance?.path(from: a, to: b), let measure = PolylineMeasure(path) {
                    // The profile describes the vehicle's own route segment, not this leg.
                    let legPace = RoutePace(speed: pace.speed, profile: nil, ownRatio: pace.ownRatio)
                    legs.append(TrafficPath(measure: measure, from: 0, pace: legPace))
                } else {
                    legs.append(TrafficPath(straightFrom: a, to: b, pace: pace))
                }
            }
        }

        // Distances and times per leg: the navigator's where its route visits the stops,
        // estimated elsewhere; the driver's numbers win for the first leg.
        var distances = legs.map(\.meters)
        var durations = legs.map(\.modelSeconds)
        var guided = legs.isEmpty ? [] : guidance?.legs(to: stops) ?? []
        if stops.isEmpty, firstLegOnRoute, let next = guidance?.destinations.first {
            guided = [(next.distanceMeters, next.durationSeconds)]
        }
        for (i, leg) in guided.enumerated() where i < legs.count {
            distances[i] = leg.meters
            durations[i] = leg.seconds
        }
        if !legs.isEmpty {
            if guided.isEmpty, firstLegOnRoute, trigger.driverSentTime, let seconds = vehicle.remainingTimeSeconds, durations[0] > 1 {
                tracking.driverPaceRatio = Double(seconds) / durations[0]
            }
            if tracking.driverDistanceIsCurrent, let meters = vehicle.remainingDistanceMeters { distances[0] = Double(meters) }
            if tracking.driverTimeIsCurrent, let seconds = vehicle.remainingTimeSeconds {
                durations[0] = Double(seconds)
            } else if guided.isEmpty, firstLegOnRoute, let ratio = tracking.driverPaceRatio {
                durations[0] *= ratio
            }
        }

        var waypoints: [TripWaypoint] = []
        var elapsed = 0.0
        for (i, stop) in stops.enumerated() {
            var waypoint = stop
            if i < legs.count {
                elapsed += durations[i]
                waypoint.encodedPathToWaypoint = legs[i].encodedPath
                if !legs[i].intervals.isEmpty {
                    waypoint.trafficToWaypoint = ConsumableTrafficPolyline(speedReadingInterval: legs[i].intervals)
                }
                waypoint.distanceMeters = Int(distances[i].rounded())
                waypoint.duration = ProtoDuration(seconds: (durations[i] * 1000).rounded() / 1000)
                waypoint.eta = now.adding(seconds: elapsed)
            }
            waypoints.append(waypoint)
        }

        // The stores keep a first path cut from the route segment out of the vehicle's row.
        tracking.firstLegStartMeters = firstLegOnRoute && !waypoints.isEmpty ? firstLegStart : nil
        let stopsChanged = vehicle.waypoints.map(\.stop) != stops
        vehicle.waypoints = waypoints
        Versioning.bump(&vehicle.waypointsVersion, if: stopsChanged, now: now)
        vehicle.estimateMethod = estimateMethod(
            legs: legs.count, driverTime: tracking.driverTimeIsCurrent, guided: !guided.isEmpty, onRoute: firstLegOnRoute)
        vehicle.estimateBasis = estimateBasis(vehicle.estimateMethod, tracking: tracking, routeMeters: route?.totalMeters)
        if legs.isEmpty {
            if !tracking.driverDistanceIsCurrent { vehicle.remainingDistanceMeters = nil }
            if !tracking.driverTimeIsCurrent { vehicle.remainingTimeSeconds = nil }
            vehicle.etaToFirstWaypoint = nil
        } else {
            vehicle.remainingDistanceMeters = Int(distances[0].rounded())
            vehicle.remainingTimeSeconds = Int(durations[0].rounded())
            vehicle.etaToFirstWaypoint = now.adding(seconds: durations[0])
        }

        let firstLegTraffic = legs.first.flatMap { $0.intervals.isEmpty ? nil : ConsumableTrafficPolyline(speedReadingInterval: $0.intervals) }
        let snappable = route != nil && position != nil && tracking.crossTrackMeters <= Trip.snappableMeters
        for t in trips.indices {
            trips[t].updateProgress(from: vehicle, waypoints: waypoints, firstLegTraffic: firstLegTraffic, now: now)
            trips[t].updateRouteVersions(pathsChanged: trigger.pathsChanged, snappable: snappable, now: now)
        }
        return learned
    }

    /// Which way the first leg's time was made.
    private static func estimateMethod(legs: Int, driverTime: Bool, guided: Bool, onRoute: Bool) -> EstimateMethod? {
        if driverTime { return .driver }
        guard legs > 0 else { return nil }
        if guided { return .navigator }
        if onRoute { return .routeSegment }
        return .straightLine
    }

    /// What our own estimate of the first leg rested on; nil when it is the driver's or the
    /// navigator's, or when there is nothing to say (a route segment without a basemap).
    private static func estimateBasis(_ method: EstimateMethod?, tracking: RouteTracking, routeMeters: Double?) -> EstimateBasis? {
        var basis = EstimateBasis()
        switch method {
        case .routeSegment:
            if let roads = tracking.profile?.roads, let routeMeters, routeMeters > 0 {
                basis.roadClassCoverage = min(1, roads.coveredMeters / routeMeters)
            }
        case .straightLine:
            let line = tracking.linePace
            if line?.mapRoadMeters != nil { basis.roadClassCoverage = line?.mapSecondsPerMeter == nil ? 0 : 1 }
            basis.detourFactor = line?.detourFactor ?? Estimation.detourFactor
            basis.detourSource = line?.fleetDetourFactor == nil ? .constant : .fleet
        case .driver, .navigator, nil:
            return nil
        }
        return basis == EstimateBasis() ? nil : basis
    }

    private static func updateDriverFlags(_ tracking: inout RouteTracking, _ trigger: Trigger) {
        if trigger.driverSentDistance {
            tracking.driverDistanceIsCurrent = true
        } else if trigger.locationUpdated {
            tracking.driverDistanceIsCurrent = false
        }
        if trigger.driverSentTime { tracking.driverTimeIsCurrent = true } else if trigger.locationUpdated { tracking.driverTimeIsCurrent = false }
    }

    /// Keeps trips in the order they were assigned: known ones as before, new ones after.
    static func orderTrips(_ trips: inout [Trip], previous: [String]) {
        let rank = Dictionary(previous.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let original = Dictionary(trips.enumerated().map { ($1.tripId, $0) }, uniquingKeysWith: { a, _ in a })
        trips.sort { a, b in
            let ra = rank[a.tripId] ?? Int.max
            let rb = rank[b.tripId] ?? Int.max
            if ra != rb { return ra < rb }
            return (original[a.tripId] ?? 0) < (original[b.tripId] ?? 0)
        }
    }

    /// The stops of all trips in driving order. The vehicle's present `waypoints` give the
    /// interleaving of trips (a provider sets it for shared rides); within a trip the order
    /// is always its own. Stops of newly assigned trips go last.
    /// Stops of trips that have finished or left drop out.
    static func orderedStops(vehicle: Vehicle, trips: [Trip]) -> [TripWaypoint] {
        var remaining: [String: [TripWaypoint]] = [:]
        for trip in trips { remaining[trip.tripId] = trip.remainingStops }
        var sequence = vehicle.waypoints.compactMap(\.tripId)
        sequence.removeAll { remaining[$0] == nil }
        // Drop passed stops (the earliest occurrences) and make room for added ones.
        for trip in trips {
            let id = trip.tripId
            let wanted = remaining[id]?.count ?? 0
            var occurrences = sequence.indices.filter { sequence[$0] == id }
            if occurrences.count > wanted {
                for index in occurrences.prefix(occurrences.count - wanted).reversed() { sequence.remove(at: index) }
                occurrences = sequence.indices.filter { sequence[$0] == id }
            }
            if occurrences.count < wanted {
                let extra = Array(repeating: id, count: wanted - occurrences.count)
                if let last = occurrences.last { sequence.insert(contentsOf: extra, at: last) } else { sequence.append(contentsOf: extra) }
            }
        }
        var cursor: [String: Int] = [:]
        return sequence.compactMap { id in
            let k = cursor[id, default: 0]
            cursor[id] = k + 1
            return remaining[id]?[k]
        }
    }

    /// Projects the location onto the route, from where the vehicle was last time on the same
    /// route (a window search, on the stretch of route around it: issue 30), or over the whole
    /// route when the route is new.
    private static func snap(
        _ location: LatLng, on route: MeasuredRoute?, version: Timestamp?, tracking: inout RouteTracking,
        whole: (MeasuredRoute) -> PolylineMeasure
    ) -> LatLng {
        guard let route else {
            tracking.routeVersion = nil
            tracking.distanceAlongMeters = 0
            tracking.crossTrackMeters = 0
            return location
        }
        let sameRoute = tracking.routeVersion == version && version != nil
        if !sameRoute { tracking.driverPaceRatio = nil }
        let projection: PolylineProjection
        if sameRoute {
            projection = route.line.track(location, from: tracking.distanceAlongMeters, kept: route.kept)
        } else {
            var tracker = PolylineTracker(measure: whole(route))
            projection = tracker.update(location)
        }
        tracking.routeVersion = version
        tracking.distanceAlongMeters = projection.distanceAlongMeters
        tracking.crossTrackMeters = projection.crossTrackMeters
        return projection.point
    }

    /// Whether the route segment leads to `stop`: the driver named it as the segment's end,
    /// or the segment ends near it.
    private static func routeReaches(_ route: MeasuredRoute, _ stop: TripWaypoint, endPoint: TripWaypoint?) -> Bool {
        if let endPoint, endPoint.tripId != nil, endPoint.tripId == stop.tripId, endPoint.waypointType == stop.waypointType {
            return true
        }
        guard let target = stop.location?.point else { return false }
        return Earth.distance(route.line.lastPoint, target) <= Estimation.waypointMatchMeters
    }
}

extension Trip {
    /// Copies the vehicle's journey into this trip's live fields: its remaining waypoints run
    /// up to its own last stop; pickup and dropoff times are estimates until they happen.
    mutating func updateProgress(
        from vehicle: Vehicle, waypoints: [TripWaypoint],
        firstLegTraffic: ConsumableTrafficPolyline?, now: Timestamp
    ) {
        let mine = Self.waypoints(of: tripId, in: waypoints)
        let stopsChanged = remainingWaypoints.map(\.stop) != mine.map(\.stop)
        let routeChanged = currentRouteSegmentVersion != vehicle.currentRouteSegmentVersion
        copyProgress(from: vehicle, mine: mine, firstLegTraffic: firstLegTraffic)
        Versioning.bump(&remainingWaypointsVersion, if: stopsChanged, now: now)
        if stopsChanged || routeChanged { Versioning.bump(&remainingWaypointsRouteVersion, if: true, now: now) }
        if routeChanged { Versioning.bump(&currentRouteSegmentTrafficVersion, if: true, now: now) }
    }

    /// This trip with its live fields taken from the vehicle as ``JourneyState/refresh``
    /// last left it, versions untouched: what a store that saves only the vehicle on a
    /// location update shows for the trip. The first leg's traffic comes from the vehicle's
    /// first waypoint, so a trip whose refresh gave it other traffic (it has no stops left)
    /// does not come out equal; stores compare before relying on this.
    package func withProgress(of vehicle: Vehicle) -> Trip {
        var trip = self
        trip.copyProgress(
            from: vehicle, mine: Self.waypoints(of: tripId, in: vehicle.waypoints),
            firstLegTraffic: vehicle.waypoints.first?.trafficToWaypoint)
        return trip
    }

    /// The vehicle's waypoints up to this trip's last one.
    private static func waypoints(of tripId: String, in waypoints: [TripWaypoint]) -> [TripWaypoint] {
        waypoints.lastIndex(where: { $0.tripId == tripId }).map { Array(waypoints[...$0]) } ?? []
    }

    private mutating func copyProgress(from vehicle: Vehicle, mine: [TripWaypoint], firstLegTraffic: ConsumableTrafficPolyline?) {
        remainingWaypoints = mine
        lastLocation = vehicle.lastLocation
        currentRouteSegment = vehicle.currentRouteSegment
        currentRouteSegmentVersion = vehicle.currentRouteSegmentVersion
        currentRouteSegmentTraffic = firstLegTraffic
        currentRouteSegmentEndPoint = mine.first?.stop
        remainingDistanceMeters = mine.isEmpty ? nil : vehicle.remainingDistanceMeters
        etaToFirstWaypoint = mine.first?.eta
        remainingTimeToFirstWaypoint = mine.first?.duration
        // This trip's own stops: on a shared vehicle another rider's may come first.
        let id = tripId
        if tripStatus.isBeforePickup || tripStatus == .arrivedAtPickup {
            pickupTime = mine.first(where: { $0.tripId == id && $0.waypointType == .pickup })?.eta
        }
        if let dropoff = mine.last(where: { $0.tripId == id && $0.waypointType == .dropOff }) { dropoffTime = dropoff.eta }
    }
}
