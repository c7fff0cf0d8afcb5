import Foundation
import JSON
import Scenarios
import Testing
import TripModel

@Suite struct FleetLogCallsTests {
    /// A small export: a vehicle only updated (never created), a trip on it without a trip
    /// type, a location update that holds only a handle, and a repeated create.
    static let log = """
        [{"timestamp": "2025-02-05T17:00:00Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.UpdateVehicleLog",
          "request": {"vehicleId": "v1", "updateMask": "lastLocation",
                      "vehicle": {"name": "providers/p/vehicles/v1",
                                  "lastLocation": {"location": {"latitude": 37.4, "longitude": -122.0}}}}}},
         {"timestamp": "2025-02-05T17:00:05Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.CreateTripLog",
          "request": {"tripId": "t1", "trip": {"name": "providers/p/trips/t1", "vehicleId": "v1",
                      "pickupPoint": {"point": {"latitude": 37.41, "longitude": -122.0}}}}}},
         {"timestamp": "2025-02-05T17:00:10Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.UpdateVehicleLog",
          "request": {"vehicleId": "v1", "updateMask": "lastLocation", "vehicle": {"name": "providers/p/vehicles/v1",
                      "lastLocation": {"locationHandle": "opaque"}}}}},
         {"timestamp": "2025-02-05T17:00:15Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.CreateVehicleLog",
          "request": {"vehicleId": "v2", "vehicle": {"name": "providers/p/vehicles/v2"}}}},
         {"timestamp": "2025-02-05T17:00:20Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.CreateVehicleLog",
          "request": {"vehicleId": "v2", "vehicle": {"name": "providers/p/vehicles/v2"}}}}]
        """

    /// Every user of a log (replay, import, demo) gets the same calls: a vehicle the log never
    /// creates is created just before its first call, a trip without a type is EXCLUSIVE, a
    /// location update without a position is left out, and a repeated create expects 409.
    @Test func logBecomesCalls() throws {
        let calls = try FleetLogCalls(log: try FleetLog.parse(Array(Self.log.utf8)))
        #expect(calls.calls.map(\.kind) == [.createVehicle, .updateVehicle, .createTrip, .createVehicle, .createVehicle])
        let synthesized = try #require(calls.calls.first)
        #expect(synthesized.isSynthesized && synthesized.id == "v1" && synthesized.time == calls.calls[1].time)
        #expect(synthesized.method == "POST" && synthesized.path == "/v1/providers/p/vehicles?vehicleId=v1")
        #expect(synthesized.vehicle?.vehicleState == .online && synthesized.vehicle?.maximumCapacity == 4)
        #expect(calls.calls[1].path == "/v1/providers/p/vehicles/v1?updateMask=lastLocation" && calls.calls[1].method == "PUT")
        #expect(calls.calls[2].trip?.tripType == .exclusive)
        #expect(calls.calls.suffix(2).map(\.expectedStatus) == [200, 409])
        #expect(calls.report.synthesizedVehicles == ["v1"] && calls.report.locationsWithoutPosition == 1)
        #expect(calls.notes.contains { $0.contains("no tripType") } && calls.notes.contains { $0.contains("never creates v1") })
        let sent = try JSONCoding.decode(Vehicle.self, from: try calls.calls[1].body(), root: "vehicle")
        #expect(sent.lastLocation?.location?.latitude == 37.4)
    }
}

extension FleetLogCallsTests {
    /// The shared logs' driver app sends no `updateTime`: every location call carries its raw
    /// fix's time (the driver app's clock) as `updateTime`, and the notes say so; a logged
    /// `updateTime` is kept.
    @Test func locationsCarryTheDriverAppsTime() throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/two-trips-bay-area.json")))
        let calls = try FleetLogCalls(log: log)
        let located = calls.calls.filter { $0.kind == .updateVehicle && $0.updateMask?.contains("lastLocation") == true }
        #expect(located.count > 500)
        for call in located {
            let location = try #require(call.vehicle?.lastLocation)
            #expect(location.updateTime != nil && location.updateTime == location.rawLocationTime, "\(call.time)")
            let sent = try JSONCoding.decode(Vehicle.self, from: try call.body(), root: "vehicle")
            #expect(sent.lastLocation?.updateTime == location.rawLocationTime)
        }
        // The app's clock, not the log's: fixes are taken before the server logs them.
        #expect(located.contains { $0.vehicle?.lastLocation?.updateTime != $0.time })
        #expect(calls.notes.contains { $0.contains("rawLocationTime (the driver app's clock)") })

        let stamped = """
            [{"timestamp": "2025-02-05T17:00:00Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.UpdateVehicleLog",
              "request": {"vehicleId": "v1", "updateMask": "lastLocation", "vehicle": {"name": "providers/p/vehicles/v1",
                "lastLocation": {"location": {"latitude": 37.4, "longitude": -122.0}, "updateTime": "2025-02-05T16:59:58Z",
                                 "rawLocationTime": "2025-02-05T16:59:57Z"}}}}}]
            """
        let kept = try FleetLogCalls(log: try FleetLog.parse(Array(stamped.utf8)))
        #expect(kept.calls.last?.vehicle?.lastLocation?.updateTime == Timestamp(rfc3339: "2025-02-05T16:59:58Z"))
        #expect(kept.report.updateTimesFromRaw == 0)
    }
}
