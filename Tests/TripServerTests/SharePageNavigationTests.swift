import Foundation
import Hummingbird
import JSON
import Navigation
import NavigationTesting
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct SharePageNavigationTests {
    /// The page carries the navigator's current step when it is made, so the next turn shows
    /// at once, not at the next live update (a car standing still sends none); without a
    /// route, or on a shared ride, it carries none.
    @Test func pageCarriesTheNextTurn() async throws {
        let server = try await RestartableServer()
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        let rider = try await server.token(.consumer, trip: "t1")
        let route = StraightRoute.streets()
        let pickup = try #require(try route.validate().last)
        try await server.start().test { client in
            try await client.send(.post, "/v1/providers/p/vehicles?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody)
            try await client.send(
                .post, "/v1/providers/p/trips?tripId=t1", token: admin,
                body: NavFixtures.tripBody(vehicle: "v1", pickup: pickup))
            let before = try await client.send(.get, "/share/\(rider)", token: rider)
            #expect(before.status == .ok && before.text.contains(#"data-nav="""#), "no route yet: nothing to show")

            #expect(try await client.send(.put, "/v1/providers/p/vehicles/v1/route", token: driver, json: route).status == .ok)
            let first = try #require(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2).first { _ in true })
            try await client.send(
                .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", token: driver,
                body: NavFixtures.locationBody(first))
            let page = try await client.send(.get, "/share/\(rider)", token: rider)
            let attribute = try #require(page.text.firstRange(of: #"data-nav=""#).map { page.text[$0.upperBound...] })
            let escaped = String(attribute.prefix { $0 != "\"" })
            let json = escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
            let info = try JSONCoding.decode(NavInfo.self, from: Array(json.utf8), root: "navInfo")
            #expect(info.currentStep?.simpleRoadName == "Street 1")
            #expect(info.currentStep?.maneuver == .turnRight)
        }
    }
}
