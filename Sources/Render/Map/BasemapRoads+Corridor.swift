// The roads near a straight line, for a vehicle no route is known for (DESIGN §5, an estimate
// whenever a vehicle has a trip): TripModel asks for the mix of road classes within a corridor
// of the line from the vehicle to its stop, and takes the pace of a way through it from that.
// Contract: the tiles under the line and its margin are read (the same cache as routes'); a
// piece of drivable road counts, whole, when its middle lies within the corridor. Read when
// the stop changes and every few minutes, never on every update.

import Basemap
import Geo
import TripModel

extension BasemapRoads {
    /// Spacing of the points along the line whose tiles are read, metres: well under a z14 tile.
    static let corridorStepMeters = 200.0

    package func roads(near a: LatLng, _ b: LatLng, within width: Double) -> RoadMix {
        let length = Earth.distance(a, b)
        let steps = max(1, Int((length / Self.corridorStepMeters).rounded(.up)))
        let plane = LocalPlane(origin: a)
        let margin = width / LocalPlane.metersPerDegree
        var ids = Set<TileID>()
        for i in 0...steps {
            let p = Earth.interpolate(a, b, fraction: Double(i) / Double(steps))
            for (dLat, dLng) in [
                (-margin, -margin / plane.xScale), (margin, margin / plane.xScale), (-margin, margin / plane.xScale),
                (margin, -margin / plane.xScale),
            ] {
                ids.insert(tileID(of: LatLng(latitude: p.latitude + dLat, longitude: p.longitude + dLng)))
            }
        }
        let (bx, by) = plane.meters(b)
        var mix: [RoadClass: Double] = [:]
        for tile in ids.compactMap(tile) {
            for segment in tile.segments {
                let (ax, ay) = plane.meters(segment.a)
                let (cx, cy) = plane.meters(segment.b)
                let mx = (ax + cx) / 2
                let my = (ay + cy) / 2
                guard Self.squaredDistance(mx, my, toLineTo: bx, by) <= width * width else { continue }
                mix[segment.roadClass, default: 0] += ((cx - ax) * (cx - ax) + (cy - ay) * (cy - ay)).squareRoot()
            }
        }
        return RoadMix(meters: mix)
    }

    /// Squared distance from (x, y) to the segment from the origin to (bx, by), in the plane's metres.
    private static func squaredDistance(_ x: Double, _ y: Double, toLineTo bx: Double, _ by: Double) -> Double {
        let length = bx * bx + by * by
        let t = length > 0 ? max(0, min(1, (x * bx + y * by) / length)) : 0
        let dx = t * bx - x
        let dy = t * by - y
        return dx * dx + dy * dy
    }
}
