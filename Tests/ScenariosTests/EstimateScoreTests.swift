import Access
import Foundation
import Geo
import Scenarios
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

/// A log whose arrivals and speeds are known exactly: one vehicle drives east along a parallel
/// at 10 m/s for 100 s to a pickup (the trip's status says ARRIVED_AT_PICKUP), waits, then at
/// 5 m/s for 200 s to the dropoff (the driver app's navigation says ARRIVED_AT_DESTINATION
/// before the trip is COMPLETE). Updates come every 10 s; the driver app's remaining time is
/// 20 s too long on the way to the pickup and 30 s too short on the way to the dropoff.
enum SyntheticLog {
    static let start = Timestamp(rfc3339: "2025-03-01T12:00:00Z") ?? Timestamp(microseconds: 0)
    static let origin = LatLng(latitude: 37.4, longitude: -122.0)

    /// The place `meters` east of the origin.
    static func east(_ meters: Double) -> LatLng {
        LatLng(latitude: origin.latitude, longitude: origin.longitude + meters / (LocalPlane.metersPerDegree * cos(origin.latitude * .pi / 180)))
    }

    static func time(_ seconds: Double) -> String { start.adding(seconds: seconds).rfc3339 }

    static func entry(_ seconds: Double, _ type: String, _ request: String) -> String {
        #"{"timestamp": "\#(time(seconds))", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.\#(type)", "request": \#(request)}}"#
    }

