import Foundation
import TripModel
import TripStore

/// The write flows of the API, over any store's ``TripStore/StoreTransaction``: apply the
/// model's rules, run the navigator of every vehicle involved, refresh its derived state
/// from where the navigator has it (one progress model, DESIGN §5), save, and log events.
/// Each flow runs inside one transaction.
struct FleetWrites: Sendable {
    /// The navigators run in the vehicle writes.
    let navigators: VehicleNavigators
    /// The operator's map, read for the roads under a vehicle's new route segment; nil
    /// without a basemap.
    var roadClasses: (any RoadClassSource)? = nil

    func createVehicle(_ tx: any StoreTransaction, provider: String, id: String, input: Vehicle, now: Timestamp) throws -> Vehicle {
        let vehicle = try Vehicle.created(from: input, provider: provider, id: id, now: now)
        if try tx.vehicleRecord(provider: provider, id: id) != nil {
            throw StatusError(.alreadyExists, "vehicle '\(id)' already exists")
        }
        var record = VehicleRecord(vehicle: vehicle, tracking: RouteTracking())
        record.route = record.measuredRoute
        var trips: [Trip] = []
        let paces = try JourneyState.roadCellsToRead(vehicle: record.vehicle, tracking: record.tracking, now: now).map {
            try tx.roadCellPaces(provider: provider, cells: $0)
        }
        try JourneyState.refresh(
            vehicle: &record.vehicle, trips: &trips, tracking: &record.tracking,
            trigger: .init(
                now: now, locationUpdated: vehicle.lastLocation != nil, driverSentDistance: vehicle.remainingDistanceMeters != nil,
                driverSentTime: vehicle.remainingTimeSeconds != nil),
            roadPaces: paces, roads: roads(record), measuredRoute: record.route)
        try tx.insertVehicle(provider: provider, id: id, record)
        // The location history is read from the log (LocationHistory), so a location the
        // vehicle starts with is logged like any later one, after those it passed before.
        for event in Events.pastLocations(input.pastLocations, vehicleId: id, now: now) { try tx.appendEvent(provider: provider, event) }
        if record.vehicle.lastLocation != nil { try tx.appendEvent(provider: provider, Events.vehicleLocation(record.vehicle, now: now)) }
        return record.vehicle
    }

    func updateVehicle(
        _ tx: any StoreTransaction, provider: String, id: String, input: Vehicle, mask: FieldMask,
        now: Timestamp
    ) throws -> (record: VehicleRecord, body: [UInt8]?) {
        guard var record = try tx.vehicleRecord(provider: provider, id: id) else { throw Self.notFound("vehicle", id) }
        let previousLocation = record.vehicle.lastLocation
        let previousTraffic = record.vehicle.currentRouteSegmentTraffic
        try record.vehicle.apply(input, mask: mask, now: now)
        let trigger = JourneyState.Trigger(
            now: now, locationUpdated: mask.contains("lastLocation"),
            driverSentDistance: mask.contains("remainingDistanceMeters") && input.remainingDistanceMeters != nil,
            driverSentTime: mask.contains("remainingTimeSeconds") && input.remainingTimeSeconds != nil,
            waypointsSet: mask.contains("waypoints") || mask.contains("route"),
            pathsChanged: record.vehicle.currentRouteSegmentTraffic != previousTraffic)
        // The navigator first: where it has the vehicle is what the trips derive from.
        let navigator = try withChange(
            tx, provider: provider, record: &record, now: now,
            cause: .vehicleUpdated(locationUpdated: trigger.locationUpdated),
            navigators.vehicleDidChange)
        let (trips, tripEvents) = try refresh(tx, provider: provider, record: &record, trigger: trigger, guidance: navigator.progress)
        if trigger.locationUpdated {
            // The fleet's road-cell paces learn from every vehicle driving (once per cell).
            let driving = JourneyState.isDriving(vehicle: record.vehicle, trips: trips, tracking: record.tracking)
            if let pass = JourneyState.observeTravel(
                from: previousLocation, to: record.vehicle.lastLocation, driving: driving, tracking: &record.tracking, now: now)
            {
                try tx.addRoadCellPace(provider: provider, pass, memoryMeters: Estimation.roadCellMemoryMeters)
            }
        }
        try save(trips, tx, provider: provider, vehicle: record.vehicle)
        let body = try tx.updateVehicle(provider: provider, id: id, record)
        if mask.contains("pastLocations") {
            for event in Events.pastLocations(input.pastLocations, vehicleId: id, now: now) { try tx.appendEvent(provider: provider, event) }
        }
        if trigger.locationUpdated, record.vehicle.lastLocation != nil {
            try tx.appendEvent(provider: provider, Events.vehicleLocation(record.vehicle, now: now))
        }
        for event in tripEvents + navigator.events { try tx.appendEvent(provider: provider, event) }
        return (record, body)
    }

