import Basemap
import Foundation
import Geo
import Navigation
import Raster
import Render
import Styling
import Testing
import TripModel

/// A made-up 1 km drive north in Lisbon: a right turn at 500 m onto Rua Augusta, a 50 km/h
/// limit, 10 m/s; optional alternates and road features.
enum LisbonRoute {
    static let origin = LatLng(latitude: 38.70, longitude: -9.14)

    static func point(_ k: Int) -> LatLng {
        LatLng(latitude: origin.latitude + Double(k) * 25 / 111_195, longitude: origin.longitude)
    }

    static func make(alternates: Int = 0, features: [RoadFeature]? = nil, limitKph: Double? = 50) -> NavRoute {
        let points = (0...40).map(point)
        let encoded = EncodedPolyline.encode(points)
        let decoded = (try? EncodedPolyline.decode(encoded)) ?? points
        let lengths = (0..<40).map { Earth.distance(decoded[$0], decoded[$0 + 1]) }
        let steps = [
            StepInfo(stepNumber: 0, maneuver: .depart, simpleRoadName: "Rua do Ouro", polylineStartIndex: 0, polylineEndIndex: 0),
            StepInfo(
                stepNumber: 1, maneuver: .turnRight, simpleRoadName: "Rua Augusta", fullInstructionText: "Turn right onto Rua Augusta",
                distanceFromPrevStepMeters: 500, polylineStartIndex: 0, polylineEndIndex: 20),
            StepInfo(
                stepNumber: 2, maneuver: .destination, fullInstructionText: "Arrive at your destination",
                distanceFromPrevStepMeters: 500, polylineStartIndex: 20, polylineEndIndex: 40),
        ]
        let detours = [
            [decoded[0], LatLng(latitude: 38.7045, longitude: -9.1360), decoded[40]],
            [decoded[0], LatLng(latitude: 38.7045, longitude: -9.1440), decoded[40]],
        ]
        return NavRoute(
            encodedPolyline: encoded, steps: steps, segmentDurationsSeconds: lengths.map { $0 / 10 },
            speedLimits: limitKph.map { [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: 40, speedLimitKph: $0)] },
            destinations: [RouteDestination(location: decoded[40], polylinePointIndex: 40)], drivingSide: .right,
            alternateRoutes: alternates == 0
                ? nil
                : detours.prefix(alternates).enumerated().map {
                    AlternateRoute(encodedPolyline: EncodedPolyline.encode($0.element), durationSeconds: 100 + 120 * Double($0.offset + 1))
                },
            roadFeatures: features)
    }

    /// The screen with the vehicle 100 m along at `speed` m/s.
    static func screen(
        _ route: NavRoute = make(), settings: NavigationUISettings = NavigationUISettings(), speed: Double = 10,
        at meters: Double = 100, query: [String: String] = [:]
    ) throws -> NavigationScreen {
        let (navigator, vehicle) = try NavigationFixtures.drive(route, to: meters, speed: speed)
        var parameters = ["lighting": "normal"]
        parameters.merge(query) { $1 }
        return NavigationScreen(
            navInfo: navigator.navInfo, route: try NavigationRouteGeometry(route: route), vehicle: vehicle,
            settings: settings, style: try NavigationFixtures.style,
            options: try NavigationScreenOptions(parameters: parameters, now: NavigationFixtures.at))
    }
}

private func settings(_ json: String) throws -> NavigationUISettings {
    try NavigationUISettings(json: Array(json.utf8))
}

