import Foundation
import Geo
import Navigation
import Testing

/// One step as scripts/nav_import_expectations.py wrote it from the fixture.
private struct ExpectedStep: Decodable {
    var stepNumber: Int
    var maneuver: String
    var fullRoadName: String
    var simpleRoadName: String
    var fullInstructionText: String
    var exitNumber: String?
    var roundaboutTurnNumber: Int
    var drivingSide: String
    var distanceFromPrevStepMeters: Double
    var timeFromPrevStepSeconds: Double
    var lanes: [[ExpectedDirection]]
    var maneuverLocation: [Double]
}

/// A lane direction as `[shape, recommended]`.
private struct ExpectedDirection: Decodable {
    var shape: String
    var recommended: Bool

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        shape = try c.decode(String.self)
        recommended = try c.decode(Bool.self)
    }
}

private struct Expectation: Decodable {
    var source: String
    var totalDistanceMeters: Double
    var destinationCount: Int
    var steps: [ExpectedStep]
}

@Suite struct ImporterTests {
    /// Compares every imported step with the independent expectation table, field by field.
    private func check(_ route: NavRoute, against expectationFile: String) throws {
        let expected = try JSONDecoder().decode(Expectation.self, from: TestFiles.testData(expectationFile))
        let points = try route.validate()
        #expect(route.steps.count == expected.steps.count, "no step lost")
        #expect(route.destinations.count == expected.destinationCount)
        for (step, want) in zip(route.steps, expected.steps) {
            let at = "\(expected.source) step \(want.stepNumber)"
            #expect(step.stepNumber == want.stepNumber, "\(at)")
            #expect(step.maneuver.rawValue == want.maneuver, "\(at)")
            #expect(step.fullRoadName == want.fullRoadName, "\(at)")
            #expect(step.simpleRoadName == want.simpleRoadName, "\(at)")
            #expect(step.fullInstructionText == want.fullInstructionText, "\(at)")
            #expect(step.exitNumber == want.exitNumber, "\(at)")
            #expect(step.roundaboutTurnNumber == want.roundaboutTurnNumber, "\(at)")
            #expect(step.drivingSide.rawValue == want.drivingSide, "\(at)")
            #expect(abs(step.distanceFromPrevStepMeters - want.distanceFromPrevStepMeters) < 1e-9, "\(at)")
            #expect(abs(step.timeFromPrevStepSeconds - want.timeFromPrevStepSeconds) < 1e-9, "\(at)")
            let lanes = step.lanes.map { $0.laneDirections.map { "\($0.laneShape.rawValue):\($0.recommended)" } }
            let wantLanes = want.lanes.map { $0.map { "\($0.shape):\($0.recommended)" } }
            #expect(lanes == wantLanes, "\(at)")
            // The step's maneuver is where the router put it (within the precision-5 grid).
            let p = points[step.polylineEndIndex]
            #expect(abs(p.latitude - want.maneuverLocation[0]) <= 1.01e-5, "\(at)")
            #expect(abs(p.longitude - want.maneuverLocation[1]) <= 1.01e-5, "\(at)")
        }
        let total = route.steps.reduce(0) { $0 + $1.distanceFromPrevStepMeters }
        #expect(abs(total - expected.totalDistanceMeters) < 1)
    }

    /// The OSRM Portugal–Korea response imports all 422 steps exactly as the mapping table says.
    @Test func osrmPortugalToKorea() throws {
        let route = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        #expect(route.steps.count == 422)
        try check(route, against: "osrm-expected.json")
        #expect(route.drivingSide == .right)
        #expect(route.segmentDurationsSeconds.map { abs($0.reduce(0, +) - 563_351.6) < 1 } == true)
    }

    /// The Valhalla Berlin response imports every maneuver as the mapping table says.
    @Test func valhallaBerlin() throws {
        let route = try ValhallaImporter.route(from: TestFiles.fixture("valhalla/route.json"))
        #expect(route.steps.count == 3)
        try check(route, against: "valhalla-expected.json")
        #expect(route.destinations.last?.location == LatLng(latitude: 52.519601, longitude: 13.434275))
    }

    /// Malformed responses are refused with a message, not a crash.
    @Test func malformedResponses() {
        #expect(throws: RouteImportError.self) { try OSRMImporter.route(from: Data("{}".utf8)) }
        #expect(throws: RouteImportError.self) { try OSRMImporter.route(from: Data(#"{"code":"NoRoute"}"#.utf8)) }
        #expect(throws: RouteImportError.self) { try ValhallaImporter.route(from: Data("[1]".utf8)) }
        let badShape = #"{"trip":{"legs":[{"shape":"??","maneuvers":[{"type":1,"time":1,"length":1,"begin_shape_index":0,"end_shape_index":5}]}]}}"#
        #expect(throws: RouteImportError.self) { try ValhallaImporter.route(from: Data(badShape.utf8)) }
    }
}
