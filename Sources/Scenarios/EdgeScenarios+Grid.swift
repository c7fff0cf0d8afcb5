// The made-up street grid in Mountain View the edge-case fixtures drive on, and how a car
// moves along it: flat-earth metres, points a given distance along a path (rounded to 1e-7°,
// about a centimetre), headings in whole degrees. The arithmetic follows the order of
// operations of the Python generator these fixtures were first written with, so the
// regenerated scenarios put the car on the same points.

import Foundation
import Geo

extension EdgeScenarios {
    /// A drive along streets of the grid: east, then north, then east again.
    static let street = [
        LatLng(latitude: 37.3900, longitude: -122.0800), LatLng(latitude: 37.3900, longitude: -122.0740),
        LatLng(latitude: 37.3900, longitude: -122.0680), LatLng(latitude: 37.3950, longitude: -122.0680),
        LatLng(latitude: 37.4000, longitude: -122.0680), LatLng(latitude: 37.4000, longitude: -122.0620),
        LatLng(latitude: 37.4000, longitude: -122.0560),
    ]
    /// A detour that leaves the street at its third point (for the reroute scenario).
    static let detour = [
        LatLng(latitude: 37.3900, longitude: -122.0680), LatLng(latitude: 37.3860, longitude: -122.0680),
        LatLng(latitude: 37.3860, longitude: -122.0620), LatLng(latitude: 37.4000, longitude: -122.0620),
    ]

    private static let radiansPerDegree = Double.pi / 180
    private static let degreesPerRadian = 180 / Double.pi

    /// Metres between two points on a flat earth (fine over a few kilometres).
    static func meters(_ a: LatLng, _ b: LatLng) -> Double {
        let dlat = (b.latitude - a.latitude) * radiansPerDegree
        let dlng = (b.longitude - a.longitude) * radiansPerDegree * cos((a.latitude + b.latitude) / 2 * radiansPerDegree)
        return 6371008.8 * hypot(dlat, dlng)
    }

    /// The length of `path`, metres.
    static func length(_ path: [LatLng]) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + meters($1.0, $1.1) }
    }

    /// The point `distance` metres along `path`, and the heading there in whole degrees (the
    /// path's end, heading 0, past it).
    static func along(_ path: [LatLng], _ distance: Double) -> (point: LatLng, heading: Int) {
        var distance = distance
        for (a, b) in zip(path, path.dropFirst()) {
            let length = meters(a, b)
            if distance <= length {
                let f = length != 0 ? distance / length : 0
                let dx = (b.longitude - a.longitude) * cos(a.latitude * radiansPerDegree)
                var heading = fmod(atan2(dx, b.latitude - a.latitude) * degreesPerRadian, 360)
                if heading < 0 { heading += 360 }
                let point = LatLng(
                    latitude: rounded(a.latitude + f * (b.latitude - a.latitude)),
                    longitude: rounded(a.longitude + f * (b.longitude - a.longitude)))
                return (point, Int(heading.rounded(.toNearestOrEven)))
            }
            distance -= length
        }
        return (path[path.count - 1], 0)
    }

    /// The part of `path` from `start` to `end` metres along it.
    static func part(of path: [LatLng], from start: Double, to end: Double) -> [LatLng] {
        var points = [along(path, start).point]
        var walked = 0.0
        for (a, b) in zip(path, path.dropFirst()) {
            walked += meters(a, b)
            if start < walked && walked < end { points.append(b) }
        }
        points.append(along(path, end).point)
        return points
    }

    /// Degrees to seven decimals, the nearest double to the decimal (as Python's `round` does).
    private static func rounded(_ degrees: Double) -> Double {
        Double(String(format: "%.7f", degrees)) ?? degrees
    }
}
