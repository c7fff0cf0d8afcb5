import Foundation
import Geo
import Hummingbird
import Navigation
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct InferredRouteAPITests {
    static let vehicles = "/v1/providers/p/vehicles"

    /// The trip's first remaining waypoint: its type and distance.
    static func firstWaypoint(_ client: Client, _ token: String) async throws -> (String, Int)? {
        let text = try await client.send(.get, "/v1/providers/p/trips/t1", token: token).text
        let trip = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        guard let first = (trip["remainingWaypoints"] as? [[String: Any]])?.first,
            let type = first["waypointType"] as? String, let meters = first["distanceMeters"] as? Int
        else { return nil }
        return (type, meters)
    }

    /// What the demo does with a recorded route: PUT it with inferred steps, then send
    /// locations without currentRouteSegment. The navigator announces the turns in order,
    /// counts the distance down in step with the trip's remainingWaypoints, and arrives at
    /// the pickup.
    @Test(arguments: TestStoreKind.persistent) func inferredRouteGuidesAndKeepsTripViews(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        // North 400 m, right (east) 400 m, right (south) 300 m: two right turns.
        let origin = LatLng(latitude: 52.52, longitude: 13.40)
        let dLng = 1 / LocalPlane.metersPerDegree / cos(origin.latitude * .pi / 180)
        var points: [LatLng] = []
        for i in 0...40 { points.append(NavFixtures.north(origin, Double(i) * 10)) }
        for i in 1...40 { points.append(LatLng(latitude: points[40].latitude, longitude: origin.longitude + Double(i) * 10 * dLng)) }
        for i in 1...30 { points.append(NavFixtures.north(points[80], -Double(i) * 10)) }
        let pickup = points[points.count - 1]
        let route = try NavRoute(
            inferringStepsAlong: points,
            destinations: [RouteDestination(location: pickup, polylinePointIndex: points.count - 1)])
        #expect(route.steps.map(\.maneuver) == [.depart, .turnRight, .turnRight, .destination])
        let drive = Array(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2))

        let harness = try await server.start()
        let app = harness.app
        try await harness.test { client in
            #expect(try await client.send(.post, "\(Self.vehicles)?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody).status == .ok)
            #expect(
                try await client.send(
                    .post, "/v1/providers/p/trips?tripId=t1", token: admin,
                    body: NavFixtures.tripBody(vehicle: "v1", pickup: pickup)
                ).status == .ok)
            #expect(try await client.send(.put, "\(Self.vehicles)/v1/route", token: driver, json: route).status == .ok)
            var steps: [Int] = []
            var distances: [Double] = []
            for p in drive {
                let r = try await client.send(
                    .put, "\(Self.vehicles)/v1?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(p))
                #expect(r.status == .ok)
                let info = try await client.send(.get, "\(Self.vehicles)/v1/navInfo", token: driver).decoded(NavInfo.self)
                guard info.navState == .enroute, let step = info.currentStep else { continue }
                if steps.last != step.stepNumber { steps.append(step.stepNumber) }
                distances.append(info.distanceToNextDestinationMeters)
                // The rider's view of the same distance (the trip's first remaining waypoint).
                if let (type, meters) = try await Self.firstWaypoint(client, admin) {
                    #expect(type == "PICKUP_WAYPOINT_TYPE")
                    #expect(abs(Double(meters) - info.distanceToNextDestinationMeters) < 25)
                }
            }
            #expect(steps == [1, 2, 3])
            #expect(route.steps.map(\.fullInstructionText) == ["Head north", "Turn right", "Turn right", "Arrive at your destination"])
            #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 >= $1 })
            #expect((distances.first ?? 0) > 1_000)
        }
        let types = try await app.store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10_000).map(\.type)
        #expect(types.contains("didArriveAtWaypoint"))
        #expect(types.filter { $0 == "navigatorDidChangeRoute" }.count == 1)
    }
}
