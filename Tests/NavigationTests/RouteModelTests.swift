import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

@Suite struct RouteModelTests {
    /// The maneuver enum is the SDK's: 66 cases in the header's order.
    @Test func maneuversMatchTheSDK() {
        #expect(Maneuver.allCases.count == 66)
        #expect(Maneuver.unknown.sdkValue == 0)
        #expect(Maneuver.turnUTurnCounterClockwise.sdkValue == 15)
        #expect(Maneuver.onRampUnspecified.sdkValue == 21)
        #expect(Maneuver.offRampUnspecified.sdkValue == 32)
        #expect(Maneuver.roundaboutClockwise.sdkValue == 43)
        #expect(Maneuver.roundaboutExitCounterClockwise.sdkValue == 62)
        #expect(Maneuver.nameChange.sdkValue == 65)
        #expect(Maneuver(rawValue: "roundaboutSharpLeftCounterClockwise") != nil)
        #expect(LaneShape.allCases.count == 10)
        #expect(DrivingSide.left.rawValue == "LEFT")
    }

    /// A valid route passes; each broken field is refused with its path named.
    @Test func validationNamesTheField() throws {
        let good = StraightRoute.east(count: 120, stepEvery: 30, freeFlowSpeed: 12, speedLimitKph: 50)
        #expect(try good.validate().count == 120)
        func problem(_ change: (inout NavRoute) -> Void) -> String? {
            var route = good
            change(&route)
            do {
                _ = try route.validate()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem { $0.steps[3].polylineEndIndex = 500 } == "steps[3].polylineEndIndex: beyond the polyline's 120 points")
        #expect(problem { $0.steps[2].stepNumber = 7 } == "steps[2].stepNumber: is 7, expected 2")
        #expect(problem { $0.steps[1].polylineStartIndex = 3 }?.hasPrefix("steps[1].polylineStartIndex:") == true)
        #expect(problem { $0.encodedPolyline = "not a polyline" }?.hasPrefix("encodedPolyline:") == true)
        #expect(problem { $0.segmentDurationsSeconds?.removeLast() }?.hasPrefix("segmentDurationsSeconds:") == true)
        #expect(problem { $0.freeFlowSegmentDurationsSeconds?[5] = -1 } == "freeFlowSegmentDurationsSeconds[5]: must be finite and >= 0")
        #expect(problem { $0.speedLimits?[0].speedLimitKph = 0 } == "speedLimits[0].speedLimitKph: must be finite and > 0")
        #expect(problem { $0.destinations = [] } == "destinations: needs at least the final destination")
        #expect(problem { $0.destinations[0].polylinePointIndex = 100 }?.hasPrefix("destinations[0].polylinePointIndex:") == true)
        #expect(problem { $0.steps[1].lanes = Array(repeating: Lane(laneDirections: []), count: 17) } == "steps[1].lanes: more than 16 lanes")
        var small = NavRoute.Limits()
        small.maxPoints = 100
        #expect(throws: NavRouteError.self) { try good.validate(limits: small) }
    }

    /// A route survives a JSON round trip, and lean JSON (no lanes, names, side) decodes.
    @Test func routeJSON() throws {
        let route = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        let decoded = try JSONDecoder().decode(NavRoute.self, from: JSONEncoder().encode(route))
        #expect(decoded == route)
        let lean =
            #"{"encodedPolyline":"_p~iF~ps|U_ulLnnqC","destinations":[{"location":{"latitude":40.7,"longitude":-120.95},"polylinePointIndex":1}],"steps":[{"stepNumber":0,"maneuver":"depart","polylineStartIndex":0,"polylineEndIndex":0},{"stepNumber":1,"maneuver":"destination","polylineStartIndex":0,"polylineEndIndex":1}]}"#
        let leanRoute = try JSONDecoder().decode(NavRoute.self, from: Data(lean.utf8))
        #expect(leanRoute.steps[1].roundaboutTurnNumber == -1)
        #expect(leanRoute.drivingSide == DrivingSide.none)
        #expect(try leanRoute.validate().count == 2)
    }

    /// Speeding against the route's limit: percentage over it and the alert level.
    @Test func speedingAndSeverity() throws {
        let route = StraightRoute.east(count: 101, speedLimitKph: 50)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let points = Array(try DriveSimulator(route: route, start: start, interval: 1))
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        func drive(_ k: Int, kph: Double) -> [NavEvent] {
            var p = points[k]
            p.speedMetersPerSecond = kph / 3.6
            return navigator.update(p)
        }
        _ = drive(1, kph: 45)
        #expect(navigator.navInfo.speedingPercentage == 0 && navigator.navInfo.speedAlertSeverity == .none)
        let minor = drive(2, kph: 65)
        #expect(minor.contains(.didUpdateSpeedAlertSeverity(.minor)))
        #expect(abs(navigator.navInfo.speedingPercentage - 30) < 1e-9)
        _ = drive(3, kph: 71)
        #expect(navigator.navInfo.speedAlertSeverity == .major)
        let calm = drive(4, kph: 50)
        #expect(calm.contains(.didUpdateSpeedAlertSeverity(.none)) && calm.contains(.didUpdateSpeedingPercentage(0)))

        var unlimited = Navigator()
        _ = try unlimited.setRoute(StraightRoute.east(count: 101), at: start)
        _ = unlimited.update(points[1])
        #expect(unlimited.navInfo.speedingPercentage == -1)
    }

    /// Delay category from traffic over free-flow time; noData without both.
    @Test func delayCategories() throws {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let cases: [(Double?, DelayCategory)] = [(10.5, .light), (13, .medium), (20, .heavy), (nil, .noData)]
        for (freeFlow, expected) in cases {
            var navigator = Navigator()
            let events = try navigator.setRoute(StraightRoute.east(trafficSpeed: 10, freeFlowSpeed: freeFlow), at: start)
            #expect(events.contains(.didUpdateDelayCategory(expected)))
            #expect(navigator.navInfo.delayCategory == expected)
        }
    }

    /// NavInfo lists the current step and the rest, and reads back from its JSON.
    @Test func navInfoJSON() throws {
        let route = StraightRoute.east(count: 101)
        var navigator = Navigator()
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        _ = try navigator.setRoute(route, at: start)
        _ = navigator.update(location: try route.validate()[30], heading: 90, speedMetersPerSecond: 10, accuracyMeters: 5, time: start)
        let info = navigator.navInfo
        #expect(info.currentStep?.stepNumber == 2)
        #expect(info.remainingSteps.map(\.stepNumber) == [3, 4])
        #expect(abs(info.distanceToCurrentStepMeters - 2_000) < 1)
        #expect(abs(info.distanceToFinalDestinationMeters - 7_000) < 2)
        let data = try JSONEncoder().encode(info)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["remainingSteps"] as? [Any])?.count == 2)
        #expect(object["navState"] as? String == "enroute")
        #expect(try JSONDecoder().decode(NavInfo.self, from: data) == info)
    }

    /// Event lines read `{"event", "time", "data"}` and read back.
    @Test func eventRecords() throws {
        let record = NavEventRecord(
            event: .didUpdateDelayCategory(.heavy), time: Date(timeIntervalSince1970: 1_738_774_951.483))
        let text = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(text.contains(#""event":"didUpdateDelayCategory""#))
        #expect(text.contains(#""time":"2025-02-05T17:02:31.483Z""#))
        #expect(text.contains(#""data":{"delayCategory":"heavy"}"#))
        #expect(try JSONDecoder().decode(NavEventRecord.self, from: Data(text.utf8)) == record)
        let bad = #"{"event":"didExplode","time":"2025-02-05T17:02:31Z","data":{}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavEventRecord.self, from: Data(bad.utf8)) }
    }
}
