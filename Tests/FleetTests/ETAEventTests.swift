import Testing
import TripModel
import TripStore

@testable import Fleet

/// The event a rider's stream gets when the ETA to the next stop moves.
@Suite struct ETAEventTests {
    static let now = Timestamp(secondsSince1970: 1_764_000_000)

    /// A move of a second or more is logged with the trip's new ETA, time and distance to the
    /// next stop; members the trip does not have are left out.
    @Test func movedETAIsLoggedWithWhatTheTripHas() throws {
        var old = Trip(name: "providers/p/trips/t1")
        old.etaToFirstWaypoint = Timestamp(secondsSince1970: 1_764_000_300)
        var new = old
        new.etaToFirstWaypoint = Timestamp(secondsSince1970: 1_764_000_302)
        new.remainingTimeToFirstWaypoint = ProtoDuration(seconds: 302)
        new.remainingDistanceMeters = 1_500
        let events = Events.progress(old: old, new: new, vehicleId: "v1", now: Self.now)
        let event = try #require(events.first)
        #expect(events.count == 1)
        #expect(event.type == Events.eta)
        #expect(
            event.data
                == #"{"etaToFirstWaypoint":"2025-11-24T16:05:02Z","remainingTimeToFirstWaypoint":"302s","remainingDistanceMeters":1500}"#)
    }

    /// A move under a second is not worth an event.
    @Test func smallMoveIsNotLogged() {
        var old = Trip(name: "providers/p/trips/t1")
        old.etaToFirstWaypoint = Timestamp(secondsSince1970: 1_764_000_300)
        var new = old
        new.etaToFirstWaypoint = Timestamp(secondsSince1970: 1_764_000_300.5)
        #expect(Events.progress(old: old, new: new, vehicleId: "v1", now: Self.now).isEmpty)
    }
}
