// The flat frame used for nearest-point questions near one location: an equirectangular
// plane centred on it. Longitude differences are wrapped to ±180° and scaled by the cosine
// of the centre's latitude, so x and y are both in degrees of great-circle arc. Over the
// metres to kilometres of a road segment this is within centimetres of the geodesic answer,
// with no trigonometry per segment (see PolylineMeasure.swift).

import Foundation

/// An equirectangular plane around a point, for projecting that point onto segments.
package struct LocalPlane: Sendable {
    /// The point the plane is centred on; its coordinates are (0, 0).
    package let origin: LatLng
    /// cos(latitude of the origin): degrees of longitude to degrees of arc.
    package let xScale: Double

    /// Metres per degree of great-circle arc on ``Earth``'s sphere.
    package static let metersPerDegree = Earth.radiusMeters * .pi / 180

    /// The nearest point of one segment to the origin.
    package struct SegmentPoint: Sendable {
        /// Where along the segment it lies, 0...1 (0 for a zero-length segment).
        package var fraction: Double
        /// Squared distance from the origin, in squared degrees of arc: for ranking, or
        /// `squareRoot() * metersPerDegree` for metres.
        package var squaredDistance: Double
        /// The segment's direction in the plane (east, north), in degrees of arc; zero for a
        /// zero-length segment.
        package var directionX: Double
        /// See ``directionX``.
        package var directionY: Double
    }

    /// Creates the plane around `origin`.
    package init(origin: LatLng) {
        self.origin = origin
        xScale = cos(origin.latitude * .pi / 180)
    }

    /// A point's coordinates in the plane, in degrees of arc (east, north).
    @inline(__always)
    package func coordinates(_ p: LatLng) -> (x: Double, y: Double) {
        var dLng = p.longitude - origin.longitude
        if dLng > 180 { dLng -= 360 } else if dLng < -180 { dLng += 360 }
        return (dLng * xScale, p.latitude - origin.latitude)
    }

    /// Squared distance from the origin to `p`, in squared degrees of arc.
    package func squaredDistance(to p: LatLng) -> Double {
        let c = coordinates(p)
        return c.x * c.x + c.y * c.y
    }

    /// The point of segment a–b nearest the origin; a zero-length segment answers its start.
    @inline(__always)
    package func nearest(on a: LatLng, _ b: LatLng) -> SegmentPoint {
        let pa = coordinates(a)
        let pb = coordinates(b)
        let dx = pb.x - pa.x
        let dy = pb.y - pa.y
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = max(0, min(1, -(pa.x * dx + pa.y * dy) / lengthSquared))
        }
        let x = pa.x + t * dx
        let y = pa.y + t * dy
        return SegmentPoint(fraction: t, squaredDistance: x * x + y * y, directionX: dx, directionY: dy)
    }
}
