// Route lines: a polyline type's path split into runs of one colour (its traffic colours per
// segment while traffic is on, else the stroke colour), projected to device pixels with
// vertices closer than a quarter pixel to the previous one dropped (they change nothing
// visible, and a 20,000-vertex route at city zoom has thousands of them).

import Geo
import Raster
import Styling

/// One polyline type ready to draw.
struct RouteLayer {
    var type: PolylineType
    var options: PolylineStyleOptions
    /// Every vertex in zoom-0 world pixels.
    var worlds: [WorldPoint]
    /// Runs of one colour: vertex index ranges (sharing their end vertices) and colours.
    var runs: [(vertices: ClosedRange<Int>, color: Color)]

    var width: Double { options.width }

    /// Vertices closer than this (device pixels) to the previous kept one are dropped.
    static let mergeDistance = 0.25

    init?(type: PolylineType, route: TripScene.Route, options: PolylineStyleOptions) {
        guard options.isVisible, options.width > 0, route.points.count >= 2 else { return nil }
        self.type = type
        self.options = options
        worlds = route.points.map { WebMercator.worldPoint($0, zoom: 0) }
        var runs: [(vertices: ClosedRange<Int>, color: Color)] = []
        var start = 0
        var color = options.trafficColor(for: route.speeds.first ?? .noData)
        for segment in 1..<max(route.speeds.count, 1) {
            let next = options.trafficColor(for: route.speeds[segment])
            if next != color {
                runs.append((start...segment, color))
                start = segment
                color = next
            }
        }
        runs.append((start...(worlds.count - 1), color))
        self.runs = runs
    }

    /// Adds one polyline operation per run.
    func draw(camera: Camera, scale: Double, into operations: inout [DisplayList.Operation]) {
        let style = StrokeStyle(width: options.width * scale, cap: .round, join: .round)
        let limit = Self.mergeDistance * Self.mergeDistance
        for run in runs {
            var points: [Point] = []
            points.reserveCapacity(run.vertices.count)
            for index in run.vertices {
                let point = camera.point(world: worlds[index])
                if let last = points.last {
                    let dx = point.x - last.x
                    let dy = point.y - last.y
                    if dx * dx + dy * dy < limit {
                        // Keep the run's true end point in place of a near neighbour.
                        if index == run.vertices.upperBound, points.count > 1 { points[points.count - 1] = point }
                        continue
                    }
                }
                points.append(point)
            }
            operations.append(.polyline(.init(points: points, color: run.color, style: style)))
        }
    }
}

extension TripPreview {
    /// The visible polyline types, in drawing order: by zIndex, the remaining route below the
    /// active one when they tie.
    func routeLayers(_ scene: TripScene) -> [RouteLayer] {
        let layers = [
            RouteLayer(type: .remainingRoute, route: scene.remainingRoute, options: style[polyline: .remainingRoute]),
            RouteLayer(type: .activeRoute, route: scene.activeRoute, options: style[polyline: .activeRoute]),
        ].compactMap { $0 }
        return layers.enumerated().sorted { ($0.element.options.zIndex, $0.offset) < ($1.element.options.zIndex, $1.offset) }.map(\.element)
    }
}
