// An affine transform [a c tx; b d ty; 0 0 1] mapping user space to device space, with the
// same conventions as Cairo's cairo_matrix_t: x' = a·x + c·y + tx, y' = b·x + d·y + ty.

import Foundation

/// An affine transform of points: scale, rotation, shear and translation.
public struct Transform: Hashable, Sendable, Codable {
    /// x' gets a·x (Cairo's xx).
    package var a: Double
    /// y' gets b·x (Cairo's yx).
    package var b: Double
    /// x' gets c·y (Cairo's xy).
    package var c: Double
    /// y' gets d·y (Cairo's yy).
    package var d: Double
    /// Translation in x (Cairo's x0).
    package var tx: Double
    /// Translation in y (Cairo's y0).
    package var ty: Double

    /// A transform from its six coefficients (Cairo's xx, yx, xy, yy, x0, y0).
    package init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (x, y).
    package static func translation(x: Double, y: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin.
    package static func scale(x: Double, y: Double) -> Transform {
        Transform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `radians`, clockwise on screen (y points down).
    package static func rotation(radians: Double) -> Transform {
        let cosine = cos(radians)
        let sine = sin(radians)
        return Transform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` applied first, then `other`.
    package func concatenating(_ other: Transform) -> Transform {
        Transform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// This transform followed by a translation.
    package func translatedBy(x: Double, y: Double) -> Transform { concatenating(.translation(x: x, y: y)) }
    /// This transform followed by a scale.
    package func scaledBy(x: Double, y: Double) -> Transform { concatenating(.scale(x: x, y: y)) }
    /// This transform followed by a rotation.
    package func rotatedBy(radians: Double) -> Transform { concatenating(.rotation(radians: radians)) }

    /// The inverse transform, or nil when this one is singular (or not finite).
    package func inverted() -> Transform? {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return nil }
        let inverse = 1 / determinant
        return Transform(
            a: d * inverse, b: -b * inverse, c: -c * inverse, d: a * inverse,
            tx: (c * ty - d * tx) * inverse, ty: (b * tx - a * ty) * inverse)
    }

    /// The image of a point.
    package func apply(_ point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// The image of a vector (no translation).
    func applyToVector(_ vector: Point) -> Point {
        Point(x: a * vector.x + c * vector.y, y: b * vector.x + d * vector.y)
    }

    var isIdentity: Bool { self == .identity }
}