    /// Changes a vehicle's navigator: `change` runs first (cause
    /// ``VehicleChange/Cause/navigatorChanged``), then the vehicle's trips are refreshed from
    /// what it left on the vehicle and where the navigator now has it, and all is saved with
    /// its events, the navigator's first.
    func updateNavigator<T>(
        _ tx: any StoreTransaction, provider: String, id: String, now: Timestamp,
        change: (inout VehicleChange) throws -> (events: [NewEvent], result: T)
    ) throws -> T {
        guard var record = try tx.vehicleRecord(provider: provider, id: id) else { throw Self.notFound("vehicle", id) }
        var result: T?
        let navigator = try withChange(tx, provider: provider, record: &record, now: now, cause: .navigatorChanged) {
            let outcome = try change(&$0)
            result = outcome.result
            return outcome.events
        }
        // A navigator's new route may lead to the later stops another way.
        let (refreshed, tripEvents) = try refresh(
            tx, provider: provider, record: &record, trigger: .init(now: now, pathsChanged: true), guidance: navigator.progress)
        try save(refreshed, tx, provider: provider, vehicle: record.vehicle)
        try tx.updateVehicle(provider: provider, id: id, record)
        for event in navigator.events + tripEvents { try tx.appendEvent(provider: provider, event) }
        guard let result else { throw StatusError(.internal, "the navigator change of vehicle '\(id)' returned nothing") }
        return result
    }

    /// A vehicle and its navigator as stored, read in one snapshot; NOT_FOUND when absent.
    static func storedNavigator(_ reader: any StoreReader, provider: String, id: String) throws -> (Vehicle, StoredNavigator) {
        guard let record = try reader.vehicleRecord(provider: provider, id: id) else { throw notFound("vehicle", id) }
        return (record.vehicle, StoredNavigator(record.navigator) { try reader.navigatorRoute(provider: provider, vehicleId: id) })
    }

    func deleteVehicle(_ tx: any StoreTransaction, provider: String, id: String) throws {
        guard try tx.vehicleRecord(provider: provider, id: id) != nil else { throw Self.notFound("vehicle", id) }
        let trips = try tx.unfinishedTrips(provider: provider, vehicleId: id)
        if !trips.isEmpty {
            let ids = trips.map(\.tripId).joined(separator: ", ")
            throw StatusError(.failedPrecondition, "vehicle '\(id)' has unfinished trips (\(ids)); complete, cancel or reassign them first")
        }
        try tx.deleteVehicle(provider: provider, id: id)
    }

    func createTrip(_ tx: any StoreTransaction, provider: String, id: String, input: Trip, now: Timestamp) throws -> Trip {
        var trip = try Trip.created(from: input, provider: provider, id: id, now: now)
        let order = trip.takeVehicleWaypoints()
        if try tx.trip(provider: provider, id: id) != nil { throw StatusError(.alreadyExists, "trip '\(id)' already exists") }
        if let vehicleId = trip.vehicleId {
            if try tx.vehicleRecord(provider: provider, id: vehicleId) == nil {
                throw StatusError(.notFound, "trip.vehicleId: vehicle '\(vehicleId)' does not exist")
            }
            try Self.checkRoomForTrip(tx, provider: provider, vehicleId: vehicleId)
        }
        try tx.insertTrip(provider: provider, id: id, trip)
        try tx.appendEvent(provider: provider, Events.status(trip, previous: nil, now: now))
        if let vehicleId = trip.vehicleId {
            try refreshVehicle(tx, provider: provider, id: vehicleId, now: now, statusChanged: false, stopOrder: order)
        }
        return try Self.answer(tx, provider: provider, id: id, trip, withOrder: order)
    }

