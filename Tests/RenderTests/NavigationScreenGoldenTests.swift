import Foundation
import Geo
import Navigation
import Raster
import Render
import Styling
import Testing
import TripModel

/// Golden driver's screens along the real OSRM Portugal–Korea and Valhalla Berlin routes,
/// each looked at when recorded (TRIPSHARE_RECORD_GOLDENS=1).
@Suite struct NavigationScreenGoldenTests {
    private func screen(
        _ route: NavRoute, at meters: Double, speed: Double = 13, offRoute: Double = 0, offRouteEast: Bool = false,
        settings: NavigationUISettings = NavigationUISettings(), traffic: RouteTraffic? = nil,
        query: [String: String] = [:]
    ) throws -> NavigationScreen {
        let (navigator, vehicle) = try NavigationFixtures.drive(
            route, to: meters, speed: speed, offRouteMeters: offRoute,
            offRouteEast: offRouteEast)
        let options = try NavigationScreenOptions(parameters: query, now: NavigationFixtures.at)
        let finalIndex = route.destinations.count - 1
        return NavigationScreen(
            navInfo: navigator.navInfo, route: try NavigationRouteGeometry(route: route), traffic: traffic, vehicle: vehicle,
            arrived: navigator.arrivedDestinationIndex == finalIndex, settings: settings, style: try NavigationFixtures.style,
            options: options)
    }

