// The map layers of the navigation screen: alternates (grey, under the route, each with its
// time difference), the remaining route from the vehicle on in traffic colours with a darker
// casing, the next three traffic lights and stop signs ahead, the remaining destinations, and
// the vehicle's chevron turned by its heading on the camera. They are placed first (MapMarks),
// so that the basemap's street names keep clear of them.

import Basemap
import Foundation
import Geo
import Navigation
import Raster
import Styling

/// What the screen draws on its map, placed for the camera: decided once, then both drawn and
/// handed to the basemap as the places its street names must keep clear of.
struct MapMarks {
    /// Each drawn alternate's index and device points.
    var alternates: [(index: Int, points: [Point])] = []
    /// The remaining route in runs of one traffic colour, device points.
    var routeRuns: [(points: [Point], color: Color)] = []
    /// The road features shown, at their points (points, not device pixels).
    var features: [(type: RoadFeature.Kind, at: Point)] = []
    /// The destinations still ahead: index, pin point (points), and whether it is the final one.
    var destinations: [(index: Int, at: Point, final: Bool)] = []
    /// The vehicle's chevron: where (points) and its turn on screen.
    var vehicle: (at: Point, radians: Double)?

    /// Widths of the route's casing and of an alternate's, points.
    static let routeCasingWidth = 11.0
    static let alternateCasingWidth = 9.0

    /// The lines and boxes street names keep clear of, device pixels.
    func obstacles(scale: Double) -> [LabelObstacle] {
        var result: [LabelObstacle] = alternates.map { .line($0.points, width: Self.alternateCasingWidth * scale) }
        result += routeRuns.map { .line($0.points, width: Self.routeCasingWidth * scale) }
        func box(_ rect: Rect) -> LabelObstacle { .box(rect.scaled(by: scale)) }
        for feature in features {
            let at = feature.at
            switch feature.type {
            case .trafficLight: result.append(box(Rect(x: at.x - 8.5, y: at.y - 31.5, width: 17, height: 33)))
            case .stopSign: result.append(box(Rect(x: at.x - 13, y: at.y - 27, width: 26, height: 26)))
            }
        }
        for destination in destinations {
            let at = destination.at
            result.append(
                destination.final
                    ? box(Rect(x: at.x - 13, y: at.y - 35, width: 30, height: 40))
                    : box(Rect(x: at.x - 10, y: at.y - 10, width: 22, height: 22)))
        }
        if let vehicle { result.append(box(Rect(x: vehicle.at.x - 19, y: vehicle.at.y - 19, width: 38, height: 40))) }
        return result
    }
}

extension NavigationScreen {
    /// What the map shows over the basemap, placed for the plan's camera.
    func mapMarks(_ plan: ScreenPlan, palette: NavigationPalette) -> MapMarks {
        let camera = plan.camera
        let scale = Double(options.scale)
        var marks = MapMarks()
        if let route {
            for (index, _) in plan.alternates {
                var run = RunBuilder()
                for world in route.alternates[index].worlds { run.add(camera.point(world: world)) }
                if let points = run.finish() { marks.alternates.append((index, points)) }
            }
            if let progress = progressMeters, progress < route.totalMeters {
                marks.routeRuns = remainingRouteRuns(route, from: progress, camera: camera, palette: palette)
            }
            if let progress = progressMeters ?? (route.meters.first) {
                marks.features = roadFeatures(route, ahead: progress, camera: camera)
                if settings.showsDestinationMarkers {
                    let count = route.route.destinations.count
                    for (index, destination) in route.route.destinations.enumerated() where route.destinationMeters[index] >= progress - 1 {
                        let p = camera.point(world: WebMercator.worldPoint(destination.location, zoom: 0))
                        marks.destinations.append((index, Point((p.x / scale).rounded(), (p.y / scale).rounded()), index == count - 1))
                    }
                }
            }
        }
        if let world = vehicleWorld, isGuiding || arrived || stop != nil || vehicle != nil {
            let p = camera.point(world: world)
            let turn = ((vehicleHeading ?? camera.bearing) - camera.bearing) * .pi / 180
            marks.vehicle = (Point(p.x / scale, p.y / scale), turn)
        }
        return marks
    }