@Suite struct NavigationScreenSettingsTests {
    /// The header is filled with the configured colours: by day, at night with its own night
    /// colours, and at night without them (the day colours then).
    @Test func headerColours() throws {
        let day = try #require(Color(hex: "#7B1FA2"))
        let daySecondary = try #require(Color(hex: "#4A148C"))
        let night = try #require(Color(hex: "#102A43"))
        let nightSecondary = try #require(Color(hex: "#0B1C2C"))
        let base = """
            "navigationHeaderPrimaryBackgroundColor": "\(day.hex)", "navigationHeaderSecondaryBackgroundColor": "\(daySecondary.hex)",
            "headerAccessory": ["Gate 3"]
            """
        let cases: [(String, String, Color, Color)] = [
            ("{\(base)}", "normal", day, daySecondary),
            (
                "{\(base), \"navigationHeaderPrimaryBackgroundColorNightMode\": \"\(night.hex)\", "
                    + "\"navigationHeaderSecondaryBackgroundColorNightMode\": \"\(nightSecondary.hex)\"}",
                "lowLight", night, nightSecondary
            ),
            ("{\(base)}", "lowLight", day, daySecondary),
        ]
        for (json, lighting, primary, secondary) in cases {
            let frame = try LisbonRoute.screen(settings: settings(json), query: ["lighting": lighting]).render()
            let top = try #require(frame.layout["headerPrimary"])
            let second = try #require(frame.layout["headerSecondary"])
            #expect(frame.image.color(atPoint: top.maxX - 4, top.y + 4, scale: 1) == primary, "\(lighting)")
            #expect(frame.image.color(atPoint: second.maxX - 4, second.maxY - 4, scale: 1) == secondary, "\(lighting)")
        }
    }

