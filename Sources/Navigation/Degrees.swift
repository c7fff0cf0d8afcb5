/// Angle arithmetic in degrees shared by the maneuver classes and the turn detector.
enum Degrees {
    /// `angle` wrapped to (-180, 180]: the signed turn it stands for.
    static func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 } else if a <= -180 { a += 360 }
        return a
    }

    /// `to - from` wrapped to (-180, 180]: the turn from heading `from` to heading `to`,
    /// positive to the right.
    static func difference(from: Double, to: Double) -> Double {
        wrapped(to - from)
    }
}
