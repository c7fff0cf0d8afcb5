// A rider's preview over the basemap (issue 14's speed targets): 640×480 at zoom 15 over the
// San Francisco tiles, with the 2,000-vertex route of Tests/RenderTests/Fixtures/trips/
// osrm-2k.json moved and shrunk into the view (its shape and vertex count kept), four markers
// and the ETA badge. Warm: decoded tiles cached (a server's steady state); cold: a new layer,
// so every tile is decoded, each time. IntegrationTests/cairo/cairo_compare.sh basemap ends by timing
// Cairo drawing the same view's basemap fills and lines.

import Basemap
import Benchmark
import Foundation
import Geo
import JSON
import Raster
import Render
import Styling
import TripModel

private let renderTime = Timestamp(rfc3339: "2025-02-05T17:52:30Z") ?? Timestamp(microseconds: 0)

/// The osrm-2k trip with every location mapped into a box around `center` about
/// `spanDegrees` wide, so the whole route lies over the tiles of the view.
func relocatedTrip(center: LatLng, spanDegrees: Double) -> Trip? {
    let url = root.appendingPathComponent("Tests/RenderTests/Fixtures/trips/osrm-2k.json")
    guard let data = try? Data(contentsOf: url), var trip = try? JSONCoding.decode(Trip.self, from: Array(data), root: "trip") else {
        print("cannot read \(url.path)")
        return nil
    }
    var points: [LatLng] = []
    for waypoint in trip.remainingWaypoints {
        if let path = waypoint.encodedPathToWaypoint, let decoded = try? EncodedPolyline.decode(path) { points += decoded }
    }
    let lats = points.map(\.latitude)
    let lngs = points.map(\.longitude)
    guard let minLat = lats.min(), let maxLat = lats.max(), let minLng = lngs.min(), let maxLng = lngs.max() else { return nil }
    let factor = spanDegrees / max(maxLat - minLat, maxLng - minLng, 1e-9)
    func move(_ p: LatLng) -> LatLng {
        LatLng(
            latitude: center.latitude + (p.latitude - (minLat + maxLat) / 2) * factor,
            longitude: center.longitude + (p.longitude - (minLng + maxLng) / 2) * factor)
    }
    for index in trip.remainingWaypoints.indices {
        var waypoint = trip.remainingWaypoints[index]
        if let path = waypoint.encodedPathToWaypoint, let decoded = try? EncodedPolyline.decode(path) {
            waypoint.encodedPathToWaypoint = EncodedPolyline.encode(decoded.map(move))
        }
        if let location = waypoint.location { waypoint.location = TerminalLocation(point: move(location.point)) }
        trip.remainingWaypoints[index] = waypoint
    }
    trip.pickupPoint = trip.pickupPoint.map { TerminalLocation(point: move($0.point)) }
    trip.dropoffPoint = trip.dropoffPoint.map { TerminalLocation(point: move($0.point)) }
    trip.intermediateDestinations = trip.intermediateDestinations.map { TerminalLocation(point: move($0.point)) }
    if var last = trip.lastLocation {
        last.location = last.location.map(move)
        trip.lastLocation = last
    }
    return trip
}

/// The preview benchmarks over `basemap` (the San Francisco tiles and their style).
func previewBenchmarks(_ basemap: Basemap) {
    guard let trip = relocatedTrip(center: sanFranciscoView.center, spanDegrees: 0.018),
        let style = try? StyleLibrary.bundled().style(named: "default"),
        let warmLayer = try? BasemapLayer(source: basemap.source, style: basemap.style)
    else { return }
    let options = PreviewOptions(width: 640, height: 480, center: sanFranciscoView.center, zoom: 15)
    let warm = TripPreview(trip: trip, style: style, options: options, now: renderTime, basemap: warmLayer)
    Benchmark("SF z15 640x480 preview, 2k route, markers, basemap warm") { benchmark in
        blackHole(try warm.render())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try warm.render()) }
    }
    Benchmark("SF z15 640x480 preview, 2k route, markers, basemap cold") { benchmark in
        for _ in benchmark.scaledIterations {
            guard let layer = try? BasemapLayer(source: basemap.source, style: basemap.style) else { return }
            var cold = warm
            cold.basemap = layer
            blackHole(try cold.render())
        }
    }
    Benchmark("SF z15 640x480 preview, 2k route, markers, basemap warm, PNG") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try warm.png()) }
    }
}