    /// Disabled header and footer are neither laid out nor drawn: the map shows there.
    @Test func headerAndFooterCanBeTurnedOff() throws {
        let on = try LisbonRoute.screen().render()
        #expect(on.layout["header"] != nil && on.layout["footer"] != nil)
        let frame = try LisbonRoute.screen(settings: settings(#"{"navigationHeaderEnabled": false, "navigationFooterEnabled": false}"#))
            .render()
        #expect(frame.layout["header"] == nil && frame.layout["footer"] == nil)
        let background = try NavigationFixtures.style.map.background
        #expect(frame.image.color(atPoint: 380, 10, scale: 1) == background)
        #expect(frame.image.color(atPoint: 380, 834, scale: 1) == background)
        #expect(frame.layout["map"] == Rect(x: 0, y: 0, width: 390, height: 844))
    }

    /// The trip progress bar sits exactly where the guide says at every scale: 12 pt wide on
    /// the leading side, bottom 210 pt above the screen's bottom, top at least 170 pt below the
    /// top, at most 400 pt tall; shorter screens shorten it, too short ones leave it out, and
    /// it is absent when disabled.
    @Test(arguments: [1, 2, 3]) func progressBarGeometry(scale: Int) throws {
        let on = try settings(#"{"navigationTripProgressBarEnabled": true}"#)
        let cases: [(width: Int, height: Int, rect: Rect?)] = [
            (390, 844, Rect(x: 12, y: 234, width: 12, height: 400)),
            (390, 600, Rect(x: 12, y: 170, width: 12, height: 220)),
            (390, 480, Rect(x: 12, y: 170, width: 12, height: 100)),
            (390, 479, nil),
            (844, 390, nil),
            (840, 800, Rect(x: 348, y: 190, width: 12, height: 400)),
        ]
        for test in cases {
            let query = ["width": "\(test.width)", "height": "\(test.height)", "scale": "\(scale)"]
            let frame = try LisbonRoute.screen(settings: on, query: query).render()
            #expect(frame.layout["tripProgressBar"] == test.rect, "\(test.width)x\(test.height)@\(scale)")
            if let rect = test.rect {
                // Near its bottom the bar shows the travelled part, not the map.
                let pixel = frame.image.color(atPoint: rect.midX, rect.maxY - 3, scale: scale)
                #expect(pixel != (try NavigationFixtures.style.map.background))
            }
        }
        let off = try LisbonRoute.screen(query: ["scale": "\(scale)"]).render()
        #expect(off.layout["tripProgressBar"] == nil)
    }

    /// At 5 km/h over a 50 km/h limit the speed shows in the plain colours; at 15 over in the
    /// minor alert colours, at 25 over in the major ones (thresholds +10/+20), by day and night.
    @Test func speedometerAlertColours() throws {
        let custom = try settings(
            """
            {"shouldDisplaySpeedometer": true, "speedometerUIOptions": {"minorSpeedAlertBackgroundColor": "#FFAA00",
             "majorSpeedAlertBackgroundColor": "#CC0000", "minorSpeedAlertBackgroundColorNightMode": "#886600",
             "majorSpeedAlertBackgroundColorNightMode": "#660000"}}
            """)
        let expectations: [(over: Double, lighting: String, background: String)] = [
            (5, "normal", "#FFFFFF"), (15, "normal", "#FFAA00"), (25, "normal", "#CC0000"),
            (5, "lowLight", "#202124"), (15, "lowLight", "#886600"), (25, "lowLight", "#660000"),
        ]
        for test in expectations {
            let screen = try LisbonRoute.screen(settings: custom, speed: (50 + test.over) / 3.6, query: ["lighting": test.lighting])
            #expect(screen.navInfo.currentSpeedLimitKph == 50)
            let frame = try screen.render()
            let speed = try #require(frame.layout["currentSpeed"])
            #expect(frame.layout["speedLimit"] != nil)
            #expect(
                frame.image.color(atPoint: speed.x + 6, speed.maxY - 4, scale: 1).hex == test.background,
                "\(test.over) over, \(test.lighting)")
        }
    }

    /// Without a known limit the speedometer shows the speed alone, in plain colours however
    /// fast; no limit sign is made up.
    @Test func speedometerWithoutLimit() throws {
        let route = LisbonRoute.make(limitKph: nil)
        let frame = try LisbonRoute.screen(route, settings: settings(#"{"shouldDisplaySpeedometer": true}"#), speed: 40).render()
        let speed = try #require(frame.layout["currentSpeed"])
        #expect(frame.layout["speedLimit"] == nil)
        #expect(frame.layout["speedometer"] == speed)
        #expect(frame.image.color(atPoint: speed.x + 6, speed.maxY - 4, scale: 1) == .white)
        let off = try LisbonRoute.screen(route, speed: 40).render()
        #expect(off.layout["speedometer"] == nil)
    }

    /// Buttons appear as settings and camera call for them: compass when enabled and the map
    /// follows or is turned; my-location when enabled; recenter when enabled and the camera
    /// does not follow.
    @Test func buttonsPerSettingAndCamera() throws {
        let all = try settings(#"{"compassButton": true, "myLocationButton": true}"#)
        let none = try settings(#"{"compassButton": false, "myLocationButton": false, "recenterButtonEnabled": false}"#)
        let cases: [(NavigationUISettings, [String: String], Set<String>)] = [
            (NavigationUISettings(), [:], []),
            (NavigationUISettings(), ["camera": "overview"], ["recenterButton"]),
            (all, [:], ["compassButton", "myLocationButton"]),
            (all, ["camera": "free"], ["myLocationButton", "recenterButton"]),
            (all, ["camera": "free", "bearing": "30"], ["compassButton", "myLocationButton", "recenterButton"]),
            (all, ["camera": "overview"], ["myLocationButton", "recenterButton"]),
            (none, ["camera": "free", "bearing": "30"], []),
        ]
        for (settings, query, expected) in cases {
            let layout = try LisbonRoute.screen(settings: settings, query: query).layout()
            let shown = Set(["compassButton", "myLocationButton", "recenterButton"].filter { layout[$0] != nil })
            #expect(shown == expected, "\(query)")
        }
        let frame = try LisbonRoute.screen(settings: all, query: ["camera": "free"]).render()
        let button = try #require(frame.layout["myLocationButton"])
        #expect(frame.image.color(atPoint: button.midX, button.midY, scale: 1).hex == "#1A73E8", "the button's blue dot")
    }

    /// Alternates follow the strategy: both, the first, or none, each with its time difference.
    @Test func alternatesPerStrategy() throws {
        let route = LisbonRoute.make(alternates: 2)
        let expected: [(String, [String])] = [
            ("all", ["alternateRouteLabel0", "alternateRouteLabel1"]),
            ("one", ["alternateRouteLabel0"]), ("none", []),
        ]
        var counts: [Int] = []
        for (strategy, labels) in expected {
            let screen = try LisbonRoute.screen(
                route, settings: settings(#"{"alternateRoutesStrategy": "\#(strategy)"}"#),
                query: ["camera": "overview"])
            let frame = try screen.render()
            #expect(frame.layout.rects.map(\.name).filter { $0.hasPrefix("alternateRouteLabel") } == labels, "\(strategy)")
            var drawn = 0
            for y in 0..<frame.image.height { for x in 0..<frame.image.width where frame.image.color(x, y).hex == "#A8C7FA" { drawn += 1 } }
            counts.append(drawn)
        }
        #expect(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] == 0, "\(counts)")
    }

    /// Destination markers are drawn unless turned off.
    @Test func destinationMarkers() throws {
        func redPixels(_ frame: NavigationFrame) -> Int {
            var count = 0
            for y in 0..<frame.image.height { for x in 0..<frame.image.width where frame.image.color(x, y).hex == "#D93025" { count += 1 } }
            return count
        }
        let shown = try LisbonRoute.screen(query: ["camera": "overview"]).render()
        let hidden = try LisbonRoute.screen(settings: settings(#"{"showsDestinationMarkers": false}"#), query: ["camera": "overview"]).render()
        #expect(redPixels(shown) > 200)
        #expect(redPixels(hidden) == 0)
    }

    /// Traffic lights and stop signs: only when enabled, only ahead, only the next three of each.
    @Test func roadFeaturesNextThreeAhead() throws {
        let features = [2, 8, 12, 16, 20, 24].map { RoadFeature(type: .trafficLight, polylinePointIndex: $0) }
        let route = LisbonRoute.make(features: features)
        func housings(_ json: String) throws -> [Bool] {
            let screen = try LisbonRoute.screen(route, settings: settings(json), query: ["camera": "overview"])
            let frame = try screen.render()
            let c = frame.layout.camera
            let camera = Camera(
                center: LatLng(latitude: c.latitude, longitude: c.longitude), zoom: c.zoom, bearing: c.bearing,
                pixelWidth: 390, pixelHeight: 844, scale: 1)
            return features.map { feature in
                let p = camera.point(LisbonRoute.point(feature.polylinePointIndex))
                return frame.image.color(atPoint: p.x - 5.5, p.y - 15, scale: 1).hex == "#202124"
            }
        }
        // The vehicle is 100 m along (past point 2): the lights at points 8, 12 and 16 show.
        let lights = try housings(#"{"showsTrafficLights": true}"#)
        #expect(lights == [false, true, true, true, false, false], "\(lights)")
        #expect(try housings(#"{"showsStopSigns": true}"#) == [false, false, false, false, false, false])
    }

    /// The night screen is darker than the day one.
    @Test func nightIsDarker() throws {
        let day = try LisbonRoute.screen(query: ["lighting": "normal"]).render()
        let night = try LisbonRoute.screen(query: ["lighting": "lowLight"]).render()
        #expect(night.layout.lighting == "lowLight" && day.layout.lighting == "normal")
        #expect(night.image.meanLuminance < day.image.meanLuminance - 60, "\(night.image.meanLuminance) vs \(day.image.meanLuminance)")
    }

    /// Stopped without arriving: no header, no footer, no speedometer; rerouting says so.
    @Test func states() throws {
        let route = LisbonRoute.make()
        var screen = try LisbonRoute.screen(route, settings: settings(#"{"shouldDisplaySpeedometer": true}"#))
        screen.navInfo = NavInfo(navState: .stopped)
        let stopped = try screen.layout()
        #expect(stopped["header"] == nil && stopped["footer"] == nil && stopped["speedometer"] == nil)
        screen.arrived = true
        #expect(try screen.layout()["header"] != nil, "the arrival is announced")
        #expect(try screen.layout()["footer"] == nil)
    }
}

@Suite struct NavigationScreenOptionsTests {
    /// Bad query values are refused naming the parameter; good ones parse.
    @Test func parsing() throws {
        let now = NavigationFixtures.at
        let defaults = try NavigationScreenOptions(parameters: [:], now: now)
        #expect(defaults.width == 390 && defaults.height == 844 && defaults.scale == 1 && defaults.camera == .following)
        let full = try NavigationScreenOptions(
            parameters: [
                "width": "844", "height": "390", "scale": "3", "camera": "free", "center": "38.7,-9.14", "zoom": "15.5", "bearing": "-45",
                "perspective": "topDownNorthUp", "lighting": "lowLight", "at": "2025-06-04T08:00:00Z", "tz": "Europe/Lisbon", "units": "imperial",
            ], now: now)
        #expect(full.isLandscape && full.pixelWidth == 2532)
        #expect(full.camera == .free(center: LatLng(latitude: 38.7, longitude: -9.14), zoom: 15.5, bearing: -45))
        #expect(full.timeZone.identifier == "Europe/Lisbon" && full.units == .imperial && full.lighting == .lowLight)
        let refusals: [([String: String], String)] = [
            (["width": "1000", "scale": "3"], "width: 1000 points at scale 3 is 3000 pixels; at most 2560 are drawn"),
            (["scale": "4"], "scale: '4' is not an integer from 1 to 3"),
            (["height": "50"], "height: '50' is not an integer from 120 to 2560"),
            (["camera": "orbit"], "camera: 'orbit' is not one of following, free, overview"),
            (["zoom": "12"], "zoom: applies to camera=free only"),
            (["camera": "free", "center": "91,0"], "center: '91,0' is not LAT,LNG in degrees (|LAT| ≤ 85.05112877980659)"),
            (["lighting": "dusk"], "lighting: 'dusk' is not one of auto, normal, lowLight"),
            (["tz": "Mars/Olympus"], "tz: 'Mars/Olympus' is not a time zone name such as Europe/Berlin or America/New_York"),
            (["at": "yesterday"], "at: 'yesterday' is not an RFC 3339 time"),
            (["units": "furlongs"], "units: 'furlongs' is not one of metric, imperial"),
        ]
        for (query, message) in refusals {
            #expect(throws: StatusError.invalid("", message)) { try NavigationScreenOptions(parameters: query, now: now) }
        }
    }

    /// Distances, durations and clock times read as a driver expects, in both unit systems.
    @Test func text() throws {
        #expect(NavigationText.distanceText(0, units: .metric) == "0 m")
        #expect(NavigationText.distanceText(37, units: .metric) == "40 m")
        #expect(NavigationText.distanceText(262, units: .metric) == "250 m")
        #expect(NavigationText.distanceText(980, units: .metric) == "1.0 km")
        #expect(NavigationText.distanceText(12_345, units: .metric) == "12 km")
        #expect(NavigationText.distanceText(13_444_000, units: .metric) == "13,444 km")
        #expect(NavigationText.distanceText(152, units: .imperial) == "500 ft")
        #expect(NavigationText.distanceText(1_000, units: .imperial) == "0.6 mi")
        #expect(NavigationText.distanceText(50_000, units: .imperial) == "31 mi")
        #expect(NavigationText.duration(20) == "1 min")
        #expect(NavigationText.duration(3_900) == "1 hr 5 min")
        #expect(NavigationText.duration(180_000) == "2 d 2 hr")
        let at = try #require(Timestamp(rfc3339: "2025-06-04T13:50:00Z"))
        let lisbon = try #require(TimeZone(identifier: "Europe/Lisbon"))
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(NavigationText.clock(at, plus: 720, zone: lisbon, units: .metric) == "15:02")
        #expect(NavigationText.clock(at, plus: 720, zone: newYork, units: .imperial) == "10:02 AM")
        #expect(NavigationText.speedLimit(kph: 90, units: .imperial) == 55)
        #expect(NavigationText.difference(seconds: 250) == "+4 min")
        #expect(NavigationText.difference(seconds: -130) == "2 min faster")
    }

    /// layout.json names every rectangle in drawing order, with the size and camera.
    @Test func layoutJSON() throws {
        let screen = try LisbonRoute.screen(settings: settings(#"{"navigationTripProgressBarEnabled": true, "shouldDisplaySpeedometer": true}"#))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(screen.layout())) as? [String: Any])
        #expect(json["width"] as? Int == 390 && json["height"] as? Int == 844 && json["orientation"] as? String == "portrait")
        let rects = try #require(json["rects"] as? [String: [String: Double]])
        #expect(
            Set(rects.keys) == [
                "map", "tripProgressBar", "speedometer", "currentSpeed", "speedLimit", "header", "headerPrimary",
                "footer",
            ])
        #expect(rects["tripProgressBar"] == ["x": 12, "y": 234, "width": 12, "height": 400])
        #expect(rects["header"] == ["x": 0, "y": 0, "width": 390, "height": 108])
        let camera = try #require(json["camera"] as? [String: Any])
        #expect(camera["mode"] as? String == "following")
        #expect((camera["zoom"] as? Double).map { $0 > 14 && $0 <= 17 } == true)
    }
}

/// A map underlay that paints the whole canvas one colour and remembers what it was given.
private final class PaintUnderlay: MapUnderlay, @unchecked Sendable {
    let color: Color
    private(set) var calls: [(camera: Camera, visibleArea: Rect, keepOut: [Rect], lighting: LightingMode)] = []
    private(set) var attributions = 0

    init(color: Color) { self.color = color }

    func draw(
        on canvas: inout Canvas, camera: Camera, visibleArea: Rect, keepOut: [LabelObstacle], lighting: LightingMode
    ) throws(RasterError) -> [Rect] {
        let boxes = keepOut.compactMap {
            if case .box(let box) = $0 { Rect(x: box.x, y: box.y, width: box.width, height: box.height) } else { nil }
        }
        calls.append((camera, visibleArea, boxes, lighting))
        canvas.clear(to: color)
        return []
    }

    func drawAttribution(on canvas: inout Canvas, camera: Camera, visibleArea: Rect, lighting: LightingMode) {
        attributions += 1
    }
}

@Suite struct NavigationScreenSeamTests {
    /// The underlay draws the map first, into the band of rows the opaque header and footer
    /// leave free (the footer's rounded corners included), with the screen's camera cropped to
    /// that band and the device-pixel rectangles its elements cover; the route, the vehicle
    /// and the panels come on top.
    @Test func underlayDrawsTheMap() throws {
        let underlay = PaintUnderlay(color: Color(red: 0x33, green: 0x66, blue: 0x99))
        var screen = try LisbonRoute.screen(query: ["scale": "2"])
        screen.underlay = underlay
        let frame = try screen.render()
        let call = try #require(underlay.calls.first)
        #expect(underlay.calls.count == 1)
        let header = try #require(frame.layout["header"])
        let footer = try #require(frame.layout["footer"])
        let top = header.maxY * 2
        let bottom = (footer.y + 16) * 2
        #expect(call.camera.pixelWidth == 780 && Double(call.camera.pixelHeight) == bottom - top)
        #expect(call.camera.zoom == frame.layout.camera.zoom && call.camera.bearing == frame.layout.camera.bearing)
        // Everything lands on the pixel it has in the whole screen, moved up by the band's top.
        let whole = Camera(
            center: LatLng(latitude: frame.layout.camera.latitude, longitude: frame.layout.camera.longitude),
            zoom: frame.layout.camera.zoom, bearing: frame.layout.camera.bearing, pixelWidth: 780, pixelHeight: 1688, scale: 2)
        for location in [LisbonRoute.point(0), LisbonRoute.point(7), LisbonRoute.point(40)] {
            let inBand = call.camera.point(location)
            let onScreen = whole.point(location)
            #expect(abs(inBand.x - onScreen.x) < 1e-6 && abs(inBand.y + top - onScreen.y) < 1e-6)
        }
        func inBand(_ rect: Rect) -> Rect {
            let device = rect.scaled(by: 2)
            return Rect(x: device.x, y: device.y - top, width: device.width, height: device.height)
        }
        #expect(call.keepOut.contains(inBand(header)))
        #expect(call.lighting == LightingMode.normal)
        let map = try #require(frame.layout["map"])
        // The map's own rectangle is where street names go (no keep-out) and where the
        // attribution stays visible.
        #expect(!call.keepOut.contains(inBand(map)))
        #expect(call.visibleArea == inBand(map))
        #expect(frame.image.color(atPoint: map.x + 8, map.y + 0.5, scale: 2).hex == "#336699")
        #expect(frame.image.color(atPoint: footer.x + 1, footer.y + 1, scale: 2).hex == "#336699", "beside the footer's corner")
        #expect(frame.image.color(atPoint: header.maxX - 4, header.y + 4, scale: 2) == NavigationUISettings.defaultPrimaryBackground)
    }

    /// Under a see-through header, or without a footer, the map is drawn there too.
    @Test func underlayShowsThroughWhatIsNotOpaque() throws {
        let paint = Color(red: 0x33, green: 0x66, blue: 0x99)
        let seeThrough = try settings(##"{"navigationHeaderPrimaryBackgroundColor": "#1A73E880", "navigationFooterEnabled": false}"##)
        let underlay = PaintUnderlay(color: paint)
        var screen = try LisbonRoute.screen(settings: seeThrough, query: ["scale": "2"])
        screen.underlay = underlay
        let frame = try screen.render()
        let call = try #require(underlay.calls.first)
        #expect(call.camera.pixelWidth == 780 && call.camera.pixelHeight == 1688)
        #expect(frame.layout["footer"] == nil)
        let header = try #require(frame.layout["header"])
        let blended = frame.image.color(atPoint: header.maxX - 4, header.y + 4, scale: 2)
        #expect(blended != paint && blended.hex != "#1A73E8", "the header's colour over the map")
        #expect(frame.image.color(atPoint: 8, 840, scale: 2) == paint)
    }

    /// The digest changes with what is drawn and only with it.
    @Test func fingerprints() throws {
        let screen = try LisbonRoute.screen()
        #expect(screen.fingerprint == (try LisbonRoute.screen()).fingerprint)
        var moved = screen
        moved.navInfo.distanceToCurrentStepMeters += 10
        var night = screen
        night.options.lighting = .lowLight
        var styled = screen
        styled.settings.compassButton = true
        var stepsChanged = screen
        stepsChanged.navInfo = stepsChanged.navInfo.limitingRemainingSteps(to: 0)
        #expect(Set([screen, moved, night, styled].map(\.fingerprint.value)).count == 4)
        #expect(stepsChanged.fingerprint != screen.fingerprint, "the step after next is drawn (\"Then\")")
        let options = try TurnCardOptions(parameters: [:], now: NavigationFixtures.at)
        let card = TurnCard(navInfo: screen.navInfo, options: options)
        var later = card
        later.options.at = later.options.at.adding(seconds: 60)
        #expect(card.fingerprint == TurnCard(navInfo: screen.navInfo, options: options).fingerprint)
        #expect(card.fingerprint != later.fingerprint)
    }

    /// The clock counts only as the arrival time drawn: a second later within the same
    /// arrival minute is the same picture, the next minute another.
    @Test func fingerprintsFollowTheArrivalMinute() throws {
        var screen = try LisbonRoute.screen()
        // Arrival at 12:00:30 (timeToNextDestination after `at`), shown as 12:00.
        screen.options.at = Timestamp(secondsSince1970: Double(1_750_000_000 / 60 * 60))
            .adding(seconds: 30 - screen.navInfo.timeToNextDestinationSeconds)
        var sameMinute = screen
        sameMinute.options.at = screen.options.at.adding(seconds: 20)
        var nextMinute = screen
        nextMinute.options.at = screen.options.at.adding(seconds: 40)
        #expect(sameMinute.fingerprint == screen.fingerprint)
        #expect(nextMinute.fingerprint != screen.fingerprint)
        let card = TurnCard(navInfo: screen.navInfo, options: try TurnCardOptions(parameters: [:], now: screen.options.at))
        var cardSameMinute = card
        cardSameMinute.options.at = sameMinute.options.at
        var cardNextMinute = card
        cardNextMinute.options.at = nextMinute.options.at
        #expect(cardSameMinute.fingerprint == card.fingerprint && cardNextMinute.fingerprint != card.fingerprint)
    }
}

@Suite struct RouteTrafficTests {
    /// Traffic from the route's durations takes the navigator's delay classes per segment;
    /// given intervals are cut to the route, and uncovered segments have no data.
    @Test func estimatedAndGiven() throws {
        var route = LisbonRoute.make()
        let traffic = try #require(route.segmentDurationsSeconds)
        route.freeFlowSegmentDurationsSeconds = traffic.enumerated().map { index, seconds in
            switch index {
            case 0..<10: seconds // as free flow: normal
            case 10..<20: seconds / 1.3 // 1.3 × free flow: slow
            case 20..<30: seconds / 2 // twice: jammed
            default: 0 // no free-flow time: no data
            }
        }
        let estimated = try #require(RouteTraffic(estimatedFrom: route))
        #expect(estimated.speeds[0] == .normal && estimated.speeds[15] == .slow && estimated.speeds[25] == .trafficJam)
        #expect(estimated.speeds[35] == .noData)
        #expect(RouteTraffic(estimatedFrom: LisbonRoute.make()) == nil, "no free-flow durations, no estimate")
        let given = RouteTraffic(
            segmentCount: 40,
            intervals: [
                SpeedReadingInterval(startPolylinePointIndex: 5, endPolylinePointIndex: 8, speed: .slow),
                SpeedReadingInterval(startPolylinePointIndex: 38, endPolylinePointIndex: 90, speed: .trafficJam),
            ])
        #expect(given.speeds.count == 40)
        #expect(given.speeds[4] == .noData && given.speeds[5] == .slow && given.speeds[7] == .slow && given.speeds[8] == .noData)
        #expect(given.speeds[39] == .trafficJam)
    }
}
