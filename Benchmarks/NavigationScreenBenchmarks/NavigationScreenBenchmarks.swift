// The driver's screen and the turn-by-turn card: navigation.png at 390×844 points, scale 2
// (a phone), drawn and encoded, without a basemap on the real 80,000-point OSRM Portugal–Korea
// route (following a vehicle in Russia with every element on, and the whole remaining route
// in overview), and over the basemap (data-samples/helsinki.pmtiles, its tiles decoded once,
// as a server's are) following a vehicle along the Helsinki demo route; card.png at 240×240
// in colour and 128×64 in mono. The route geometry is prepared once, as a server keeps it per
// route version. Targets (issue 15, quiet machine): navigation.png draw + PNG < 15 ms without
// a basemap, < 30 ms with it; card.png 240×240 < 2 ms.

import Benchmark
import Foundation
import Geo
import Navigation
import Raster
import Render
import Styling
import TripModel

private let projectRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let sharedFixtures = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

/// A navigator on the route just past `meters`, and the vehicle as it was reported.
private func drive(_ route: NavRoute, to meters: Double) throws -> (NavInfo, VehiclePosition)? {
    guard let line = PolylineMeasure(try route.validate()) else { return nil }
    var navigator = Navigator()
    let start = Date(timeIntervalSince1970: 1_749_000_000)
    _ = try navigator.setRoute(route, at: start)
    var vehicle: VehiclePosition?
    for k in 0..<2 {
        let location = line.point(atDistance: meters - Double(1 - k) * 40)
        for case .didUpdateLocation(let snapped) in navigator.update(
            location: location, heading: nil, speedMetersPerSecond: 20, accuracyMeters: 5, time: start + Double(k) * 2)
        {
            vehicle = VehiclePosition(location: snapped.location, heading: snapped.heading, speedMetersPerSecond: 20)
        }
    }
    return vehicle.map { (navigator.navInfo, $0) }
}

private func screens() -> [(name: String, screen: NavigationScreen)] {
    do {
        let data = try Data(contentsOf: sharedFixtures.appendingPathComponent("osrm/portugal_to_korea.json"))
        var route = try OSRMImporter.route(from: data)
        let count = try route.validate().count
        route.speedLimits = [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: count - 1, speedLimitKph: 60)]
        let geometry = try NavigationRouteGeometry(route: route)
        guard let (info, vehicle) = try drive(route, to: 8_600_000) else { return [] }
        let settings = try NavigationUISettings(
            json: Array(
                """
                {"shouldDisplaySpeedometer": true, "navigationTripProgressBarEnabled": true, "compassButton": true,
                 "myLocationButton": true}
                """.utf8))
        let style = try StyleLibrary.bundled().defaultStyle
        let at = Timestamp(Date(timeIntervalSince1970: 1_749_000_000))
        func screen(_ query: [String: String]) throws -> NavigationScreen {
            NavigationScreen(
                navInfo: info, route: geometry, vehicle: vehicle, settings: settings, style: style,
                options: try NavigationScreenOptions(parameters: query, now: at))
        }
        return [
            ("navigation.png 390x844@2 following", try screen(["scale": "2", "lighting": "normal"])),
            ("navigation.png 390x844@2 overview", try screen(["scale": "2", "lighting": "normal", "camera": "overview"])),
        ]
    } catch {
        print("cannot prepare the screens: \(error)")
        return []
    }
}

/// Following a vehicle 40% along the Helsinki demo route, over the demo's basemap (day).
private func helsinkiScreen() -> NavigationScreen? {
    do {
        let samples = projectRoot.appendingPathComponent("data-samples")
        let data = try Data(contentsOf: samples.appendingPathComponent("helsinki-demo-route.osrm.json"))
        let route = try OSRMImporter.route(from: data)
        let geometry = try NavigationRouteGeometry(route: route)
        guard let (info, vehicle) = try drive(route, to: geometry.totalMeters * 0.4) else { return nil }
        let style = try StyleLibrary.bundled().defaultStyle
        let layer = try BasemapLayer.open(path: samples.appendingPathComponent("helsinki.pmtiles").path)
        let at = Timestamp(Date(timeIntervalSince1970: 1_749_000_000))
        return NavigationScreen(
            navInfo: info, route: geometry, vehicle: vehicle, style: style,
            options: try NavigationScreenOptions(parameters: ["scale": "2", "lighting": "normal"], now: at),
            underlay: layer.underlay(for: style))
    } catch {
        print("cannot prepare the Helsinki screen: \(error)")
        return nil
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 500
    )

    let prepared = screens()
    for (name, screen) in prepared {
        Benchmark("\(name): draw + PNG") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try screen.png()) }
        }
        Benchmark("\(name): draw") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try screen.render()) }
        }
    }

    if let helsinki = helsinkiScreen() {
        Benchmark("navigation.png 390x844@2 following, basemap warm: draw + PNG") { benchmark in
            blackHole(try helsinki.png())
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try helsinki.png()) }
        }
        Benchmark("navigation.png 390x844@2 following, basemap warm: draw") { benchmark in
            blackHole(try helsinki.render())
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try helsinki.render()) }
        }
    }

    guard let screen = prepared.first?.screen else { return }
    let at = screen.options.at
    for (name, query) in [
        ("card.png 240x240", ["size": "240x240", "lighting": "normal"]),
        ("card.png 128x64 mono", ["size": "128x64", "palette": "mono"]),
    ] {
        guard let options = try? TurnCardOptions(parameters: query, now: at) else { continue }
        let card = TurnCard(navInfo: screen.navInfo, options: options)
        Benchmark("\(name): draw + PNG") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try card.png()) }
        }
    }
}
