// What the fleet's legs teach the estimator (DESIGN §5, an estimate whenever a vehicle has a
// trip): each vehicle's way to its next stop is followed (LegTravel); when it arrives, the
// metres it drove against the straight line count towards the detour of the areas the line
// crosses (AreaObservation). The application layer adds what a refresh returns to the store,
// and reads the areas back for a vehicle that sends no route when the straight line's pace is
// renewed.

import Geo

extension JourneyState {
    /// The areas whose observations the next refresh needs (read them from the store and pass
    /// them as its `areaObservations`): those the straight line to the vehicle's next stop
    /// among `trips` (its unfinished trips) crosses, when the vehicle sends no route segment and
    /// the line's pace is missing, of another stop, or due for renewal, as
    /// ``roadCellsToRead(vehicle:trips:tracking:now:)`` reads its road cells; nil otherwise. A
    /// vehicle with a route segment costs one comparison (this runs on every update).
    package static func areasToRead(vehicle: Vehicle, trips: [Trip], tracking: RouteTracking, now: Timestamp) -> [Int64]? {
        guard vehicle.currentRouteSegment == nil, let position = vehicle.lastLocation?.location,
            let stop = firstStop(vehicle: vehicle, trips: trips), let target = stop.location?.point,
            !(tracking.linePace?.describes(stop, now: now) ?? false)
        else { return nil }
        return AreaObservation.areas(from: position, to: target).map(\.area)
    }

    /// The fleet's detour on the straight line from `a` to `b`: the detour observations of
    /// the areas it crosses, each weighed by the share of the line in it, pulled towards
    /// ``Estimation/detourFactor`` by ``Estimation/detourPriorMeters`` of straight line; nil
    /// when the fleet has shown none there.
    static func detourFactor(from a: LatLng, to b: LatLng, observations: [AreaObservation]) -> Double? {
        let byArea = Dictionary(
            observations.filter { $0.kind == .detour && $0.weight > 0 }.map { ($0.area, $0) }, uniquingKeysWith: { a, _ in a })
        guard !byArea.isEmpty else { return nil }
        let line = AreaObservation.areas(from: a, to: b)
        let length = max(line.reduce(0) { $0 + $1.meters }, 1)
        var driven = 0.0
        var straight = 0.0
        for (area, meters) in line {
            guard let observed = byArea[area] else { continue }
            driven += meters / length * observed.amount
            straight += meters / length * observed.weight
        }
        guard straight > 0 else { return nil }
        let prior = Estimation.detourPriorMeters
        return (driven + prior * Estimation.detourFactor) / (straight + prior)
    }

    /// Follows the vehicle's way to its next stop (`firstStop`): on a new fix, whether it has
    /// set off (``Estimation/setOffMeters`` from where it was when the stop became its next)
    /// and the metres it drove since; when it arrives within ``Estimation/dwellMeters`` of the
    /// stop, the detour it drove. A new next stop begins a new leg. Returns what the fleet
    /// learns: the detour of a vehicle that has just arrived.
    static func updateLeg(
        _ tracking: inout RouteTracking, before: RouteTracking, firstStop: TripWaypoint?, position: LatLng?, trigger: Trigger
    ) -> [AreaObservation] {
        let now = trigger.now
        var learned: [AreaObservation] = []
        if var leg = tracking.leg, trigger.locationUpdated, let fix = tracking.fixLocation, let fixTime = tracking.fixTime {
            if let origin = leg.origin {
                if leg.setOffSeconds != nil, let previous = before.fixLocation, let previousTime = before.fixTime {
                    // A pause in the fixes counts as the straight line between them (the least the
                    // vehicle drove); a jump leaves the way unknown; a fix not later than the
                    // one before says nothing.
                    let seconds = fixTime.seconds(since: previousTime)
                    let meters = Earth.distance(previous, fix)
                    if seconds > 0, meters > seconds * Estimation.observationMaximumSpeed {
                        leg.broken = true
                    } else if seconds > 0 {
                        leg.drivenMeters += meters
                    }
                } else if leg.setOffSeconds == nil, Earth.distance(origin, fix) >= Estimation.setOffMeters {
                    leg.setOffSeconds = max(0, fixTime.seconds(since: leg.began))
                    leg.drivenMeters = Earth.distance(origin, fix)
                }
                if let target = leg.stop.location?.point, leg.setOffSeconds != nil, !leg.broken,
                    Earth.distance(fix, target) <= Estimation.dwellMeters
                {
                    learned += detourObservations(from: origin, to: target, driven: leg.drivenMeters + Earth.distance(fix, target), now: now)
                    leg.broken = true // learnt once
                    // The drive this leg ends has taught its way now (JourneyState+Drives).
                    if !learned.isEmpty { tracking.drive?.taught = true }
                }
            } else {
                leg.origin = fix
                leg.broken = false
            }
            tracking.leg = leg
        }
        guard let stop = firstStop?.stop else {
            tracking.leg = nil
            return learned
        }
        if tracking.leg?.stop != stop {
            tracking.leg = LegTravel(stop: stop, began: tracking.fixTime ?? now, origin: position)
        }
        return learned
    }

    /// The detour of a leg from `origin` to `target` that drove `driven` metres, spread over the
    /// areas its straight line crosses by the metres of line in each; none for a leg too short
    /// (``Estimation/detourMinimumMeters``) or too roundabout (``Estimation/detourMaximumFactor``)
    /// to describe the area's roads.
    static func detourObservations(from origin: LatLng, to target: LatLng, driven: Double, now: Timestamp) -> [AreaObservation] {
        let straight = Earth.distance(origin, target)
        guard straight >= Estimation.detourMinimumMeters else { return [] }
        let factor = max(1, driven / straight)
        guard factor <= Estimation.detourMaximumFactor else { return [] }
        return AreaObservation.areas(from: origin, to: target).map {
            AreaObservation(kind: .detour, area: $0.area, amount: $0.meters * factor, weight: $0.meters, updated: now)
        }
    }
}
