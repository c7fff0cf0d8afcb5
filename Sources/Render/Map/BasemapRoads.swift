// The basemap as the estimator reads it (DESIGN §5, road class from the basemap): TripModel
// asks for the roads under a route through its RoadClassSource seam, and this answers from the
// operator's vector tiles through Basemap's map-data query, so Basemap stays ignorant of trips
// and TripModel of tiles. Contract: the route is sampled every `sampleMeters`; a sample takes
// the class of the nearest drivable road within `matchMeters` running its way (within
// `matchDegrees`); samples without one (no tile, no road, a road of a class no car drives) are
// left out, which the estimate reports as not covered. Junctions are the tiles' vertices where
// three or more road ends meet; the route gives way at one where a road crossing it ranks
// higher than its own, or as high where its own road ends there (the through road has
// priority); a traffic light (Mapbox Streets v8 marks them as `road` points of class
// `traffic_signals`; OpenMapTiles does not) governs the junction it stands at. Read once per
// route segment; decoded road tiles are kept, within a bound.

import Basemap
import Foundation
import Geo
import Synchronization
import TripModel

/// The roads of a vector tile archive (OpenMapTiles or Mapbox Streets schema) under routes.
package final class BasemapRoads: RoadClassSource {
    /// Spacing of the samples taken along a route, metres.
    static let sampleMeters = 10.0
    /// How far from a sample a road may lie and still be the one driven, metres.
    static let matchMeters = 12.0
    /// How far a road's direction may differ from the route's and still be the one driven.
    static let matchDegrees = 35.0
    /// Shorter runs of one class between two runs of another are read as the other (a
    /// sample that caught the crossing street at a junction).
    static let minimumRunMeters = 30.0
    /// Traffic lights closer than this along the route are one junction's.
    static let signalMergeMeters = 50.0
    /// Road tiles kept decoded.
    static let cachedTiles = 512

    /// The archive.
    package let source: any TileSource
    /// The zoom whose tiles are read: the archive's deepest, at most 14 (where the
    /// OpenMapTiles and Mapbox schemas carry every road).
    package let zoom: Int
    private let cache = Mutex<[TileID: RoadTile]>([:])

    /// Reads roads from `source`; nil when it holds images rather than vector tiles.
    package init?(source: any TileSource) {
        guard source.metadata.format.isVector else { return nil }
        self.source = source
        zoom = min(source.metadata.maxZoom, 14)
    }

    package func roads(along route: [LatLng]) -> RoadsAlong {
        guard let measure = PolylineMeasure(route), measure.totalMeters > 0 else { return RoadsAlong(stretches: []) }
        let plane = LocalPlane(origin: route[0])
        let samples = Self.samples(of: measure, plane: plane)
        let tiles = Set(samples.map { tileID(of: $0.point) }).compactMap(tile)
        let index = SegmentIndex(tiles.flatMap(\.segments), plane: plane)
        let classes = Self.smoothed(samples.map { index.match($0) })
        let stretches = Self.stretches(classes, samples: samples, total: measure.totalMeters)
        let route = RouteSamples(samples: samples, classes: classes, plane: plane)
        let signals = Self.merged(tiles.flatMap(\.signals).compactMap(route.along).sorted(), within: Self.signalMergeMeters)
        var giveWays: [Double] = []
        for junction in tiles.flatMap(\.junctions) {
            guard let at = route.along(junction.point), let own = route.roadClass(at: at) else { continue }
            let arms = junction.arms.map { (rank: $0.roadClass.rank, bearing: $0.bearing) }
            guard Self.givesWay(rank: own.rank, heading: route.heading(at: at), arms: arms) else { continue }
            if signals.contains(where: { abs($0 - at) < Self.signalMergeMeters / 2 }) { continue }
            giveWays.append(at)
        }
        return RoadsAlong(stretches: stretches, giveWays: Self.merged(giveWays.sorted(), within: 15), trafficSignals: signals)
    }

    /// The route every ``sampleMeters``, with its heading there.
    private static func samples(of measure: PolylineMeasure, plane: LocalPlane) -> [RouteSample] {
        var out: [RouteSample] = []
        var at = sampleMeters / 2
        while at < measure.totalMeters {
            let a = measure.point(atDistance: max(0, at - sampleMeters / 2))
            let b = measure.point(atDistance: min(measure.totalMeters, at + sampleMeters / 2))
            let point = measure.point(atDistance: at)
            let (x, y) = plane.meters(point)
            out.append(RouteSample(at: at, point: point, x: x, y: y, bearing: Earth.initialBearing(from: a, to: b)))
            at += sampleMeters
        }
        return out
    }

    /// Classes with short runs between two runs of one other class replaced by it.
    private static func smoothed(_ classes: [RoadClass?]) -> [RoadClass?] {
        var out = classes
        let shortest = Int(minimumRunMeters / sampleMeters)
        var start = 0
        while start < out.count {
            var end = start
            while end < out.count, out[end] == out[start] { end += 1 }
            if end - start < shortest, start > 0, end < out.count, out[start - 1] == out[end], out[end] != nil {
                for i in start..<end { out[i] = out[end] }
            }
            start = end
        }
        return out
    }

    /// Runs of one class as stretches of the route.
    private static func stretches(_ classes: [RoadClass?], samples: [RouteSample], total: Double) -> [RoadsAlong.Stretch] {
        var out: [RoadsAlong.Stretch] = []
        for (sample, roadClass) in zip(samples, classes) {
            guard let roadClass else { continue }
            let from = max(0, sample.at - sampleMeters / 2)
            let to = min(total, sample.at + sampleMeters / 2)
            if let last = out.last, last.roadClass == roadClass, abs(last.to - from) < 1e-6 {
                out[out.count - 1].to = to
            } else {
                out.append(RoadsAlong.Stretch(from: from, to: to, roadClass: roadClass))
            }
        }
        return out
    }

    /// Increasing marks with those within `distance` of the one before dropped.
    private static func merged(_ marks: [Double], within distance: Double) -> [Double] {
        var out: [Double] = []
        for mark in marks where out.last.map({ mark - $0 >= distance }) ?? true { out.append(mark) }
        return out
    }

    /// Whether a road of rank `rank`, driven heading `heading` into a junction whose roads
    /// leave it as `arms`, gives way there: to a crossing road that ranks higher, or, when it
    /// ends at the junction (no road carries straight on: the stem of a T), to one of its own
    /// rank. The through road of a junction has priority, as traffic rules give it.
    static func givesWay(rank: Int, heading: Double, arms: [(rank: Int, bearing: Double)]) -> Bool {
        let crossing = arms.filter { angle($0.bearing, heading) > matchDegrees }.map(\.rank).max()
        guard let crossing else { return false }
        if crossing > rank { return true }
        let carriesOn = arms.contains { arm in
            let turn = abs((arm.bearing - heading + 540).truncatingRemainder(dividingBy: 360) - 180)
            return turn <= matchDegrees
        }
        return crossing == rank && !carriesOn
    }

    /// The angle between two directions of travel, ignoring which way along the road (0–90°).
    static func angle(_ a: Double, _ b: Double) -> Double {
        var d = abs(a - b).truncatingRemainder(dividingBy: 180)
        if d > 90 { d = 180 - d }
        return d
    }

    func tileID(of point: LatLng) -> TileID {
        let world = WebMercator.worldPoint(point, zoom: Double(zoom))
        let last = (1 << zoom) - 1
        return TileID(zoom: zoom, x: min(last, max(0, Int(world.x / 256))), y: min(last, max(0, Int(world.y / 256))))
    }

    /// The roads of a tile, from the cache or read now; nil when the archive has none there
    /// or the tile cannot be read.
    func tile(_ id: TileID) -> RoadTile? {
        if let cached = cache.withLock({ $0[id] }) { return cached.isEmpty ? nil : cached }
        let features = (try? source.features(at: id, layers: RoadTile.layers)) ?? nil
        let tile = RoadTile(features ?? [])
        cache.withLock { cache in
            if cache.count >= Self.cachedTiles { cache.removeAll(keepingCapacity: true) }
            cache[id] = tile
        }
        return tile.isEmpty ? nil : tile
    }
}

