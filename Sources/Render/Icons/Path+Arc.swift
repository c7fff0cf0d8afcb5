// Circular arcs and pin outlines as cubic Béziers, for the vector icons. Angles are in
// radians on screen (y down): 0 points right, π/2 down; a positive sweep turns clockwise.

import Foundation
import Raster

extension Path {
    /// Adds an arc of `radius` around `center` from `start` through `sweep` radians, as cubic
    /// pieces of at most a quarter turn (radial error below 0.03% of the radius). Starts a
    /// subpath at the arc's start when none is open, else draws a line to it.
    mutating func arc(center: Point, radius: Double, start: Double, sweep: Double, continuing: Bool) {
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        func at(_ angle: Double) -> Point { Point(center.x + radius * cos(angle), center.y + radius * sin(angle)) }
        var angle = start
        if continuing { line(to: at(angle)) } else { move(to: at(angle)) }
        for _ in 0..<pieces {
            let next = angle + step
            let p0 = at(angle)
            let p3 = at(next)
            cubic(
                to: p3,
                control1: Point(p0.x - k * sin(angle), p0.y + k * cos(angle)),
                control2: Point(p3.x + k * sin(next), p3.y - k * cos(next)))
            angle = next
        }
    }

    /// A map pin: a circle of `radius` around (`centerX`, `radius` + `top`) whose sides run
    /// straight and tangent down to the tip at (`centerX`, `tipY`).
    static func pin(centerX: Double, top: Double, radius: Double, tipY: Double) -> Path {
        let center = Point(centerX, top + radius)
        let distance = tipY - center.y
        // Angle between "straight down" and the tangent points, seen from the centre.
        let spread = acos(min(1, radius / max(distance, radius)))
        var path = Path()
        path.move(to: Point(centerX, tipY))
        path.arc(center: center, radius: radius, start: .pi / 2 - spread, sweep: -(2 * .pi - 2 * spread), continuing: true)
        path.close()
        return path
    }
}
