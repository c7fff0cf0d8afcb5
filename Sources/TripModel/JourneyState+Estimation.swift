// What the estimator learns while vehicles drive (README, "How estimates are made"): the
// profile of the route segment (its turns, the fleet's pace on its road cells), the
// vehicle's own pace on its trip, and the vehicle's driving in a road cell, which the
// application layer adds to the fleet's road-cell paces in the store. All of it is kept in
// RouteTracking or the store, never only in a process's memory.

import Geo

extension JourneyState {
    /// The road cells along the vehicle's route segment whose paces the next refresh needs
    /// (read them from the store and pass them as its `roadPaces`): all of them when the
    /// route's profile is missing, of another route, or due for renewal; nil otherwise.
    /// Without a route, those near the straight line to the next stop among `trips` (the
    /// vehicle's unfinished trips), when that stop's pace is missing or due for renewal.
    package static func roadCellsToRead(vehicle: Vehicle, trips: [Trip] = [], tracking: RouteTracking, now: Timestamp) -> [RoadCell]? {
        // A current profile needs nothing, and knowing so needs only the route's version: a
        // location update does not decode and measure the whole route here (issue 30). A
        // stored route segment always decodes (it was checked when it was set).
        if vehicle.currentRouteSegment != nil, let profile = tracking.profile,
            profile.describes(routeVersion: vehicle.currentRouteSegmentVersion, now: now)
        {
            return nil
        }
        guard let route = wholeRoute(of: vehicle) else {
            // No route: the corridor of the straight line to the next stop (LinePace).
            guard let position = vehicle.lastLocation?.location, let stop = firstStop(vehicle: vehicle, trips: trips),
                let target = stop.location?.point, !(tracking.linePace?.describes(stop, now: now) ?? false)
            else { return nil }
            return LinePace.corridor(from: position, to: target)
        }
        return Array(Set(RoadCell.along(route).map(\.cell))).sorted()
    }

    /// The vehicle's route segment decoded and measured whole, for what reads every vertex (once
    /// per route); nil without one.
    static func wholeRoute(of vehicle: Vehicle) -> PolylineMeasure? {
        vehicle.currentRouteSegment.flatMap { MeasuredPolyline.decoding($0)?.measure }
    }

    /// The route the estimator follows to the first stop: the vehicle's route segment,
    /// measured, with its version; nil without one. `known` is the segment as measured before
    /// (the stored record's), used when it is the vehicle's.
    static func followedRoute(of vehicle: Vehicle, known: MeasuredRoute? = nil) -> (route: MeasuredRoute, version: Timestamp?)? {
        MeasuredRoute.of(vehicle, known: known).map { ($0, vehicle.currentRouteSegmentVersion) }
    }

    /// The vehicle's next stop among `trips` (its unfinished trips), in driving order.
    static func firstStop(vehicle: Vehicle, trips: [Trip]) -> TripWaypoint? {
        var ordered = trips
        orderTrips(&ordered, previous: vehicle.currentTrips)
        return orderedStops(vehicle: vehicle, trips: ordered).first?.stop
    }

    /// The straight line from the vehicle to its next stop among `trips` when the basemap's
    /// roads near it must be read for the next refresh (pass them as its `roadsNearLine`): when
    /// the vehicle sends no route segment and the line's pace is missing, of another stop, or
    /// due for renewal, as ``roadCellsToRead(vehicle:trips:tracking:now:)`` reads its road
    /// cells. A vehicle with a route segment costs one comparison (this runs on every update).
    package static func lineToReadRoadsNear(vehicle: Vehicle, trips: [Trip], tracking: RouteTracking, now: Timestamp) -> (from: LatLng, to: LatLng)? {
        guard vehicle.currentRouteSegment == nil, let position = vehicle.lastLocation?.location,
            let stop = firstStop(vehicle: vehicle, trips: trips), let target = stop.location?.point,
            !(tracking.linePace?.describes(stop, now: now) ?? false)
        else { return nil }
        return (position, target)
    }

