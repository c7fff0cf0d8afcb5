import Foundation
import Hummingbird
import Navigation
import NavigationTesting
import StoreVariants
import Testing
import TripServer
import TripServerTesting

@Suite struct ImageRouteTests {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    /// Maneuver icons come as PNG for any role, in the asked size; unknown names and bad
    /// options are refused.
    @Test(arguments: TestStoreKind.persistent) func maneuverIcons(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let rider = try await server.token(.consumer, trip: "t1")
        let harness = try await server.start()
        try await harness.test { client in
            let icon = try await client.send(
                .get, "/v1/maneuvers/roundaboutLeftClockwise.png?size=square96&scale=2&lighting=lowLight",
                token: rider)
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/png")
            let bytes = Array(icon.body)
            #expect(Array(bytes.prefix(4)) == Self.pngSignature)
            // The IHDR width and height: 96 points at scale 2.
            #expect(bytes[16..<24].elementsEqual([0, 0, 0, 192, 0, 0, 0, 192]))
            #expect(try await client.send(.get, "/v1/maneuvers/straight.png", token: rider).status == .ok)
            #expect(try await client.send(.get, "/v1/maneuvers/jump.png", token: rider).status == .notFound)
            #expect(try await client.send(.get, "/v1/maneuvers/straight.png?size=square12", token: rider).status == .badRequest)
            #expect(try await client.send(.get, "/v1/maneuvers/straight.png?scale=4", token: rider).status == .badRequest)
            #expect(try await client.send(.get, "/v1/maneuvers/straight.png?lighting=dusk", token: rider).status == .badRequest)
            #expect(try await client.send(.get, "/v1/maneuvers/straight.png").status == .unauthorized)
        }
    }

    /// The lane image shows the current step's lanes; before a step with lanes it is a 404,
    /// and riders may not read it.
    @Test(arguments: TestStoreKind.persistent) func laneImage(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        let rider = try await server.token(.consumer, trip: "t1")
        let harness = try await server.start()
        let route = {
            var route = StraightRoute.streets()
            route.steps[1].lanes = [
                Lane(laneDirections: [LaneDirection(laneShape: .straight, recommended: false)]),
                Lane(laneDirections: [LaneDirection(laneShape: .normalRight, recommended: true)]),
            ]
            return route
        }()
        try await harness.test { client in
            try await client.send(.post, "/v1/providers/p/vehicles?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody)
            #expect(try await client.send(.put, "/v1/providers/p/vehicles/v1/route", token: driver, json: route).status == .ok)
            let uri = "/v1/providers/p/vehicles/v1/navInfo/lanes.png?scale=2"
            #expect(try await client.send(.get, uri, token: driver).status == .notFound)
            let first = try #require(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2).first { _ in true })
            try await client.send(
                .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", token: driver,
                body: NavFixtures.locationBody(first))
            let image = try await client.send(.get, uri, token: driver)
            #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            let bytes = Array(image.body)
            // Two lanes of 48 points at scale 2: 192 × 96.
            #expect(bytes[16..<24].elementsEqual([0, 0, 0, 192, 0, 0, 0, 96]))
            #expect(try await client.send(.get, uri, token: rider).status == .forbidden)
        }
    }
}
