import Foundation
import Geo
import Hummingbird
import Navigation
import NavigationTesting
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting
import TripStore

@Suite struct NavigationAPITests {
    static let vehicles = "/v1/providers/p/vehicles"

    /// Types of the vehicle's logged events after `after`.
    static func eventTypes(_ app: TripServerApp, after: Int64 = 0) async throws -> [String] {
        try await app.store.events(after: after, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10_000).map(\.type)
    }

    struct VehicleStatus: Decodable {
        var navigationStatus: String?
    }

    static func status(_ client: Client, _ token: String) async throws -> String? {
        try await client.send(.get, "\(vehicles)/v1", token: token).decoded(VehicleStatus.self).navigationStatus
    }

    /// A route set over HTTP guides the vehicle through its location updates: navigator
    /// events in the log, OFF_ROUTE after a 200 m excursion, back en route on a new route,
    /// resumed by a restarted server on the same database, and ARRIVED until the driver
    /// moves the trip on.
    @Test(arguments: TestStoreKind.persistent) func routeGuidesUpdatesAcrossRestart(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        let route = StraightRoute.streets()
        let drive = Array(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2))
        let firstHarness = try await server.start()
        let first = firstHarness.app
        try await firstHarness.test { client in
            #expect(try await client.send(.post, "\(Self.vehicles)?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody).status == .ok)
            let pickup = route.destinations[0].location
            #expect(
                try await client.send(
                    .post, "/v1/providers/p/trips?tripId=t1", token: admin,
                    body: NavFixtures.tripBody(vehicle: "v1", pickup: pickup)
                ).status == .ok)
            let set = try await client.send(.put, "\(Self.vehicles)/v1/route", token: driver, json: route)
            #expect(set.status == .ok)
            #expect(try set.decoded(NavInfo.self).navState == .enroute)
            #expect(try await Self.status(client, driver) == "ENROUTE_TO_DESTINATION")
            let vehicle = try await client.send(.get, "\(Self.vehicles)/v1", token: driver).text
            #expect(vehicle.contains("currentRouteSegment"))
            for p in drive.prefix(20) {
                let r = try await client.send(
                    .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(p))
                #expect(r.status == .ok)
            }
        }
        let types = try await Self.eventTypes(first)
        for expected in [
            "navigatorDidChangeRoute", "didUpdateVehicleLocation", "didUpdateLocation",
            "didUpdateRemainingDistance", "didUpdateRemainingTime", "didUpdateNavInfo",
        ] {
            #expect(types.contains(expected), "no \(expected) in \(Set(types))")
        }
        // The rider of the vehicle's only trip hears the navigator too.
        let riderTypes = try await first.store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 10_000).map(\.type)
        #expect(riderTypes.contains("didUpdateNavInfo"))

        // A restarted server (new store object, same file) carries on where the first stopped.
        let secondHarness = try await server.start()
        let second = secondHarness.app
        let before = try await second.store.latestEventID()
        try await secondHarness.test { client in
            let info = try await client.send(.get, "\(Self.vehicles)/v1/navInfo", token: driver).decoded(NavInfo.self)
            #expect(info.navState == .enroute)
            #expect(abs(info.distanceToFinalDestinationMeters - (3_000 - 380)) < 30)
            try await client.send(
                .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                body: NavFixtures.locationBody(drive[20]))
            let resumed = try await second.store.events(after: before, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100)
            let snapped = try #require(resumed.first { $0.type == "didUpdateLocation" })
            let location = try JSONDecoder().decode(NavEvent.SnappedLocation.self, from: Data(snapped.data.utf8))
            #expect(location.isRoadSnapped)
            #expect(abs((location.distanceAlongRouteMeters ?? 0) - 20 * 2 * 10) < 30)
            #expect(!resumed.contains { $0.type == "navigatorDidChangeRoute" })

            // 200 m off the route, reached at 25 m/s: OFF_ROUTE.
            let base = drive[21]
            var time = base.time
            var offRoute = base.location
            for metres in [50.0, 100, 150, 200, 200, 200] {
                offRoute = NavFixtures.north(base.location, metres)
                let p = TracePoint(time: time, location: offRoute, heading: 0, speedMetersPerSecond: 25, accuracyMeters: 5)
                try await client.send(
                    .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(p))
                time += 2
            }
            #expect(try await Self.status(client, driver) == "OFF_ROUTE")

            // A new route from there: back en route, then arrival.
            let detour = StraightRoute.streets(from: offRoute, count: 21)
            #expect(try await client.send(.put, "\(Self.vehicles)/v1/route", token: driver, json: detour).status == .ok)
            #expect(try await Self.status(client, driver) == "ENROUTE_TO_DESTINATION")
            let mark = try await second.store.latestEventID()
            for p in try DriveSimulator(route: detour, start: time, interval: 2) {
                try await client.send(
                    .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(p))
            }
            #expect(try await Self.status(client, driver) == "ARRIVED_AT_DESTINATION")
            #expect(try await Self.eventTypes(second, after: mark).filter { $0 == "didArriveAtWaypoint" }.count == 1)
            // The trip's status moves only when the driver says so; that ends ARRIVED.
            let trip = try await client.send(.get, "/v1/providers/p/trips/t1", token: driver).text
            #expect(trip.contains("\"NEW\""))
            for status in ["ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP"] {
                let moved = try await client.send(
                    .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", token: driver,
                    body: "{\"tripStatus\": \"\(status)\"}")
                #expect(moved.status == .ok)
            }
            #expect(try await Self.status(client, driver) == "NO_GUIDANCE")
        }
    }

    /// Route and settings requests are checked: field paths in 400s, roles, unknown vehicles.
    @Test(arguments: TestStoreKind.persistent) func routeAndSettingsErrors(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        let otherDriver = try await server.token(.driver, vehicle: "v2")
        let rider = try await server.token(.consumer, trip: "t1")
        let harness = try await server.start()
        let app = harness.app
        try await harness.test { client in
            try await client.send(.post, "\(Self.vehicles)?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody)
            var broken = StraightRoute.streets()
            broken.steps[1].polylineStartIndex = 3
            let invalid = try await client.send(.put, "\(Self.vehicles)/v1/route", token: driver, json: broken)
            #expect(invalid.status == .badRequest)
            #expect(invalid.text.contains("route.steps[1].polylineStartIndex"))
            let unknownField = try await client.send(
                .put, "\(Self.vehicles)/v1/route", token: driver,
                body: "{\"encodedPolyline\": \"_p~iF~ps|U_ulLnnqC\", \"destinations\": [], \"speed\": 3}")
            #expect(unknownField.status == .badRequest && unknownField.text.contains("route.speed"))
            let route = StraightRoute.streets()
            #expect(try await client.send(.put, "\(Self.vehicles)/v1/route", token: rider, json: route).status == .forbidden)
            #expect(try await client.send(.put, "\(Self.vehicles)/v1/route", token: otherDriver, json: route).status == .forbidden)
            #expect(try await client.send(.put, "\(Self.vehicles)/v9/route", token: admin, json: route).status == .notFound)
            #expect(try await client.send(.get, "\(Self.vehicles)/v1/navInfo", token: rider).status == .forbidden)
            let idle = try await client.send(.get, "\(Self.vehicles)/v1/navInfo", token: driver).decoded(NavInfo.self)
            #expect(idle.navState == .stopped)

            let defaults = try await client.send(.get, "\(Self.vehicles)/v1/navigatorSettings", token: driver).text
            #expect(defaults.contains("\"distanceUpdateThreshold\":1") && defaults.contains("\"majorSpeedAlertThresholdKph\":20"))
            let put = try await client.send(
                .put, "\(Self.vehicles)/v1/navigatorSettings", token: driver,
                body: "{\"distanceUpdateThreshold\": 1000, \"timeUpdateThreshold\": 1000}")
            #expect(put.status == .ok)
            let read = try await client.send(.get, "\(Self.vehicles)/v1/navigatorSettings", token: admin).text
            #expect(read.contains("\"distanceUpdateThreshold\":1000") && read.contains("\"minorSpeedAlertThresholdKph\":10"))
            let inverted = try await client.send(
                .put, "\(Self.vehicles)/v1/navigatorSettings", token: driver,
                body: "{\"minorSpeedAlertThresholdKph\": 30, \"majorSpeedAlertThresholdKph\": 20}")
            #expect(inverted.status == .badRequest && inverted.text.contains("navigatorSettings.majorSpeedAlertThresholdKph"))
            let negative = try await client.send(
                .put, "\(Self.vehicles)/v1/navigatorSettings", token: driver,
                body: "{\"timeUpdateThreshold\": -1}")
            #expect(negative.status == .badRequest && negative.text.contains("navigatorSettings.timeUpdateThreshold"))

            // The thresholds apply: with 1 km / 1,000 s, a short drive reports no remaining
            // distance or time beyond the route change's own.
            #expect(try await client.send(.put, "\(Self.vehicles)/v1/route", token: driver, json: route).status == .ok)
            for p in try DriveSimulator(route: route, start: NavFixtures.start, interval: 2).prefix(10) {
                try await client.send(
                    .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(p))
            }
            let types = try await Self.eventTypes(app)
            #expect(types.filter { $0 == "didUpdateRemainingDistance" }.count == 1)
            #expect(types.filter { $0 == "didUpdateRemainingTime" }.count == 1)
            #expect(types.filter { $0 == "didUpdateLocation" }.count == 10)

            #expect(try await client.send(.delete, "\(Self.vehicles)/v1/route", token: driver).status == .ok)
            #expect(try await Self.status(client, driver) == "NO_GUIDANCE")
            #expect(try await client.send(.get, "\(Self.vehicles)/v1/navInfo", token: driver).decoded(NavInfo.self).navState == .stopped)
        }
    }
}