    /// Traffic on the Portugal–Korea route a little ahead of `meters`: a slow stretch, then a jam.
    private func traffic(_ route: NavRoute, ahead meters: Double) throws -> RouteTraffic {
        let points = try route.validate()
        let line = try #require(PolylineMeasure(points))
        let index = Int(line.vertexIndex(atDistance: meters + 150))
        let slowEnd = Int(line.vertexIndex(atDistance: meters + 600))
        let jamEnd = Int(line.vertexIndex(atDistance: meters + 1_000))
        return RouteTraffic(
            segmentCount: points.count - 1,
            intervals: [
                SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: index, speed: .normal),
                SpeedReadingInterval(startPolylinePointIndex: index, endPolylinePointIndex: max(index + 1, slowEnd), speed: .slow),
                SpeedReadingInterval(
                    startPolylinePointIndex: max(index + 1, slowEnd), endPolylinePointIndex: max(index + 2, jamEnd),
                    speed: .trafficJam),
                SpeedReadingInterval(startPolylinePointIndex: max(index + 2, jamEnd), endPolylinePointIndex: points.count - 1, speed: .normal),
            ])
    }

    /// A left turn in Russia, by day, portrait, with traffic ahead, at scale 2.
    @Test func osrmTurn() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let meters = try NavigationFixtures.meters(toStep: 270, of: route) - 380
        let screen = try screen(route, at: meters, traffic: traffic(route, ahead: meters), query: ["scale": "2", "lighting": "normal"])
        #expect(screen.navInfo.currentStep?.stepNumber == 270)
        try FrameGoldens.check(try screen.render(), golden: "osrm-turn")
    }

    /// A roundabout with its exit number, at night, landscape.
    @Test func osrmRoundaboutNightLandscape() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let meters = try NavigationFixtures.meters(toStep: 50, of: route) - 240
        let screen = try screen(route, at: meters, query: ["width": "844", "height": "390", "lighting": "lowLight"])
        #expect(screen.navInfo.currentStep?.roundaboutTurnNumber == 1)
        try FrameGoldens.check(try screen.render(), golden: "osrm-roundabout-night-landscape")
    }

    /// Lanes at an exit toward Belarus, with a long instruction that must fit.
    @Test func osrmLanes() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let meters = try NavigationFixtures.meters(toStep: 289, of: route) - 700
        let screen = try screen(route, at: meters, speed: 30, query: ["lighting": "normal"])
        #expect(screen.navInfo.currentStep?.lanes.count == 3)
        try FrameGoldens.check(try screen.render(), golden: "osrm-lanes")
    }

    /// Rerouting after leaving the route, with the speedometer and the trip progress bar.
    @Test func osrmRerouting() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let meters = try NavigationFixtures.meters(toStep: 272, of: route) - 300
        let settings = try NavigationUISettings(json: Array(#"{"shouldDisplaySpeedometer": true, "navigationTripProgressBarEnabled": true}"#.utf8))
        let screen = try screen(route, at: meters, offRoute: 80, settings: settings, query: ["lighting": "normal"])
        #expect(screen.navInfo.navState == .rerouting)
        try FrameGoldens.check(try screen.render(), golden: "osrm-rerouting")
    }

    /// Speeding: 25 km/h over a 90 km/h limit (the route given limits), imperial units, at
    /// night, north up, with the compass and my-location buttons.
    @Test func osrmSpeedingImperialNight() throws {
        var route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let count = try route.validate().count
        route.speedLimits = [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: count - 1, speedLimitKph: 90)]
        let meters = try NavigationFixtures.meters(toStep: 287, of: route) - 5_000
        let settings = try NavigationUISettings(
            json: Array(
                #"{"shouldDisplaySpeedometer": true, "compassButton": true, "myLocationButton": true}"#.utf8))
        let screen = try screen(
            route, at: meters, speed: 115 / 3.6, settings: settings,
            query: [
                "lighting": "lowLight", "units": "imperial", "perspective": "topDownNorthUp",
                "tz": "Europe/Moscow",
            ])
        #expect(screen.navInfo.currentSpeedLimitKph == 90)
        try FrameGoldens.check(try screen.render(), golden: "osrm-speeding-imperial-night")
    }

    /// The Valhalla Berlin route at its start: turn right onto Lebuser Straße soon, "Then"
    /// the destination; free camera with the recenter button; by day.
    @Test func valhallaStart() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.berlin)
        let screen = try screen(route, at: 8, speed: 7, query: ["scale": "2", "lighting": "normal", "camera": "free", "zoom": "17.5"])
        #expect(screen.navInfo.currentStep?.maneuver == .turnRight)
        try FrameGoldens.check(try screen.render(), golden: "valhalla-start-free")
    }

    /// Arrival at the end of the Berlin route, at night, in portrait.
    @Test func valhallaArrivalNight() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.berlin)
        let total = try #require(PolylineMeasure(try route.validate())).totalMeters
        let screen = try screen(route, at: total, speed: 5, query: ["lighting": "lowLight"])
        #expect(screen.arrived)
        try FrameGoldens.check(try screen.render(), golden: "valhalla-arrival-night")
    }

    /// Arrival at the end of the Portugal–Korea route (in Portugal), by day, in landscape.
    @Test func osrmArrivalLandscape() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.portugalKorea)
        let total = try #require(PolylineMeasure(try route.validate())).totalMeters
        let screen = try screen(route, at: total, speed: 5, query: ["width": "844", "height": "390", "lighting": "normal"])
        #expect(screen.arrived)
        try FrameGoldens.check(try screen.render(), golden: "osrm-arrival-landscape")
    }

    /// Speeding on the Berlin route: 55 km/h where 30 is posted (a major alert), at night, in
    /// landscape at scale 2, with the trip progress bar (too short a screen: left out).
    @Test func valhallaSpeedingNightLandscape() throws {
        var route = try NavigationFixtures.route(NavigationFixtures.berlin)
        let count = try route.validate().count
        route.speedLimits = [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: count - 1, speedLimitKph: 30)]
        let settings = try NavigationUISettings(
            json: Array(
                #"{"shouldDisplaySpeedometer": true, "navigationTripProgressBarEnabled": true}"#.utf8))
        let screen = try screen(
            route, at: 60, speed: 55 / 3.6, settings: settings,
            query: ["width": "844", "height": "390", "scale": "2", "lighting": "lowLight", "tz": "Europe/Berlin"])
        #expect(screen.navInfo.currentSpeedLimitKph == 30)
        let frame = try screen.render()
        #expect(frame.layout["tripProgressBar"] == nil && frame.layout["speedometer"] != nil)
        try FrameGoldens.check(frame, golden: "valhalla-speeding-night-landscape")
    }

    /// Rerouting off the Berlin route, by day, in portrait, with the header's accessory lines
    /// under "Rerouting…".
    @Test func valhallaRerouting() throws {
        let route = try NavigationFixtures.route(NavigationFixtures.berlin)
        let settings = try NavigationUISettings(json: Array(#"{"headerAccessory": ["Pickup: Ana", "Gate B"]}"#.utf8))
        // The route runs north here: the vehicle strays east of it.
        let screen = try screen(route, at: 120, speed: 8, offRoute: 90, offRouteEast: true, settings: settings, query: ["lighting": "normal"])
        #expect(screen.navInfo.navState == .rerouting)
        try FrameGoldens.check(try screen.render(), golden: "valhalla-rerouting")
    }

    /// The Berlin route in landscape overview with every optional element on: alternates,
    /// traffic lights and stop signs, the accessory, by day at scale 2.
    @Test func valhallaOverviewEverything() throws {
        var route = try NavigationFixtures.route(NavigationFixtures.berlin)
        let points = try route.validate()
        let detour = [points[0], LatLng(latitude: 52.5178, longitude: 13.4356), points[points.count - 1]]
        route.alternateRoutes = [AlternateRoute(encodedPolyline: EncodedPolyline.encode(detour), durationSeconds: 130)]
        route.roadFeatures = [RoadFeature(type: .trafficLight, polylinePointIndex: 3), RoadFeature(type: .stopSign, polylinePointIndex: 18)]
        let settings = try NavigationUISettings(
            json: Array(
                #"""
                {"showsTrafficLights": true, "showsStopSigns": true, "shouldDisplaySpeedometer": true, "myLocationButton": true,
                 "headerAccessory": ["Order 4411 · Ring twice"]}
                """#.utf8))
        let screen = try screen(
            route, at: 4, speed: 7, settings: settings,
            query: ["width": "844", "height": "390", "scale": "2", "lighting": "normal", "camera": "overview"])
        try FrameGoldens.check(try screen.render(), golden: "valhalla-overview-everything")
    }
}
