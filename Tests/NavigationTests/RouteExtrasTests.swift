import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

/// Alternate routes and road features on routes, validated, and filled by the importers
/// where routers report them.
@Suite struct RouteExtrasTests {
    /// Alternate routes and road features are validated with the field named.
    @Test func alternatesAndFeaturesAreValidated() throws {
        let base = StraightRoute.east(count: 11)
        let line = EncodedPolyline.encode([LatLng(latitude: 38.7, longitude: -9.1), LatLng(latitude: 38.71, longitude: -9.1)])
        var route = base
        route.alternateRoutes = [AlternateRoute(encodedPolyline: line, durationSeconds: 60)]
        route.roadFeatures = [RoadFeature(type: .trafficLight, polylinePointIndex: 3), RoadFeature(type: .stopSign, polylinePointIndex: 3)]
        _ = try route.validate()

        func refusal(_ change: (inout NavRoute) -> Void) -> String? {
            var bad = base
            change(&bad)
            do {
                _ = try bad.validate()
                return nil
            } catch {
                return error.path
            }
        }
        let three = [AlternateRoute](repeating: AlternateRoute(encodedPolyline: line, durationSeconds: 1), count: 3)
        #expect(refusal { $0.alternateRoutes = three } == "alternateRoutes")
        #expect(
            refusal { $0.alternateRoutes = [AlternateRoute(encodedPolyline: "?", durationSeconds: 1)] }
                == "alternateRoutes[0].encodedPolyline")
        #expect(
            refusal { $0.alternateRoutes = [AlternateRoute(encodedPolyline: line, durationSeconds: -1)] }
                == "alternateRoutes[0].durationSeconds")
        #expect(
            refusal { $0.alternateRoutes = [AlternateRoute(encodedPolyline: line, durationSeconds: .nan)] }
                == "alternateRoutes[0].durationSeconds")
        #expect(
            refusal { $0.roadFeatures = [RoadFeature(type: .stopSign, polylinePointIndex: 11)] }
                == "roadFeatures[0].polylinePointIndex")
        #expect(
            refusal {
                $0.roadFeatures = [RoadFeature(type: .stopSign, polylinePointIndex: 5), RoadFeature(type: .trafficLight, polylinePointIndex: 2)]
            } == "roadFeatures[1].polylinePointIndex")

        // JSON: an unknown feature type is refused by decoding; the fields round-trip.
        let json = try JSONEncoder().encode(route)
        #expect(try JSONDecoder().decode(NavRoute.self, from: json) == route)
        let badType = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"stopSign\"", with: "\"yieldSign\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavRoute.self, from: Data(badType.utf8)) }
    }

    /// The shared fixtures hold one route each, without traffic lights or stop signs, so
    /// the importers give neither alternates nor features for them.
    @Test func fixturesHaveNoAlternatesOrFeatures() throws {
        let osrm = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        let valhalla = try ValhallaImporter.route(from: TestFiles.fixture("valhalla/route.json"))
        for route in [osrm, valhalla] {
            #expect(route.alternateRoutes == nil)
            #expect(route.roadFeatures == nil)
        }
    }

    /// OSRM: `routes[1...]` become alternates (overview geometry, else the steps'), with
    /// their durations, two at most; Mapbox-dialect intersections mark traffic lights and
    /// stop signs at the nearest point of the route.
    @Test func osrmAlternatesAndFeatures() throws {
        func point(_ k: Int) -> LatLng { LatLng(latitude: 48.85, longitude: 2.35 + Double(k) * 0.001) }
        let first = EncodedPolyline.encode((0...3).map(point))
        let second = EncodedPolyline.encode((3...6).map(point))
        let arrive = EncodedPolyline.encode([point(6)])
        func intersection(_ k: Int, _ extra: String) -> String { #"{"location":[\#(point(k).longitude),\#(point(k).latitude)]\#(extra)}"# }
        let steps = """
            {"geometry":"\(first)","maneuver":{"type":"depart","bearing_after":90},"mode":"driving","name":"Rue A","driving_side":"right",
             "distance":220,"duration":30,"intersections":[\(intersection(0, "")),\(intersection(2, #","traffic_signal":true"#))]},
            {"geometry":"\(second)","maneuver":{"type":"turn","modifier":"left","bearing_before":90,"bearing_after":90},"mode":"driving",
             "name":"Rue B","driving_side":"right","distance":220,"duration":30,
             "intersections":[\(intersection(3, "")),\(intersection(5, #","stop_sign":true"#))]},
            {"geometry":"\(arrive)","maneuver":{"type":"arrive","bearing_before":90,"bearing_after":0},"mode":"driving","name":"",
             "distance":0,"duration":0,"intersections":[\(intersection(6, ""))]}
            """
        let detour = EncodedPolyline.encode([point(0), LatLng(latitude: 48.86, longitude: 2.352), point(6)])
        let json = """
            {"code":"Ok","routes":[{"duration":60,"legs":[{"steps":[\(steps)]}]},
              {"duration":95.5,"geometry":"\(detour)","legs":[{"steps":[]}]},
              {"duration":80,"legs":[{"steps":[\(steps)]}]},
              {"duration":70,"geometry":"\(detour)","legs":[]}]}
            """
        let route = try OSRMImporter.route(from: Data(json.utf8))
        let points = try route.validate()
        #expect(route.alternateRoutes?.count == 2)
        #expect(route.alternateRoutes?[0] == AlternateRoute(encodedPolyline: detour, durationSeconds: 95.5))
        #expect(route.alternateRoutes?[1].durationSeconds == 80)
        #expect(try route.alternateRoutes.map { try EncodedPolyline.decode($0[1].encodedPolyline).count } == 7)
        #expect(
            route.roadFeatures == [
                RoadFeature(type: .trafficLight, polylinePointIndex: 2), RoadFeature(type: .stopSign, polylinePointIndex: 5),
            ])
        #expect(points[5] == LatLng(latitude: 48.85, longitude: 2.355))
    }

    /// Valhalla: `alternates[].trip` become alternates, timed by their summaries.
    @Test func valhallaAlternates() throws {
        func shape(_ lngs: [Double]) -> String {
            EncodedPolyline.encode(lngs.map { LatLng(latitude: 52.52, longitude: $0) }, precision: 6)
        }
        func trip(_ lngs: [Double], time: Double) -> String {
            """
            {"units":"kilometers","summary":{"time":\(time)},"legs":[{"shape":"\(shape(lngs))","summary":{"time":\(time)},"maneuvers":[
              {"type":1,"time":\(time),"length":0.2,"begin_shape_index":0,"end_shape_index":\(lngs.count - 1)},
              {"type":4,"time":0,"length":0,"begin_shape_index":\(lngs.count - 1),"end_shape_index":\(lngs.count - 1)}]}]}
            """
        }
        let json = """
            {"trip":\(trip([13.40, 13.401, 13.402], time: 20)),
             "alternates":[{"trip":\(trip([13.40, 13.4005, 13.401, 13.402], time: 26))},{"trip":\(trip([13.40, 13.402], time: 31))},
                           {"trip":\(trip([13.40, 13.402], time: 40))}]}
            """
        let route = try ValhallaImporter.route(from: Data(json.utf8))
        #expect(route.alternateRoutes?.map(\.durationSeconds) == [26, 31])
        #expect(try route.alternateRoutes.map { try EncodedPolyline.decode($0[0].encodedPolyline).count } == 4)
        #expect(route.roadFeatures == nil)
        _ = try route.validate()
    }
}