    /// Keeps the pace near the straight line from `position` to the first stop: read anew from
    /// `paces` (the map's `roads` near the line and the fleet's detour in the areas it crosses,
    /// from `observations`, when known) when given, dropped when there is a route or the stop
    /// changed.
    static func updateLinePace(
        _ tracking: inout RouteTracking, onRoute: Bool, position: LatLng?, firstStop: TripWaypoint?, paces: [RoadCellPace]?, roads: RoadMix?,
        observations: [AreaObservation]?, now: Timestamp
    ) {
        guard !onRoute, let stop = firstStop?.stop else {
            tracking.linePace = nil
            return
        }
        if let paces {
            var detour: Double?
            if let position, let target = stop.location?.point {
                detour = detourFactor(from: position, to: target, observations: observations ?? [])
            }
            tracking.linePace = LinePace(stop: stop, paces: paces, roads: roads, detourFactor: detour, now: now)
        } else if tracking.linePace?.stop != stop {
            tracking.linePace = nil
        }
    }

    /// The vehicle's route segment when the basemap's roads under it must be read for the next
    /// refresh (pass them as its `roads`): when its profile is missing or of another route, never while the route
    /// stays the same.
    package static func routeToReadRoadsOf(vehicle: Vehicle, tracking: RouteTracking) -> [LatLng]? {
        // Decided on the version alone, before the route is decoded (issue 30).
        guard vehicle.currentRouteSegment != nil else { return nil }
        if let profile = tracking.profile, profile.routeVersion == vehicle.currentRouteSegmentVersion { return nil }
        return wholeRoute(of: vehicle)?.points
    }

    /// Keeps the route's profile current: rebuilt with `paces` when given, and without when
    /// the profile is of another route; dropped without a route. The roads under the route
    /// are `roads` when given, else kept from the profile while the route stays the same.
    /// `whole` decodes the route whole, which only a rebuild reads.
    static func updateProfile(
        _ tracking: inout RouteTracking, route: MeasuredRoute?, version: Timestamp?, paces: [RoadCellPace]?, roads: RoadsAlong?,
        now: Timestamp, whole: (MeasuredRoute) -> PolylineMeasure
    ) {
        guard let route else {
            tracking.profile = nil
            return
        }
        let sameRoute = tracking.profile?.routeVersion == version && tracking.profile != nil
        if paces != nil || roads != nil || !sameRoute {
            let known = roads ?? (sameRoute ? tracking.profile?.roads : nil)
            tracking.profile = RouteProfile(route: whole(route), routeVersion: version, paces: paces ?? [], roads: known, now: now)
        }
    }

    /// Whether the vehicle is under way to its next stop: it has one, is not waiting at it
    /// (its trip has not arrived there) and is farther than ``Estimation/dwellMeters`` from it.
    static func isDriving(_ position: LatLng?, stops: [TripWaypoint], trips: [Trip]) -> Bool {
        guard let position, let stop = stops.first, let point = stop.location?.point else { return false }
        let status = trips.first { $0.tripId == stop.tripId }?.tripStatus
        if status == .arrivedAtPickup || status == .arrivedAtIntermediateDestination { return false }
        return Earth.distance(position, point) > Estimation.dwellMeters
    }

