// A latitude/longitude rectangle, as Google's LatLngBounds: south ≤ north always; when
// west > east the rectangle crosses the antimeridian (it spans west → 180 → -180 → east).
// Built from points it takes the smallest longitude span that covers them (the complement of
// the widest gap between their longitudes), so a route through Fiji is a few degrees wide,
// not 359.

import Foundation

/// A latitude/longitude rectangle that may cross the antimeridian.
public struct GeoBounds: Sendable, Hashable, Codable {
    /// Southern edge in degrees.
    package var south: Double
    /// Western edge in degrees, -180...180.
    package var west: Double
    /// Northern edge in degrees.
    package var north: Double
    /// Eastern edge in degrees, -180...180; less than ``west`` when crossing the antimeridian.
    package var east: Double

    /// Creates bounds from its edges, taken as given.
    package init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The bounds of a single point.
    public init(_ point: LatLng) {
        self.init(south: point.latitude, west: point.longitude, north: point.latitude, east: point.longitude)
    }

    /// The smallest bounds holding every point; nil for no points.
    public init?(_ points: some Sequence<LatLng>) {
        var south = Double.infinity
        var north = -Double.infinity
        var longitudes: [Double] = []
        for point in points {
            south = min(south, point.latitude)
            north = max(north, point.latitude)
            longitudes.append(point.longitude)
        }
        guard !longitudes.isEmpty else { return nil }
        longitudes.sort()
        // The widest gap between neighbouring longitudes (wrapping from the last to the first)
        // is what the bounds leave out.
        var gapEnd = 0
        var widestGap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        for index in longitudes.indices.dropFirst() {
            let gap = longitudes[index] - longitudes[index - 1]
            if gap > widestGap {
                widestGap = gap
                gapEnd = index
            }
        }
        let west = longitudes[gapEnd]
        let east = longitudes[(gapEnd + longitudes.count - 1) % longitudes.count]
        self.init(south: south, west: west, north: north, east: east)
    }

    /// True when the bounds cross the antimeridian (west > east).
    package var crossesAntimeridian: Bool { west > east }

    /// Width in degrees of longitude, 0...360.
    package var longitudeSpan: Double { crossesAntimeridian ? east + 360 - west : east - west }

    /// The point halfway between the edges (in degrees, not in a map projection).
    public var center: LatLng {
        var lng = west + longitudeSpan / 2
        if lng > 180 { lng -= 360 }
        return LatLng(latitude: (south + north) / 2, longitude: lng)
    }

    /// True when `p` lies inside or on the edges; -180 and 180 are the same meridian.
    package func contains(_ p: LatLng) -> Bool {
        guard p.latitude >= south, p.latitude <= north else { return false }
        return containsLongitude(p.longitude)
    }

    /// The smallest bounds holding both; of the two ways round the globe, the narrower.
    package func union(_ other: GeoBounds) -> GeoBounds {
        let south = min(self.south, other.south)
        let north = max(self.north, other.north)
        // Two candidates: start at our west and reach east far enough for the other, or start
        // at the other's west and reach far enough for us.
        let fromHere = max(longitudeSpan, offset(of: other.west) + other.longitudeSpan)
        let fromThere = max(other.longitudeSpan, other.offset(of: west) + longitudeSpan)
        let (start, span) = fromHere <= fromThere ? (west, fromHere) : (other.west, fromThere)
        if span >= 360 { return GeoBounds(south: south, west: -180, north: north, east: 180) }
        return GeoBounds(south: south, west: start, north: north, east: wrapped(start + span))
    }

    /// The smallest bounds holding these bounds and `p`.
    package func union(_ p: LatLng) -> GeoBounds {
        union(GeoBounds(p))
    }

    /// The bounds grown by `meters` on every side (shrunk when negative, never past its
    /// centre); latitudes stop at the poles and a longitude span reaching 360° becomes the
    /// whole circle.
    package func extended(by meters: Double) -> GeoBounds {
        let degreesLat = meters / Earth.radiusMeters * 180 / .pi
        // Widen longitudes by the amount needed at the edge nearest a pole, where a degree is
        // shortest, so the margin is at least `meters` everywhere.
        let extremeLatitude = min(89.999_999, max(abs(south), abs(north)) + max(0, degreesLat))
        let degreesLng = degreesLat / cos(extremeLatitude * .pi / 180)
        var result = self
        result.south = max(-90, south - degreesLat)
        result.north = min(90, north + degreesLat)
        if result.south > result.north {
            result.south = (south + north) / 2
            result.north = result.south
        }
        let span = longitudeSpan + 2 * degreesLng
        if span >= 360 {
            result.west = -180
            result.east = 180
        } else if span <= 0 {
            result.west = center.longitude
            result.east = center.longitude
        } else {
            result.west = wrapped(west - degreesLng)
            result.east = wrapped(east + degreesLng)
        }
        return result
    }

    private func containsLongitude(_ lng: Double) -> Bool {
        longitudeSpan >= 360 || offset(of: lng) <= longitudeSpan
    }

    /// Degrees east of ``west`` to reach `lng`, 0..<360 (so 180 and -180 are one meridian).
    private func offset(of lng: Double) -> Double {
        let offset = (lng - west).truncatingRemainder(dividingBy: 360)
        return offset < 0 ? offset + 360 : offset
    }

    private func wrapped(_ lng: Double) -> Double {
        if lng > 180 { return lng - 360 }
        if lng < -180 { return lng + 360 }
        return lng
    }
}