    func updateTrip(
        _ tx: any StoreTransaction, provider: String, id: String, input: Trip, mask: FieldMask,
        now: Timestamp
    ) throws -> Trip {
        guard var trip = try tx.trip(provider: provider, id: id) else { throw Self.notFound("trip", id) }
        let before = trip
        let vehicleBefore = try trip.vehicleId.flatMap { try tx.vehicleRecord(provider: provider, id: $0) }
        try trip.apply(input, mask: mask, now: now, vehicleLocation: vehicleBefore?.vehicle.lastLocation)
        let order = trip.takeVehicleWaypoints()
        if let vehicleId = trip.vehicleId, vehicleId != before.vehicleId {
            if try tx.vehicleRecord(provider: provider, id: vehicleId) == nil {
                throw StatusError(.notFound, "trip.vehicleId: vehicle '\(vehicleId)' does not exist")
            }
            if !trip.tripStatus.isTerminal { try Self.checkRoomForTrip(tx, provider: provider, vehicleId: vehicleId) }
        }
        if trip.tripStatus.isTerminal || trip.vehicleId == nil { trip.detachFromVehicle(now: now) }
        try tx.updateTrip(provider: provider, id: id, trip)
        if trip.tripStatus != before.tripStatus {
            try tx.appendEvent(provider: provider, Events.status(trip, previous: before.tripStatus, now: now))
        }
        for vehicleId in Set([before.vehicleId, trip.vehicleId].compactMap { $0 }) {
            try refreshVehicle(
                tx, provider: provider, id: vehicleId, now: now, statusChanged: trip.tripStatus != before.tripStatus,
                stopOrder: vehicleId == trip.vehicleId ? order : nil)
        }
        return try Self.answer(tx, provider: provider, id: id, trip, withOrder: order)
    }

    /// The trip as a create or update answers it: as stored, with the vehicle's order of stops
    /// when the request set one (Fleet Engine returns `vehicleWaypoints` only then, never on
    /// a read).
    private static func answer(
        _ tx: any StoreTransaction, provider: String, id: String, _ written: Trip, withOrder order: [TripWaypoint]?
    ) throws -> Trip {
        var trip = try tx.trip(provider: provider, id: id) ?? written
        if order != nil, let vehicleId = trip.vehicleId, let vehicle = try tx.vehicleRecord(provider: provider, id: vehicleId)?.vehicle {
            trip.vehicleWaypoints = vehicle.waypoints
        }
        return trip
    }

    func deleteTrip(_ tx: any StoreTransaction, provider: String, id: String) throws {
        guard let trip = try tx.trip(provider: provider, id: id) else { throw Self.notFound("trip", id) }
        if !trip.tripStatus.isTerminal, let vehicleId = trip.vehicleId {
            throw StatusError(
                .failedPrecondition,
                "trip '\(id)' is \(trip.tripStatus.rawValue) on vehicle '\(vehicleId)'; complete, cancel or unassign it first")
        }
        try tx.deleteTrip(provider: provider, id: id)
    }

    /// Re-derives a vehicle's state and its trips' after a change that did not come from the
    /// vehicle (a trip was assigned, changed status, left). `stopOrder` is a trip's
    /// `vehicleWaypoints`: the new order of the vehicle's stops, checked against its trips.
    private func refreshVehicle(
        _ tx: any StoreTransaction, provider: String, id: String, now: Timestamp, statusChanged: Bool, stopOrder: [TripWaypoint]? = nil
    ) throws {
        guard var record = try tx.vehicleRecord(provider: provider, id: id) else { return }
        if let stopOrder { record.vehicle.waypoints = stopOrder }
        let navigator = try withChange(
            tx, provider: provider, record: &record, now: now,
            cause: .tripsChanged(statusChanged: statusChanged), navigators.vehicleDidChange)
        let trigger = JourneyState.Trigger(now: now, waypointsSet: stopOrder != nil, orderField: "trip.vehicleWaypoints")
        let (trips, events) = try refresh(tx, provider: provider, record: &record, trigger: trigger, guidance: navigator.progress)
        try save(trips, tx, provider: provider, vehicle: record.vehicle)
        try tx.updateVehicle(provider: provider, id: id, record)
        for event in events + navigator.events { try tx.appendEvent(provider: provider, event) }
    }