    func drawMap(_ plan: ScreenPlan, marks: MapMarks, palette: NavigationPalette, on painter: inout ScreenPainter) throws(RasterError) {
        let scale = painter.scale
        for (index, points) in marks.alternates {
            painter.canvas.stroke(polyline: points, style: StrokeStyle(width: MapMarks.alternateCasingWidth * scale), color: palette.alternateCasing)
            painter.canvas.stroke(polyline: points, style: StrokeStyle(width: 6 * scale), color: palette.alternate)
            if let rect = plan.layout["alternateRouteLabel\(index)"], let label = plan.alternates.first(where: { $0.index == index })?.label {
                painter.fill(rect, palette.panel, radius: rect.height / 2)
                painter.stroke(
                    .roundedRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height, radius: rect.height / 2),
                    palette.panelOutline, width: 1)
                try painter.text(label, x: rect.x + 10, baseline: rect.y + 19, size: 14, bold: true, color: palette.panelText)
            }
        }
        for run in marks.routeRuns {
            painter.canvas.stroke(polyline: run.points, style: StrokeStyle(width: MapMarks.routeCasingWidth * scale), color: run.color.scaled(0.72))
        }
        for run in marks.routeRuns {
            painter.canvas.stroke(polyline: run.points, style: StrokeStyle(width: 7.5 * scale), color: run.color)
        }
        for feature in marks.features {
            switch feature.type {
            case .trafficLight: RoadFeatureIcons.drawTrafficLight(at: feature.at, on: &painter)
            case .stopSign: try RoadFeatureIcons.drawStopSign(at: feature.at, on: &painter)
            }
        }
        for destination in marks.destinations {
            let at = destination.at
            if destination.final {
                painter.icon(.dropoffPin, at: at, anchor: Point(13, 35), width: 30)
            } else {
                painter.icon(.stop, at: at, anchor: Point(10, 10), width: 22)
                let number = try painter.layout(String(destination.index + 1), size: 12, bold: true)
                try painter.draw(number, x: at.x - painter.width(number) / 2, baseline: at.y + 4.4, color: VectorIcon.stopNumberColor)
            }
        }
        if let vehicle = marks.vehicle { drawVehicle(at: vehicle.at, radians: vehicle.radians, palette: palette, on: &painter) }
    }

    /// The route from `meters` to its end, in runs of one traffic colour (device points), only
    /// where the camera sees it.
    private func remainingRouteRuns(
        _ route: NavigationRouteGeometry, from meters: Double, camera: Camera, palette: NavigationPalette
    ) -> [(points: [Point], color: Color)] {
        let traffic = self.traffic ?? route.estimatedTraffic
        let visible = camera.visibleWorldBox(margin: 12 * Double(options.scale))
        let start = route.position(atMeters: meters)
        var runs: [(points: [Point], color: Color)] = []
        var run = RunBuilder()
        var color: Color?
        let segmentCount = route.worlds.count - 1
        var chunk = start.segment / NavigationRouteGeometry.chunkSize
        while chunk < route.chunks.count {
            defer { chunk += 1 }
            guard route.chunks[chunk].intersects(visible) else {
                if let color, let points = run.finish() { runs.append((points, color)) }
                continue
            }
            let first = max(start.segment, chunk * NavigationRouteGeometry.chunkSize)
            let last = min(segmentCount, (chunk + 1) * NavigationRouteGeometry.chunkSize)
            for segment in first..<last {
                let segmentColor = palette.route[traffic?.speed(segment) ?? .noData]
                if segmentColor != color, let color, let points = run.finish() {
                    runs.append((points, color))
                    // The next run starts where this one ended, so the line has no gap.
                    if let end = points.last { run.add(end) }
                }
                color = segmentColor
                if run.isEmpty {
                    run.add(camera.point(world: segment == start.segment ? route.world(atMeters: meters) : route.worlds[segment]))
                }
                run.add(camera.point(world: route.worlds[segment + 1]))
            }
        }
        if let color, let points = run.finish() { runs.append((points, color)) }
        return runs
    }

    /// The next three traffic lights and the next three stop signs ahead, as the settings ask
    /// (points).
    private func roadFeatures(_ route: NavigationRouteGeometry, ahead meters: Double, camera: Camera) -> [(type: RoadFeature.Kind, at: Point)] {
        guard settings.showsTrafficLights || settings.showsStopSigns, isGuiding, let features = route.route.roadFeatures else { return [] }
        var shown: [(type: RoadFeature.Kind, at: Point)] = []
        var lights = 0
        var signs = 0
        let scale = Double(options.scale)
        for feature in features where route.meters[feature.polylinePointIndex] > meters {
            switch feature.type {
            case .trafficLight:
                guard settings.showsTrafficLights, lights < 3 else { continue }
                lights += 1
            case .stopSign:
                guard settings.showsStopSigns, signs < 3 else { continue }
                signs += 1
            }
            let p = camera.point(world: route.worlds[feature.polylinePointIndex])
            shown.append((feature.type, Point(p.x / scale, p.y / scale)))
            if lights >= 3 || !settings.showsTrafficLights, signs >= 3 || !settings.showsStopSigns { break }
        }
        return shown
    }

    /// The navigation chevron: a white-rimmed arrow in the accent colour, on a soft shadow.
    private func drawVehicle(at point: Point, radians: Double, palette: NavigationPalette, on painter: inout ScreenPainter) {
        let turn = Transform.rotation(radians: radians).translatedBy(x: point.x, y: point.y)
        painter.fill(.circle(center: Point(0, 1.5), radius: 17), .rgb(0x000000, alpha: 0x30), transform: turn)
        let chevron = Path.polygon([Point(0, -16), Point(12, 12), Point(0, 6), Point(-12, 12)])
        painter.stroke(chevron, .white, width: 5, transform: turn)
        painter.fill(chevron, palette.accent, transform: turn)
    }
}

