// Shared set-up for the navigation screen and card tests: the real routes of ../shared
// (imported by our importers), a navigator placed anywhere along a route by two location
// updates (the first is searched for on the whole route, the second confirms it), and golden
// comparison for frames (exact outside text, tolerant inside, recording only on request).

import Foundation
import Geo
import Navigation
import Raster
import RasterTesting
import Render
import Styling
import Testing
import TripModel

enum NavigationFixtures {
    static let sharedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static let start = Date(timeIntervalSince1970: 1_749_000_000) // 2025-06-04T01:20:00Z
    static let at = Timestamp(start)

    /// The OSRM Portugal–Korea route (it starts in Korea).
    static let portugalKorea: NavRoute? = try? OSRMImporter.route(
        from: Data(contentsOf: sharedFixtures.appendingPathComponent("osrm/portugal_to_korea.json")))
    /// The Valhalla Berlin route.
    static let berlin: NavRoute? = try? ValhallaImporter.route(
        from: Data(contentsOf: sharedFixtures.appendingPathComponent("valhalla/route.json")))

    static func route(_ route: NavRoute?) throws -> NavRoute {
        try #require(route, "the shared fixtures (../shared/fixtures) are needed")
    }

    /// A navigator on `route` that has just passed `meters` along it at `speed` m/s, with
    /// the vehicle's position as its last update reported it; with `offRouteMeters`, its last
    /// three updates are that far off the route, north of it (east with `offRouteEast`).
    static func drive(
        _ route: NavRoute, to meters: Double, speed: Double = 13, offRouteMeters: Double = 0, offRouteEast: Bool = false,
        settings: NavigatorSettings = NavigatorSettings()
    ) throws -> (navigator: Navigator, vehicle: VehiclePosition) {
        let line = try #require(PolylineMeasure(try route.validate()))
        var navigator = Navigator(settings: settings)
        _ = try navigator.setRoute(route, at: start)
        var vehicle = VehiclePosition(location: line.points[0])
        let times = offRouteMeters > 0 ? 5 : 2
        for k in 0..<times {
            let along = max(0, min(line.totalMeters, meters - Double(times - 1 - k) * speed * 2))
            let ahead = line.point(atDistance: min(line.totalMeters, along + 5))
            var location = line.point(atDistance: along)
            let heading = Earth.initialBearing(from: location, to: ahead)
            if offRouteMeters > 0, k >= 2 {
                location =
                    offRouteEast
                    ? LatLng(
                        latitude: location.latitude,
                        longitude: location.longitude + offRouteMeters / 111_195 / cos(location.latitude * .pi / 180))
                    : LatLng(latitude: location.latitude + offRouteMeters / 111_195, longitude: location.longitude)
            }
            let time = start.addingTimeInterval(Double(k) * 2)
            for event in navigator.update(location: location, heading: heading, speedMetersPerSecond: speed, accuracyMeters: 5, time: time) {
                if case .didUpdateLocation(let snapped) = event {
                    vehicle = VehiclePosition(location: snapped.location, heading: snapped.heading, speedMetersPerSecond: speed)
                }
            }
        }
        return (navigator, vehicle)
    }

    /// Metres from the start to a step's maneuver.
    static func meters(toStep index: Int, of route: NavRoute) throws -> Double {
        let line = try #require(PolylineMeasure(try route.validate()))
        return line.cumulativeMeters[route.steps[index].polylineEndIndex]
    }

    static var style: StyleSheet {
        get throws { try GoldenSupport.style("default") }
    }
}

enum FrameGoldens {
    /// Compares a frame with `goldens/navigation/NAME.png` (or records it when
    /// TRIPSHARE_RECORD_GOLDENS is set, failing so nothing is accepted unseen).
    static func check(_ frame: NavigationFrame, golden name: String, textTolerance: Int = 48) throws {
        try check(frame.image, textBoxes: frame.textBoxes, golden: "navigation/\(name)", textTolerance: textTolerance)
    }

    static func check(
        _ image: Image, textBoxes: [Rect], golden name: String, textTolerance: Int = 48,
        encoded: [UInt8]? = nil
    ) throws {
        try GoldenImage.check(
            image, golden: GoldenSupport.fixtures.appendingPathComponent("goldens/\(name).png"), tolerance: textTolerance,
            isTolerant: { x, y in textBoxes.contains { $0.contains(x: Double(x) + 0.5, y: Double(y) + 0.5) } },
            encode: { try encoded ?? PNGCodec.encode($0) })
    }
}

extension Image {
    /// The colour at a point of a screen drawn at `scale` (the pixel under the point).
    func color(atPoint x: Double, _ y: Double, scale: Int) -> Color {
        color(Int(x * Double(scale)), Int(y * Double(scale)))
    }

    /// Mean luminance (0–255) of the whole image.
    var meanLuminance: Double {
        var total = 0.0
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                let c = color(x, y)
                total += 0.2126 * Double(c.red) + 0.7152 * Double(c.green) + 0.0722 * Double(c.blue)
            }
        }
        return total / Double(((height + 1) / 2) * ((width + 1) / 2))
    }
}