    /// Adds the stretch of route covered since the last fix to the vehicle's own pace on its
    /// trip: the device's seconds against the model's for it (turns and traffic included,
    /// the vehicle's ratio not). A new trip starts afresh; fixes on another route segment,
    /// too far apart in time, or jumping are not counted. Where no route is followed, the
    /// metres between the two fixes count, at `lineSecondsPerMeter` (the straight line's
    /// model, ``LinePace``).
    static func updateTripPace(
        _ tracking: inout RouteTracking, before: RouteTracking, trigger: Trigger, driving: Bool, firstStop: TripWaypoint?,
        traffic: [RoadStretch]?, speed: Double, roadSpeeds: Bool, lineSecondsPerMeter: Double? = nil
    ) {
        guard let tripId = firstStop?.tripId else {
            tracking.tripPace = nil
            return
        }
        if tracking.tripPace?.tripId != tripId { tracking.tripPace = TripPace(tripId: tripId) }
        guard trigger.locationUpdated, driving, let earlier = before.fixTime, let later = tracking.fixTime else { return }
        if let lineSecondsPerMeter {
            guard let a = before.fixLocation, let b = tracking.fixLocation else { return }
            let seconds = later.seconds(since: earlier)
            let meters = Earth.distance(a, b)
            guard seconds > 0, seconds <= Estimation.observationMaximumGapSeconds, meters <= seconds * Estimation.observationMaximumSpeed
            else { return }
            tracking.tripPace?.observedSeconds += seconds
            tracking.tripPace?.modelSeconds += meters * lineSecondsPerMeter
            return
        }
        guard before.routeVersion != nil, before.routeVersion == tracking.routeVersion else { return }
        let seconds = later.seconds(since: earlier)
        let from = before.distanceAlongMeters
        let to = tracking.distanceAlongMeters
        guard seconds > 0, seconds <= Estimation.observationMaximumGapSeconds, to >= from,
            to - from <= seconds * Estimation.observationMaximumSpeed
        else { return }
        let model = RoutePace(speed: speed, profile: tracking.profile, ownRatio: 1, roadSpeeds: roadSpeeds)
        let modelSeconds = TrafficPath.pieces(from: from, to: to, stretches: traffic).reduce(0) {
            $0 + model.seconds(from: $1.from, to: $1.to, traffic: $1.speed)
        }
        tracking.tripPace?.observedSeconds += seconds
        tracking.tripPace?.modelSeconds += modelSeconds
    }

    /// Follows the vehicle's driving through road cells from its previous fix to its current
    /// one (each with its device time); returns the driving in the cell it has just left, for
    /// the fleet's road-cell paces, once it leaves one. Waiting at a stop, long gaps between
    /// fixes and GPS jumps are not driving: what was gathered in the cell is dropped.
    package static func observeTravel(
        from previous: VehicleLocation?, to current: VehicleLocation?, driving: Bool, tracking: inout RouteTracking, now: Timestamp
    ) -> RoadCellPace? {
        guard driving, let a = previous?.location, let b = current?.location, let start = previous?.updateTime,
            let end = current?.updateTime
        else {
            tracking.cellTravel = nil
            return nil
        }
        let seconds = end.seconds(since: start)
        let meters = Earth.distance(a, b)
        guard seconds > 0, seconds <= Estimation.observationMaximumGapSeconds, meters <= seconds * Estimation.observationMaximumSpeed else {
            tracking.cellTravel = nil
            return nil
        }
        // Which way the road runs here: the move itself; while (nearly) standing, the way the
        // vehicle was going in the same place, else its reported heading.
        let middle = Earth.interpolate(a, b, fraction: 0.5)
        let cell: RoadCell
        if meters >= 5 {
            cell = RoadCell(middle, headingDegrees: Earth.initialBearing(from: a, to: b))
        } else if let travel = tracking.cellTravel, travel.cell.place == RoadCell(middle, headingDegrees: 0).place {
            cell = travel.cell
        } else if let heading = current?.heading {
            cell = RoadCell(middle, headingDegrees: Double(heading))
        } else {
            defer { tracking.cellTravel = nil }
            return tracking.cellTravel
        }
        if var travel = tracking.cellTravel, travel.cell == cell {
            travel.meters += meters
            travel.seconds += seconds
            travel.updated = now
            tracking.cellTravel = travel
            return nil
        }
        let left = tracking.cellTravel
        tracking.cellTravel = RoadCellPace(cell: cell, meters: meters, seconds: seconds, updated: now)
        return left
    }

    /// Whether the vehicle is driving, for ``observeTravel(from:to:driving:tracking:now:)``: under
    /// way to its next stop, as its refresh judged it (trips in driving order, the vehicle's
    /// waypoints current); without a stop, whenever it is not standing still
    /// (``DriveTravel/standsStill(at:)``): every drive shows the fleet the roads' pace.
    package static func isDriving(vehicle: Vehicle, trips: [Trip], tracking: RouteTracking) -> Bool {
        guard vehicle.waypoints.isEmpty else {
            return isDriving(vehicle.lastLocation?.location, stops: vehicle.waypoints.map(\.stop), trips: trips)
        }
        guard vehicle.lastLocation?.location != nil, let drive = tracking.drive, let fixTime = tracking.fixTime else { return false }
        return !drive.standsStill(at: fixTime)
    }
}
