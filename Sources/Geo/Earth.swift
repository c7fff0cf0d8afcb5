// Great-circle measures on a spherical Earth. The sphere (not the ellipsoid) is what
// Google's maps libraries use for distances too, so figures compare directly.

import Foundation

/// Constants and great-circle measures on a spherical Earth.
public enum Earth {
    /// Mean Earth radius in metres (IUGG), the radius Google's geometry library uses.
    package static let radiusMeters = 6_371_008.8

    /// Great-circle distance between two points in metres (haversine formula).
    public static func distance(_ a: LatLng, _ b: LatLng) -> Double {
        let phi1 = a.latitude * .pi / 180
        let phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        if abs(dPhi) < SmallAngle.limit && abs(dLambda) < SmallAngle.limit {
            // Points closer than about 60 km, such as a route's vertices (measured by the
            // thousand on every vehicle update): the same formula with the small angles'
            // sines and arcsine from their series, so one libm call instead of five.
            // cos φ1 · cos φ2 = (cos(φ1 + φ2) + cos Δφ) / 2.
            let s = SmallAngle.sin(dPhi / 2)
            let t = SmallAngle.sin(dLambda / 2)
            let h = s * s + (cos(phi1 + phi2) + SmallAngle.cos(dPhi)) / 2 * t * t
            return 2 * radiusMeters * SmallAngle.asin(sqrt(max(0, h)))
        }
        let s = sin(dPhi / 2)
        let t = sin(dLambda / 2)
        let h = s * s + cos(phi1) * cos(phi2) * t * t
        return 2 * radiusMeters * asin(min(1, sqrt(h)))
    }

    /// Taylor series of sine, cosine and arcsine for angles below ``limit`` radians, where
    /// the first omitted term is below 1e-18 of the value: they agree with libm to the last
    /// bit or two, without its calls (in the writer's profile, glibc's sin and cos spent as
    /// long saving and restoring the rounding mode as computing).
    enum SmallAngle {
        static var limit: Double { 0.01 }

        @inline(__always) static func sin(_ x: Double) -> Double {
            let x2 = x * x
            return x * (1 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 - x2 * (1.0 / 5040))))
        }

        @inline(__always) static func cos(_ x: Double) -> Double {
            let x2 = x * x
            return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320))))
        }

        /// For 0 ≤ x ≤ sin(limit): the haversine's x stays below 0.0071 under ``limit``.
        @inline(__always) static func asin(_ x: Double) -> Double {
            let x2 = x * x
            return x * (1 + x2 * (1.0 / 6 + x2 * (3.0 / 40 + x2 * (5.0 / 112 + x2 * (35.0 / 1152)))))
        }
    }

    /// Initial bearing from `a` towards `b` in degrees clockwise from north, 0..<360.
    /// Returns 0 when the points coincide.
    package static func initialBearing(from a: LatLng, to b: LatLng) -> Double {
        let phi1 = a.latitude * .pi / 180
        let phi2 = b.latitude * .pi / 180
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        if x == 0 && y == 0 { return 0 }
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The point at `fraction` (0...1) of the way from `a` to `b`, interpolated linearly
    /// in latitude and in the shorter direction of longitude; exact enough for the
    /// road segments (tens to hundreds of metres) it is used on.
    package static func interpolate(_ a: LatLng, _ b: LatLng, fraction: Double) -> LatLng {
        var dLng = b.longitude - a.longitude
        if dLng > 180 { dLng -= 360 } else if dLng < -180 { dLng += 360 }
        var lng = a.longitude + dLng * fraction
        if lng > 180 { lng -= 360 } else if lng < -180 { lng += 360 }
        return LatLng(latitude: a.latitude + (b.latitude - a.latitude) * fraction, longitude: lng)
    }
}
