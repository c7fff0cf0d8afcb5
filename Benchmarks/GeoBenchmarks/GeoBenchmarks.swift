// Geo on the hot path of vehicle updates: polyline codecs, S2 route segments, and snapping a
// moving location onto a route with PolylineTracker versus a full search, at three route
// lengths to show the tracker's cost per update does not grow with the route.

import Benchmark
import Foundation
import Geo

/// A winding route of `count` points about 10 m apart (the same shape at every length).
private func windingRoute(count: Int) -> [LatLng] {
    (0..<count).map { i in
        let t = Double(i)
        return LatLng(
            latitude: 37.7 + t * 0.00006 + 0.002 * sin(t / 150),
            longitude: -122.4 + t * 0.00008 + 0.002 * cos(t / 97))
    }
}

/// `count` locations 20 m apart along the first kilometres of the route, 3 m to its side.
private func drive(_ measure: PolylineMeasure, count: Int) -> [LatLng] {
    (0..<count).map { i in
        let p = measure.point(atDistance: Double(i) * 20)
        return LatLng(latitude: p.latitude + 3 / 111_195.0, longitude: p.longitude)
    }
}

/// The longest S2 route segment of the Bay Area Fleet Engine log (shared/fixtures).
private func longestFixtureSegment(file: String = #filePath) -> String {
    let url = URL(fileURLWithPath: file)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/fleet-engine-logs/two-trips-bay-area.json")
    guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { return "" }
    var longest = ""
    let key = "\"currentroutesegment\": \""
    var rest = text[...]
    while let start = rest.range(of: key) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        if after[..<end].count > longest.count { longest = String(after[..<end]) }
        rest = after[end...]
    }
    return longest
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(metrics: metrics, warmupIterations: 3, maxDuration: .seconds(2))

    // Polyline codecs: one iteration is a 10,000-point line (points/s = throughput × 10,000).
    let line = windingRoute(count: 10_000)
    let encoded = EncodedPolyline.encode(line)
    Benchmark("EncodedPolyline.encode 10k points") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(EncodedPolyline.encode(line)) }
    }
    Benchmark("EncodedPolyline.decode 10k points") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try EncodedPolyline.decode(encoded)) }
    }

    // Route measures: what a vehicle update does with its 500-point route segment (cumulative
    // haversine lengths), and the distance itself.
    let route500 = windingRoute(count: 500)
    Benchmark("PolylineMeasure init, 500 points", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(PolylineMeasure(route500)) }
    }
    Benchmark("Earth.distance ×10k, consecutive route vertices") { benchmark in
        for _ in benchmark.scaledIterations {
            var total = 0.0
            for index in line.indices.dropFirst() { total += Earth.distance(line[index - 1], line[index]) }
            blackHole(total)
        }
    }

    // S2: the longest Fleet Engine route segment of the fixture, and a synthetic long one.
    let segment = longestFixtureSegment()
    Benchmark(
        "S2Polyline.decode longest fixture segment",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try S2Polyline.decode(base64: segment)) }
    }
    let s2Line = S2Polyline.encode(line)
    Benchmark("S2Polyline.decode 10k points") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try S2Polyline.decode(base64: s2Line)) }
    }

    // Snapping: one iteration is 1,000 updates of a vehicle moving 20 m per update.
    for count in [1_000, 10_000, 100_000] {
        guard let measure = PolylineMeasure(windingRoute(count: count)) else { continue }
        let locations = drive(measure, count: 1_000)
        Benchmark("PolylineTracker.update ×1000, \(count) points") { benchmark in
            for _ in benchmark.scaledIterations {
                var tracker = PolylineTracker(measure: measure, startDistance: 0)
                for location in locations { blackHole(tracker.update(location)) }
            }
        }
        Benchmark("PolylineMeasure.project (full) ×1000, \(count) points") { benchmark in
            for _ in benchmark.scaledIterations {
                for location in locations { blackHole(measure.project(location)) }
            }
        }
    }
}
