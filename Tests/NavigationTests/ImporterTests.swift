import Foundation
import Geo
import Navigation
import Testing

/// One step as scripts/generate/nav_import_expectations.py wrote it from the fixture.
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

@Suite struct ImporterMappingTests {
    /// A two-leg Valhalla route driving on the left: lanes from bitmasks, a clockwise
    /// roundabout with its exit, exit signs, and an intermediate destination.
    @Test func valhallaLanesRoundaboutAndLegs() throws {
        let shape1 = EncodedPolyline.encode(
            (0..<5).map { LatLng(latitude: 51.5, longitude: -0.1 + Double($0) * 0.001) }, precision: 6)
        let shape2 = EncodedPolyline.encode(
            (4..<8).map { LatLng(latitude: 51.5, longitude: -0.1 + Double($0) * 0.001) }, precision: 6)
        let json = """
            {"trip":{"units":"kilometers","locations":[{"lat":51.5,"lon":-0.1},{"lat":51.5,"lon":-0.096},{"lat":51.5,"lon":-0.093}],
             "legs":[{"shape":"\(shape1)","maneuvers":[
               {"type":1,"street_names":["High Street","A1"],"bearing_after":90,"time":10,"length":0.07,"begin_shape_index":0,"end_shape_index":1,"drive_on_right":false},
               {"type":26,"bearing_before":90,"roundabout_exit_count":2,"street_names":["Mill Road"],"time":5,"length":0.07,"begin_shape_index":1,"end_shape_index":2,
                "lanes":[{"directions":10,"active":8},{"directions":2,"valid":2}]},
               {"type":27,"bearing_after":0,"street_names":["Mill Road"],"time":5,"length":0.07,"begin_shape_index":2,"end_shape_index":3},
               {"type":20,"sign":{"exit_number_elements":[{"text":"12"}],"exit_toward_elements":[{"text":"Cambridge"}]},"time":5,"length":0.07,"begin_shape_index":3,"end_shape_index":4},
               {"type":5,"time":0,"length":0,"begin_shape_index":4,"end_shape_index":4}]},
              {"shape":"\(shape2)","maneuvers":[
               {"type":1,"bearing_after":90,"time":10,"length":0.2,"begin_shape_index":0,"end_shape_index":3},
               {"type":4,"time":0,"length":0,"begin_shape_index":3,"end_shape_index":3}]}]}}
            """
        let route = try ValhallaImporter.route(from: Data(json.utf8))
        let points = try route.validate()
        #expect(points.count == 8)
        #expect(route.drivingSide == .left)
        #expect(
            route.steps.map(\.maneuver) == [
                .depart, .roundaboutLeftClockwise, .roundaboutExitClockwise, .offRampRight, .destinationRight, .depart,
                .destination,
            ])
        #expect(route.steps[0].fullRoadName == "High Street (A1)")
        #expect(route.steps[1].fullInstructionText == "At the roundabout, take the 2nd exit onto Mill Road")
        #expect(route.steps[1].roundaboutTurnNumber == 2)
        #expect(
            route.steps[1].lanes == [
                Lane(laneDirections: [
                    LaneDirection(laneShape: .straight, recommended: false),
                    LaneDirection(laneShape: .normalLeft, recommended: true),
                ]),
                Lane(laneDirections: [LaneDirection(laneShape: .straight, recommended: true)]),
            ])
        #expect(route.steps[3].exitNumber == "12")
        #expect(route.steps[3].fullInstructionText == "Take exit 12 toward Cambridge")
        #expect(route.steps[3].fullRoadName == "Exit 12 / Cambridge")
        #expect(route.steps[4].fullInstructionText == "Arrive at waypoint 1, on the right")
        #expect(route.steps[6].fullInstructionText == "Arrive at your destination")
        #expect(route.destinations.map(\.polylinePointIndex) == [4, 7])
        #expect(route.destinations[0].location == LatLng(latitude: 51.5, longitude: -0.096))
        #expect(abs(route.steps[2].distanceFromPrevStepMeters - 70) < 1e-9)
        #expect(route.steps[5].polylineStartIndex == 4 && route.steps[5].polylineEndIndex == 4)
    }

    /// OSRM U-turns and ramps take the driving side; ferries override the step type.
    @Test func osrmSideDependentCases() throws {
        func step(_ type: String, _ modifier: String?, mode: String = "driving", side: String, lng: Double) -> String {
            let geometry = EncodedPolyline.encode([
                LatLng(latitude: 10, longitude: lng), LatLng(latitude: 10, longitude: lng + 0.001),
            ])
            let m = modifier.map { #","modifier":"\#($0)""# } ?? ""
            return """
                {"geometry":"\(geometry)","maneuver":{"type":"\(type)"\(m),"bearing_before":90,"bearing_after":90},
                 "mode":"\(mode)","name":"","driving_side":"\(side)","distance":111,"duration":10,"intersections":[{}]}
                """
        }
        for (side, uTurn, ramp) in [
            ("right", Maneuver.turnUTurnCounterClockwise, Maneuver.onRampUTurnCounterClockwise),
            ("left", .turnUTurnClockwise, .onRampUTurnClockwise),
        ] {
            let steps = [
                step("depart", nil, side: side, lng: 0), step("turn", "uturn", side: side, lng: 0.001),
                step("on ramp", "uturn", side: side, lng: 0.002), step("continue", "left", mode: "ferry", side: side, lng: 0.003),
                step("notification", nil, side: side, lng: 0.004),
                #"{"geometry":"\#(EncodedPolyline.encode([LatLng(latitude: 10, longitude: 0.005)]))","maneuver":{"type":"arrive","bearing_before":90,"bearing_after":0},"mode":"driving","name":"","distance":0,"duration":0,"intersections":[{}]}"#,
            ]
            let json = #"{"code":"Ok","routes":[{"legs":[{"steps":[\#(steps.joined(separator: ","))]}]}]}"#
            let route = try OSRMImporter.route(from: Data(json.utf8))
            #expect(route.steps.map(\.maneuver) == [.depart, uTurn, ramp, .ferryBoat, .unknown, .destination])
            #expect(route.steps[1].fullInstructionText == "Make a U-turn")
            #expect(route.steps[3].fullInstructionText == "Take the ferry")
        }
    }
}