    /// Refreshes a vehicle record; returns its refreshed trips, to be saved with
    /// ``save(_:_:provider:vehicle:)`` once the vehicle is final, and the trip events to log.
    private func refresh(
        _ tx: any StoreTransaction, provider: String, record: inout VehicleRecord,
        trigger: JourneyState.Trigger, guidance: RouteProgress?
    ) throws -> ([Trip], [NewEvent]) {
        let vehicleId = ResourceName.lastComponent(of: record.vehicle.name)
        // The route segment is measured once per segment (issue 30): the stored record's
        // measure serves every update until the segment changes.
        record.route = record.measuredRoute
        let before = try tx.unfinishedTrips(provider: provider, vehicleId: vehicleId)
        var trips = before
        // The fleet's paces along the route segment, read only when its profile needs them.
        let paces = try JourneyState.roadCellsToRead(vehicle: record.vehicle, trips: trips, tracking: record.tracking, now: trigger.now).map {
            try tx.roadCellPaces(provider: provider, cells: $0)
        }
        // What the fleet's legs showed, read only when the vehicle's next stop is new to it.
        let observations = try JourneyState.areasToRead(vehicle: record.vehicle, trips: trips, tracking: record.tracking, now: trigger.now).map {
            try tx.areaObservations(provider: provider, areas: $0)
        }
        let learned = try JourneyState.refresh(
            vehicle: &record.vehicle, trips: &trips, tracking: &record.tracking, trigger: trigger, guidance: guidance, roadPaces: paces,
            roads: roads(record), roadsNearLine: roadsNearLine(record, trips: trips, now: trigger.now), areaObservations: observations,
            measuredRoute: record.route)
        for observation in learned {
            try tx.addAreaObservation(provider: provider, observation, memory: Estimation.observationMemory(observation.kind))
        }
        let previous = Dictionary(before.map { ($0.tripId, $0) }, uniquingKeysWith: { a, _ in a })
        var events: [NewEvent] = []
        for trip in trips where trip != previous[trip.tripId] {
            if let old = previous[trip.tripId] { events += Events.progress(old: old, new: trip, vehicleId: vehicleId, now: trigger.now) }
        }
        return (trips, events)
    }

    /// What the basemap says about the roads under the vehicle's route segment, read only when
    /// the segment is new to its profile (never on every update).
    private func roads(_ record: VehicleRecord) -> RoadsAlong? {
        guard let roadClasses, let route = JourneyState.routeToReadRoadsOf(vehicle: record.vehicle, tracking: record.tracking) else {
            return nil
        }
        return roadClasses.roads(along: route)
    }

    /// What the basemap has near the straight line to the next stop of a vehicle no route is
    /// known for, read only when the line's pace is renewed (never on every update).
    private func roadsNearLine(_ record: VehicleRecord, trips: [Trip], now: Timestamp) -> RoadMix? {
        guard let roadClasses,
            let line = JourneyState.lineToReadRoadsNear(vehicle: record.vehicle, trips: trips, tracking: record.tracking, now: now)
        else { return nil }
        return roadClasses.roads(near: line.from, line.to, within: Estimation.lineCorridorMeters)
    }

    /// Saves refreshed trips beside the vehicle they were derived from (after the navigator,
    /// so the store sees the vehicle it will save).
    private func save(_ trips: [Trip], _ tx: any StoreTransaction, provider: String, vehicle: Vehicle) throws {
        for trip in trips { try tx.updateTripProgress(provider: provider, id: trip.tripId, trip, vehicle: vehicle) }
    }

    /// Runs `body` on a ``VehicleChange`` of the record and takes back what it changed; returns
    /// the navigator's events and where it has the vehicle on its route.
    private func withChange(
        _ tx: any StoreTransaction, provider: String, record: inout VehicleRecord,
        now: Timestamp, cause: VehicleChange.Cause,
        _ body: (inout VehicleChange) throws -> [NewEvent]
    ) throws -> (events: [NewEvent], progress: RouteProgress?) {
        let vehicleId = ResourceName.lastComponent(of: record.vehicle.name)
        let stored = StoredNavigator(record.navigator) { try tx.navigatorRoute(provider: provider, vehicleId: vehicleId) }
        var change = VehicleChange(provider: provider, vehicleId: vehicleId, vehicle: record.vehicle, now: now, cause: cause, navigator: stored)
        let events = try body(&change)
        if let route = change.navigator.replacedRoute {
            try tx.setNavigatorRoute(provider: provider, vehicleId: vehicleId, route)
        }
        record.vehicle = change.vehicle
        record.navigator = change.navigator.record
        return (events, change.routeProgress)
    }

    /// A vehicle carries at most ``Limits/maximumTripsPerVehicle`` unfinished trips: each
    /// location update re-derives them all.
    private static func checkRoomForTrip(_ tx: any StoreTransaction, provider: String, vehicleId: String) throws {
        let carried = try tx.unfinishedTrips(provider: provider, vehicleId: vehicleId).count
        if carried >= Limits.maximumTripsPerVehicle {
            throw StatusError(
                .failedPrecondition,
                "trip.vehicleId: vehicle '\(vehicleId)' already carries \(carried) unfinished trips, the most one vehicle may "
                    + "(\(Limits.maximumTripsPerVehicle)); complete or cancel one of them first")
        }
    }

    static func notFound(_ kind: String, _ id: String) -> StatusError {
        StatusError.notFound(kind, id)
    }
}
