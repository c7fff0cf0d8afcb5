// Which stop the driver's screen shows (DESIGN §9): the rule reads the navigator (an arrival
// is the latest news), the vehicle's unfinished trips (a rider's pickup reached) and the
// vehicle's latest trip status change (the trip over), so the screen never falls back to a
// "0 ft" maneuver at a pickup or to a bare map after a trip.

import Foundation
import Geo
import JSON
import Navigation
import TripModel
import TripStore

extension Fleet {
    /// What the driver's screen says at a stop, nil while driving: waiting for the rider
    /// while one of the vehicle's trips is ARRIVED_AT_PICKUP; the trip complete once the
    /// navigator's arrival is at the route's end (or the route is gone) with no trip left
    /// and the vehicle's latest trip status COMPLETE; otherwise "arrived" while the navigator's
    /// latest news is an arrival. The place is the destination's name on the route.
    package static func driverStop(navigator: Navigator?, trips: [Trip], lastTripStatus: TripStatus?) -> DriverStop? {
        let route = navigator?.route
        let arrivedIndex = navigator?.arrivedDestinationIndex
        let arrivedPlace = arrivedIndex.flatMap { index in
            route.flatMap { $0.destinations.indices.contains(index) ? $0.destinations[index].name : nil }
        }
        if let waiting = trips.first(where: { $0.tripStatus == .arrivedAtPickup }) {
            return .waitingForRider(place: arrivedPlace ?? pickupName(waiting, route: route))
        }
        let finished = trips.isEmpty && lastTripStatus == .complete
        if let arrivedIndex, let route {
            let final = arrivedIndex == route.destinations.count - 1
            return final && finished ? .tripComplete(place: arrivedPlace) : .arrived(place: arrivedPlace)
        }
        if finished, navigator?.navInfo.navState ?? .stopped == .stopped { return .tripComplete(place: nil) }
        return nil
    }

    /// The name of the route's destination at a trip's pickup (within 150 m), if it has one.
    private static func pickupName(_ trip: Trip, route: NavRoute?) -> String? {
        guard let pickup = trip.pickupPoint?.point, let route else { return nil }
        return route.destinations.first { Earth.distance($0.location, pickup) <= 150 }?.name
    }

    /// The status of the vehicle's latest trip status change, nil when none is logged (or
    /// retention has removed it).
    func lastTripStatus(provider: String, vehicleId: String) async throws -> TripStatus? {
        guard let event = try await store.newestEvents(provider: provider, vehicleId: vehicleId, type: Events.tripStatus, limit: 1).last,
            case .string(let status)? = (try? JSONParser.parse(Array(event.data.utf8)))?["tripStatus"]
        else { return nil }
        return TripStatus(rawValue: status)
    }
}
