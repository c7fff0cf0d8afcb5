// A route made ready to draw on every frame: its points decoded once, in world pixels, with
// cumulative metres, and bounding boxes over runs of 64 segments so a frame projects only the
// runs the camera sees (a 13,000 km route has 80,000 points; a city view shows a few dozen).
// Build it once per route version and share it between frames and requests.

import Geo
import Navigation

/// A validated route with the tables the navigation screen draws from.
public struct NavigationRouteGeometry: Sendable {
    /// The route.
    public let route: NavRoute
    /// Its points.
    let points: [LatLng]
    /// Its points in zoom-0 world pixels.
    let worlds: [WorldPoint]
    /// Metres from the start to each point.
    let meters: [Double]
    /// World-pixel bounds of segments `k·chunkSize ..< (k+1)·chunkSize`.
    let chunks: [WorldBox]
    /// Metres from the start to each destination.
    let destinationMeters: [Double]
    /// The alternates' points in world pixels, and the time each takes.
    let alternates: [(worlds: [WorldPoint], midpoint: WorldPoint, durationSeconds: Double)]
    /// Seconds from the start to each point (the route's durations, else 50 km/h).
    let seconds: [Double]
    /// Traffic estimated from the route's own durations, for screens given none.
    let estimatedTraffic: RouteTraffic?

    /// Segments per bounding box.
    static let chunkSize = 64

    /// Validates the route and builds its tables.
    public init(route: NavRoute) throws(NavRouteError) {
        let points = try route.validate()
        guard let line = PolylineMeasure(points) else {
            throw NavRouteError(path: "encodedPolyline", message: "is not a valid polyline")
        }
        self.route = route
        self.points = points
        let worlds = points.map { WebMercator.worldPoint($0, zoom: 0) }
        self.worlds = worlds
        meters = line.cumulativeMeters
        var chunks: [WorldBox] = []
        var start = 0
        while start < worlds.count - 1 {
            let end = min(start + Self.chunkSize, worlds.count - 1)
            chunks.append(WorldBox(worlds[start...end]))
            start = end
        }
        self.chunks = chunks
        destinationMeters = route.destinations.map { line.cumulativeMeters[$0.polylinePointIndex] }
        var elapsed = [0.0]
        elapsed.reserveCapacity(points.count)
        for i in 0..<(points.count - 1) {
            let duration = route.segmentDurationsSeconds?[i] ?? (meters[i + 1] - meters[i]) / (50 / 3.6)
            elapsed.append(elapsed[i] + duration)
        }
        seconds = elapsed
        var alternates: [(worlds: [WorldPoint], midpoint: WorldPoint, durationSeconds: Double)] = []
        for alternate in route.alternateRoutes ?? [] {
            guard let path = try? EncodedPolyline.decode(alternate.encodedPolyline), let measure = PolylineMeasure(path)
            else { continue }
            let middle = measure.point(atDistance: measure.totalMeters / 2)
            alternates.append(
                (
                    path.map { WebMercator.worldPoint($0, zoom: 0) }, WebMercator.worldPoint(middle, zoom: 0),
                    alternate.durationSeconds
                ))
        }
        self.alternates = alternates
        estimatedTraffic = RouteTraffic(estimatedFrom: route)
    }

    /// The route's length, metres.
    public var totalMeters: Double { meters[meters.count - 1] }

    /// The route's points: what its tables cost to keep, roughly 60 bytes a point.
    package var pointCount: Int { points.count }

    /// The route's duration, seconds.
    var totalSeconds: Double { seconds[seconds.count - 1] }

    /// The segment and fraction `distance` metres from the start (clamped to the route).
    func position(atMeters distance: Double) -> (segment: Int, fraction: Double) {
        let d = min(max(distance, 0), totalMeters)
        var low = 0
        var high = meters.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if meters[middle] <= d { low = middle } else { high = middle }
        }
        let length = meters[low + 1] - meters[low]
        return (low, length > 0 ? (d - meters[low]) / length : 0)
    }

    /// The world point `distance` metres from the start.
    func world(atMeters distance: Double) -> WorldPoint {
        let (segment, fraction) = position(atMeters: distance)
        let a = worlds[segment]
        let b = worlds[segment + 1]
        return WorldPoint(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction)
    }

    /// The route's bearing at `distance` metres, degrees clockwise from north.
    func bearing(atMeters distance: Double) -> Double {
        var (segment, _) = position(atMeters: distance)
        while segment + 1 < points.count - 1, meters[segment + 1] - meters[segment] < 0.5 { segment += 1 }
        return Earth.initialBearing(from: points[segment], to: points[segment + 1])
    }
}

/// An axis-aligned box in zoom-0 world pixels.
struct WorldBox: Sendable {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity

    init() {}

    init(_ points: some Sequence<WorldPoint>) {
        for p in points { add(p) }
    }

    mutating func add(_ p: WorldPoint) {
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
    }

    func intersects(_ other: WorldBox) -> Bool {
        other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
    }
}
