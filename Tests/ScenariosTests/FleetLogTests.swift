import Foundation
import Scenarios
import Testing
import TripModel

@Suite struct FleetLogTests {
    /// The lowercase export reads as its 542 calls in time order, with no entry skipped.
    @Test func twoTrips() throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/two-trips-bay-area.json")))
        #expect(log.entries.count == 542)
        #expect(log.skippedEntryTypes.isEmpty)
        var counts: [String: Int] = [:]
        for entry in log.entries {
            switch entry.call {
            case .createTrip: counts["createTrip", default: 0] += 1
            case .updateTrip: counts["updateTrip", default: 0] += 1
            case .updateVehicle: counts["updateVehicle", default: 0] += 1
            case .createVehicle: counts["createVehicle", default: 0] += 1
            }
        }
        #expect(counts == ["createTrip": 2, "updateTrip": 12, "updateVehicle": 528])
        #expect(zip(log.entries, log.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        guard case .updateTrip(let provider, _, let trip, let mask) = log.entries[2].call else {
            Issue.record("third call is not a trip update")
            return
        }
        #expect(provider == "geod-support-gems")
        #expect(mask.fields == ["tripStatus"] && trip.tripStatus == .new)
        let routes = log.entries.compactMap { entry -> String? in
            if case .updateVehicle(_, _, let v, _) = entry.call { return v.currentRouteSegment } else { return nil }
        }
        #expect(routes.count == 45)
        // Raw locations and SDK headers are in the log but not in the API.
        #expect(log.droppedFields.keys.contains { $0.contains("rawlocation") } == false)
    }

    /// The camelCase export reads too; its opaque handles are counted, and locations come
    /// from the raw GPS fix where the log holds only a handle.
    @Test func jumpDemo() throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/jump-demo.json")))
        #expect(log.entries.count == 40 + 4 + 14 + 529)
        #expect(log.droppedFields["vehicle.currentRouteSegmentHandle"] ?? 0 > 500)
        #expect(log.locationsFromRaw > 400)
    }

    /// Something that is not a log is refused.
    @Test func notALog() {
        #expect(throws: StatusError.self) { try FleetLog.parse(Array(#"{"hello": 1}"#.utf8)) }
        #expect(throws: StatusError.self) { try FleetLog.parse(Array("[1".utf8)) }
    }
}