/// Small map symbols for road features, in points around their location.
enum RoadFeatureIcons {
    /// A signal head: three lamps in a dark housing, standing above its point.
    static func drawTrafficLight(at p: Point, on painter: inout ScreenPainter) {
        let housing = Rect(x: p.x - 7, y: p.y - 30, width: 14, height: 30)
        painter.fill(
            Rect(x: housing.x - 1.5, y: housing.y - 1.5, width: housing.width + 3, height: housing.height + 3), .white,
            radius: 5)
        painter.fill(housing, .rgb(0x202124), radius: 4)
        for (k, color) in [Color.rgb(0xEA4335), .rgb(0xFBBC04), .rgb(0x34A853)].enumerated() {
            painter.fill(.circle(center: Point(p.x, housing.y + 5.5 + Double(k) * 9.5), radius: 3.6), color)
        }
    }

    /// A stop sign: a red octagon with a white rim and "STOP", centred above its point.
    static func drawStopSign(at p: Point, on painter: inout ScreenPainter) throws(RasterError) {
        let center = Point(p.x, p.y - 14)
        func octagon(_ radius: Double) -> Path {
            .polygon(
                (0..<8).map { k in
                    let angle = (Double(k) + 0.5) * .pi / 4
                    return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
                })
        }
        painter.fill(octagon(13), .white)
        painter.fill(octagon(11.2), .rgb(0xD93025))
        let text = try painter.layout("STOP", size: 6.5, bold: true)
        try painter.draw(text, x: center.x - painter.width(text) / 2, baseline: center.y + 2.4, color: .white)
    }
}

/// Collects a polyline's device points, leaving out points within a device pixel of the last
/// one kept (under lines 15 or more pixels wide they change nothing visible, and a long route
/// in overview has tens of thousands of them) but always keeping the true end.
struct RunBuilder {
    private var points: [Point] = []
    private var pendingEnd: Point?

    var isEmpty: Bool { points.isEmpty }

    mutating func add(_ p: Point) {
        if let last = points.last {
            let dx = p.x - last.x
            let dy = p.y - last.y
            if dx * dx + dy * dy < 1 {
                pendingEnd = p
                return
            }
        }
        points.append(p)
        pendingEnd = nil
    }

    /// The points (nil for fewer than two), and an empty builder.
    mutating func finish() -> [Point]? {
        if let pendingEnd { points.append(pendingEnd) }
        defer {
            points = []
            pendingEnd = nil
        }
        return points.count >= 2 ? points : nil
    }
}