    static func point(_ p: LatLng) -> String { #"{"latitude": \#(p.latitude), "longitude": \#(p.longitude)}"# }

    static func location(_ seconds: Double, _ p: LatLng) -> String {
        #"{"location": \#(point(p)), "updateTime": "\#(time(seconds))", "heading": 90}"#
    }

    static func vehicleUpdate(
        _ seconds: Double, at p: LatLng, remaining meters: Double, driverSeconds: Double, arrived: Bool = false
    )
        -> String
    {
        let navigation = arrived ? #", "navigationStatus": "NAVIGATION_STATUS_ARRIVED_AT_DESTINATION""# : ""
        let mask = "lastLocation,remainingDistanceMeters,remainingTimeSeconds" + (arrived ? ",navigationStatus" : "")
        return entry(
            seconds, "UpdateVehicleLog",
            #"{"vehicleId": "v1", "updateMask": "\#(mask)", "vehicle": {"name": "providers/p/vehicles/v1", "lastLocation": \#(location(seconds, p)), "remainingDistanceMeters": \#(Int(meters)), "remainingTimeSeconds": \#(Int(driverSeconds))\#(navigation)}}"#
        )
    }

    static func tripStatus(_ seconds: Double, _ status: String) -> String {
        entry(
            seconds, "UpdateTripLog",
            #"{"tripId": "t1", "updateMask": "tripStatus", "trip": {"name": "providers/p/trips/t1", "status": "TRIP_STATUS_\#(status)"}}"#)
    }

    static var text: String {
        let pickup = east(1_000)
        let dropoff = east(2_000)
        var entries = [
            entry(
                -10, "CreateVehicleLog",
                #"{"vehicleId": "v1", "vehicle": {"name": "providers/p/vehicles/v1", "state": "VEHICLE_STATE_ONLINE", "supportedTrips": ["EXCLUSIVE_TRIP"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}, "lastLocation": \#(location(-10, origin))}}"#
            ),
            entry(
                -5, "CreateTripLog",
                #"{"tripId": "t1", "trip": {"name": "providers/p/trips/t1", "vehicleId": "v1", "tripType": "EXCLUSIVE_TRIP", "status": "TRIP_STATUS_NEW", "pickupPoint": {"point": \#(point(pickup))}, "dropoffPoint": {"point": \#(point(dropoff))}}}"#
            ),
            tripStatus(-4, "ENROUTE_TO_PICKUP"),
        ]
        // To the pickup: 1,000 m at 10 m/s, updates at 0, 10, …, 90 s; the arrival at 100 s.
        for k in 0..<10 {
            let t = Double(k) * 10
            entries.append(vehicleUpdate(t, at: east(10 * t), remaining: 1_000 - 10 * t, driverSeconds: 100 - t + 20))
        }
        entries.append(tripStatus(100, "ARRIVED_AT_PICKUP"))
        entries.append(tripStatus(130, "ENROUTE_TO_DROPOFF"))
        // To the dropoff: 1,000 m at 5 m/s from 130 s, updates at 130, 140, …, 320 s; the
        // driver app says it arrived at 330 s, the trip is complete at 340 s.
        for k in 0..<20 {
            let t = 130 + Double(k) * 10
            entries.append(vehicleUpdate(t, at: east(1_000 + 5 * (t - 130)), remaining: 1_000 - 5 * (t - 130), driverSeconds: 330 - t - 30))
        }
        entries.append(vehicleUpdate(330, at: dropoff, remaining: 0, driverSeconds: 0, arrived: true))
        entries.append(tripStatus(340, "COMPLETE"))
        return "[" + entries.joined(separator: ",\n") + "]"
    }
}

@Suite struct EstimateScoreTests {
    /// The log is cut into its two legs at the real arrivals, with the right lengths and
    /// signs, and every location update on the way lies in its leg.
    @Test func legsEndAtTheRealArrivals() throws {
        let calls = try FleetLogCalls(log: try FleetLog.parse(Array(SyntheticLog.text.utf8)))
        let legs = FleetLogLegs(calls: calls.calls).legs
        #expect(legs.count == 2)
        #expect(legs.map(\.seconds) == [100, 200])
        #expect(legs.map(\.sign) == [.tripStatus(.arrivedAtPickup), .navigationArrived])
        #expect(legs.map(\.updates.count) == [10, 20])
        #expect(legs.map(\.stop) == [FleetLogLegs.Stop(tripId: "t1", type: .pickup), FleetLogLegs.Stop(tripId: "t1", type: .dropOff)])
        let place = try #require(legs.last?.place)
        #expect(Earth.distance(place, SyntheticLog.east(2_000)) < 0.01)
    }

    /// The driver app's errors are scored exactly: +20 s on the five updates with a minute or
    /// more to the pickup, −30 s on the fifteen with a minute or more to the dropoff.
    @Test func driverErrorsAreExact() throws {
        let calls = try FleetLogCalls(log: try FleetLog.parse(Array(SyntheticLog.text.utf8)))
        let legs = FleetLogLegs(calls: calls.calls)
        var samples: [EstimateScore.Sample] = []
        var counted = [0, 0]
        for (index, call) in calls.calls.enumerated() {
            guard let leg = legs.leg(ofCall: index) else { continue }
            let actual = legs.legs[leg].arrival.seconds(since: call.time)
            // "Ours" is the truth plus 10 s on the first leg, and on the second the truth on
            // every other update, counted from its first, and missing on the rest.
            let ours: Double? = leg == 0 ? actual + 10 : (counted[1] % 2 == 0 ? actual : nil)
            counted[leg] += 1
            samples.append(.init(leg: leg, actualSeconds: actual, ours: ours, driver: call.vehicle?.remainingTimeSeconds.map(Double.init)))
        }
        let score = EstimateScore(legs: legs.legs, samples: samples)
        let first = score.legs[0].score
        #expect(first.updates == 5 && first.ourShare == 1)
        let driver = try #require(first.driver)
        #expect(driver.meanAbsolute == 20 && driver.medianAbsolute == 20 && driver.bias == 20)
        let expectedPercentage = [100.0, 90, 80, 70, 60].map { 20 / $0 }.reduce(0, +) / 5
        #expect(abs(driver.meanAbsolutePercentage - expectedPercentage) < 1e-12)
        #expect(first.oursWhereBoth?.meanAbsolute == 10 && first.oursWhereBoth?.bias == 10)
        let second = score.legs[1].score
        #expect(second.updates == 15)
        #expect(second.driver?.bias == -30 && second.driver?.meanAbsolute == 30)
        #expect(second.ourShare == 8.0 / 15 && second.oursWhereBoth?.count == 8 && second.driverWhereBoth?.count == 8)
        #expect(second.oursWhereBoth?.meanAbsolute == 0)
        #expect(score.overall.updates == 20 && score.overall.driver?.count == 20)
        #expect(abs((score.overall.driver?.bias ?? 0) - (5 * 20 - 15 * 30) / 20.0) < 1e-9)
        #expect(score.table.count > 4)
    }

    /// Replayed through the API without the driver's numbers, every scored update has our
    /// estimate (a straight line: the log sends no route), the driver's figures come out as
    /// above, and the report holds every update inside a leg with the seconds it had to go.
    @Test(arguments: TestStoreKind.available)
    func replayScoresBoth(_ store: TestStoreKind) async throws {
        let log = try FleetLog.parse(Array(SyntheticLog.text.utf8))
        let server = try await LocalServer(store: try await TestStores.make(store))
        let serverToken = try await server.token(Principal(role: .server, provider: Principal.allProviders))
        let replay = FleetLogReplay(log: log, transport: server.transport, serverToken: serverToken) { provider, trip in
            try await server.token(Principal(role: .consumer, provider: provider, tripId: trip))
        }
        let report = try await replay.run(.init(withoutDriverEstimates: true, score: true))
        #expect(report.failures.isEmpty, "\(report.failures.prefix(3))")
        let score = try #require(report.score)
        #expect(score.legs.count == 2)
        #expect(score.overall.updates == 20 && score.overall.ourShare == 1)
        #expect(report.estimates.filter { $0.leg != nil }.allSatisfy { $0.method == .straightLine })
        #expect(score.overall.driverWhereBoth?.count == 20)
        #expect(score.legs[0].score.driver?.bias == 20)
        // Every update inside a leg is in the report, with the seconds it really had to go.
        #expect(report.estimates.filter { $0.leg != nil }.count == 30)
        #expect(report.estimates.first { $0.leg == 0 }?.actualSeconds == 100)
    }
}
