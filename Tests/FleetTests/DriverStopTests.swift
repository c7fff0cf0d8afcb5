import Fleet
import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing
import TripModel

/// Which stop the driver's screen shows (DESIGN §9), from the navigator and the vehicle's trips.
@Suite struct DriverStopTests {
    /// A navigator on the east route that has reached its destination (named `name`).
    private func arrived(name: String?) throws -> Navigator {
        var route = StraightRoute.streets(count: 31)
        let points = StraightRoute.points(of: route)
        route.destinations[0].name = name
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start.date)
        var time = start.date
        for point in points.suffix(4) {
            time = time.addingTimeInterval(5)
            _ = navigator.update(location: point, heading: 90, speedMetersPerSecond: 10, accuracyMeters: 5, time: time)
        }
        return navigator
    }

    private func trip(_ status: TripStatus) -> Trip {
        var trip = Trip(name: "providers/p/trips/t1")
        trip.tripStatus = status
        return trip
    }

    /// The final arrival names the place, and becomes "trip complete" once the trip is.
    @Test func arrivalThenTripComplete() throws {
        let navigator = try arrived(name: "Fabianinkatu 16")
        #expect(navigator.arrivedDestinationIndex == 0)
        #expect(Fleet.driverStop(navigator: navigator, trips: [trip(.enrouteToDropoff)], lastTripStatus: nil) == .arrived(place: "Fabianinkatu 16"))
        #expect(Fleet.driverStop(navigator: navigator, trips: [], lastTripStatus: .complete) == .tripComplete(place: "Fabianinkatu 16"))
        #expect(Fleet.driverStop(navigator: navigator, trips: [], lastTripStatus: .canceled) == .arrived(place: "Fabianinkatu 16"))
    }

    /// A trip at its pickup means waiting for the rider, whatever the navigator says.
    @Test func waitingAtThePickup() throws {
        #expect(Fleet.driverStop(navigator: nil, trips: [trip(.arrivedAtPickup)], lastTripStatus: nil) == .waitingForRider(place: nil))
        let navigator = try arrived(name: "Kaivokatu 8")
        #expect(
            Fleet.driverStop(navigator: navigator, trips: [trip(.arrivedAtPickup)], lastTripStatus: nil)
                == .waitingForRider(place: "Kaivokatu 8"))
    }

    /// Driving, or idle without a finished trip, shows no stop; idle after one shows it done.
    @Test func drivingAndIdle() throws {
        var route = StraightRoute.streets(count: 31)
        let points = StraightRoute.points(of: route)
        route.destinations[0].name = "Somewhere 1"
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start.date)
        _ = navigator.update(location: points[3], heading: 90, speedMetersPerSecond: 10, accuracyMeters: 5, time: start.date.addingTimeInterval(15))
        #expect(Fleet.driverStop(navigator: navigator, trips: [trip(.enrouteToPickup)], lastTripStatus: nil) == nil)
        #expect(Fleet.driverStop(navigator: nil, trips: [], lastTripStatus: nil) == nil)
        #expect(Fleet.driverStop(navigator: nil, trips: [], lastTripStatus: .complete) == .tripComplete(place: nil))
        #expect(Fleet.driverStop(navigator: navigator, trips: [], lastTripStatus: .complete) == nil, "guiding to a destination again")
    }
}