/// A sample of a route.
private struct RouteSample {
    var at: Double
    var point: LatLng
    var x: Double
    var y: Double
    var bearing: Double
}

/// The route's samples, for placing map points along it.
private struct RouteSamples {
    let samples: [RouteSample]
    let classes: [RoadClass?]
    let plane: LocalPlane
    private let grid: [Int64: [Int]]
    static let cell = 20.0

    init(samples: [RouteSample], classes: [RoadClass?], plane: LocalPlane) {
        self.samples = samples
        self.classes = classes
        self.plane = plane
        var grid: [Int64: [Int]] = [:]
        for (i, s) in samples.enumerated() { grid[Self.key(s.x, s.y), default: []].append(i) }
        self.grid = grid
    }

    static func key(_ x: Double, _ y: Double) -> Int64 {
        Int64((x / cell).rounded(.down)) << 32 ^ Int64((y / cell).rounded(.down)) & 0xFFFF_FFFF
    }

    /// Metres along the route of the sample nearest `point`, when within the match distance.
    func along(_ point: LatLng) -> Double? {
        let (x, y) = plane.meters(point)
        var best: (d: Double, at: Double)?
        for dx in -1...1 {
            for dy in -1...1 {
                for i in grid[Self.key(x + Double(dx) * Self.cell, y + Double(dy) * Self.cell)] ?? [] {
                    let s = samples[i]
                    let d = (s.x - x) * (s.x - x) + (s.y - y) * (s.y - y)
                    if d <= BasemapRoads.matchMeters * BasemapRoads.matchMeters, d < best?.d ?? .infinity { best = (d, s.at) }
                }
            }
        }
        return best?.at
    }

