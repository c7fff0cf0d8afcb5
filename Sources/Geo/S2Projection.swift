// The S2 cube projection, as far as the polyline codec needs it. A unit vector (x, y, z) lies
// on one of six cube faces (the axis of its largest component and that component's sign:
// 0 +x, 1 +y, 2 +z, 3 -x, 4 -y, 5 -z); on a face, (u, v) in [-1, 1] are the other two
// components divided by the main one, in a per-face order and sign. (s, t) in [0, 1] re-space
// (u, v) with S2's quadratic projection, which makes cells of one level nearly equal in
// area; a level-L cell spans 2^-L of s and t, and its (pi, qi) are floor(s * 2^L), floor(t * 2^L).

import Foundation

/// A direction in space (not necessarily unit length).
struct Vector3: Equatable {
    var x: Double
    var y: Double
    var z: Double
}

/// Conversions between latitude/longitude, points on the sphere and S2 cube-face coordinates.
enum S2Projection {
    static let maxLevel = 30

    /// The unit vector of a latitude/longitude, computed as S2LatLng does (radians as
    /// `(π / 180) · degrees`) so that lossless encodings match S2's bit for bit.
    static func vector(_ p: LatLng) -> Vector3 {
        let phi = (Double.pi / 180) * p.latitude
        let theta = (Double.pi / 180) * p.longitude
        let cosPhi = cos(phi)
        return Vector3(x: cos(theta) * cosPhi, y: sin(theta) * cosPhi, z: sin(phi))
    }

    /// The latitude/longitude of a direction; its length does not matter.
    static func latLng(_ v: Vector3) -> LatLng {
        let lat = atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot())
        let lng = atan2(v.y, v.x)
        return LatLng(latitude: (180 / Double.pi) * lat, longitude: (180 / Double.pi) * lng)
    }

    /// The face a direction points into: its largest component's axis, +3 when negative.
    static func face(_ v: Vector3) -> Int {
        let ax = abs(v.x)
        let ay = abs(v.y)
        let az = abs(v.z)
        let axis = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2)
        let component = axis == 0 ? v.x : (axis == 1 ? v.y : v.z)
        return component < 0 ? axis + 3 : axis
    }

    /// (u, v) of a direction on the given face (which must be the face it points into).
    static func uv(_ p: Vector3, face: Int) -> (u: Double, v: Double) {
        switch face {
        case 0: (p.y / p.x, p.z / p.x)
        case 1: (-p.x / p.y, p.z / p.y)
        case 2: (-p.x / p.z, -p.y / p.z)
        case 3: (p.z / p.x, p.y / p.x)
        case 4: (p.z / p.y, -p.x / p.y)
        default: (-p.y / p.z, -p.x / p.z)
        }
    }

    /// The (unnormalised) direction of (u, v) on a face.
    static func vector(face: Int, u: Double, v: Double) -> Vector3 {
        switch face {
        case 0: Vector3(x: 1, y: u, z: v)
        case 1: Vector3(x: -u, y: 1, z: v)
        case 2: Vector3(x: -u, y: -v, z: 1)
        case 3: Vector3(x: -1, y: -v, z: -u)
        case 4: Vector3(x: v, y: -1, z: -u)
        default: Vector3(x: v, y: u, z: -1)
        }
    }

    /// The quadratic projection from cell space s to cube space u.
    static func uv(fromST s: Double) -> Double {
        s >= 0.5 ? (1.0 / 3) * (4 * s * s - 1) : (1.0 / 3) * (1 - 4 * (1 - s) * (1 - s))
    }

    /// The inverse of ``uv(fromST:)``.
    static func st(fromUV u: Double) -> Double {
        u >= 0 ? 0.5 * (1 + 3 * u).squareRoot() : 1 - 0.5 * (1 - 3 * u).squareRoot()
    }

    /// The direction (not unit length: ``latLng(_:)`` does not need it) of the centre of the
    /// level-`level` cell (pi, qi) of a face.
    static func cellCenter(face: Int, pi: Int, qi: Int, level: Int) -> Vector3 {
        let cells = Double(1 << level)
        return vector(face: face, u: uv(fromST: (Double(pi) + 0.5) / cells), v: uv(fromST: (Double(qi) + 0.5) / cells))
    }

    /// The face and level-`level` cell (pi, qi) containing a latitude/longitude.
    static func cell(containing p: LatLng, level: Int) -> (face: Int, pi: Int, qi: Int) {
        let v = vector(p)
        let face = face(v)
        let (u, w) = uv(v, face: face)
        let cells = Double(1 << level)
        func index(_ s: Double) -> Int { max(0, min(Int(s * cells), (1 << level) - 1)) }
        return (face, index(st(fromUV: u)), index(st(fromUV: w)))
    }
}