    private func index(at: Double) -> Int {
        min(samples.count - 1, max(0, Int(at / BasemapRoads.sampleMeters)))
    }

    func roadClass(at: Double) -> RoadClass? { classes.isEmpty ? nil : classes[index(at: at)] }

    func heading(at: Double) -> Double { samples.isEmpty ? 0 : samples[index(at: at)].bearing }
}

/// Road segments near a route, by grid cell of a local plane.
private struct SegmentIndex {
    struct Segment {
        var ax: Double
        var ay: Double
        var bx: Double
        var by: Double
        var bearing: Double
        var roadClass: RoadClass
    }

    static let cell = 25.0
    private var grid: [Int64: [Segment]] = [:]

    init(_ segments: [RoadTile.Segment], plane: LocalPlane) {
        for s in segments {
            let (ax, ay) = plane.meters(s.a)
            let (bx, by) = plane.meters(s.b)
            let segment = Segment(ax: ax, ay: ay, bx: bx, by: by, bearing: Earth.initialBearing(from: s.a, to: s.b), roadClass: s.roadClass)
            let x0 = Int((min(ax, bx) / Self.cell).rounded(.down))
            let x1 = Int((max(ax, bx) / Self.cell).rounded(.down))
            let y0 = Int((min(ay, by) / Self.cell).rounded(.down))
            let y1 = Int((max(ay, by) / Self.cell).rounded(.down))
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 else { continue }
            for x in x0...x1 {
                for y in y0...y1 { grid[Int64(x) << 32 ^ Int64(y) & 0xFFFF_FFFF, default: []].append(segment) }
            }
        }
    }

    /// The class of the nearest road running the sample's way within the match distance.
    func match(_ sample: RouteSample) -> RoadClass? {
        let cx = Int((sample.x / Self.cell).rounded(.down))
        let cy = Int((sample.y / Self.cell).rounded(.down))
        var best: (d: Double, roadClass: RoadClass)?
        for x in (cx - 1)...(cx + 1) {
            for y in (cy - 1)...(cy + 1) {
                for s in grid[Int64(x) << 32 ^ Int64(y) & 0xFFFF_FFFF] ?? [] {
                    guard BasemapRoads.angle(s.bearing, sample.bearing) <= BasemapRoads.matchDegrees else { continue }
                    let d = Self.squaredDistance(sample.x, sample.y, s)
                    if d <= BasemapRoads.matchMeters * BasemapRoads.matchMeters, d < best?.d ?? .infinity { best = (d, s.roadClass) }
                }
            }
        }
        return best?.roadClass
    }

    private static func squaredDistance(_ px: Double, _ py: Double, _ s: Segment) -> Double {
        let dx = s.bx - s.ax
        let dy = s.by - s.ay
        let length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, ((px - s.ax) * dx + (py - s.ay) * dy) / length)) : 0
        let x = s.ax + t * dx - px
        let y = s.ay + t * dy - py
        return x * x + y * y
    }
}

extension LocalPlane {
    /// A point's coordinates in the plane, in metres (east, north).
    func meters(_ p: LatLng) -> (x: Double, y: Double) {
        let (x, y) = coordinates(p)
        return (x * Self.metersPerDegree, y * Self.metersPerDegree)
    }
}
