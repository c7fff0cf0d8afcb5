// The built-in marker icons (DESIGN §7): a car seen from above (nose up, so a flat marker
// turns it by heading), pickup and dropoff pins that differ in shape as well as colour (a
// round and a square eye, for colour-blind riders), and a round stop marker whose number
// Render writes on top. Sizes are pixels at scale 1.

import Raster
import Styling

extension VectorIcon {
    /// The icon for a built-in name.
    static func builtin(_ icon: BuiltinIcon) -> VectorIcon {
        switch icon {
        case .vehicle: vehicle
        case .pickup: pickupPin
        case .dropoff: dropoffPin
        case .stop: stop
        }
    }

    /// A white car from above, 18 × 36, nose up, with a soft shadow.
    static let vehicle = car(
        body: .white, rim: .rgb(0x80868B), glass: .rgb(0x3C4043),
        roof: [
            Shape(path: .roundedRectangle(x: 4.2, y: 14.8, width: 9.6, height: 11, radius: 2), fill: .rgb(0xE8EAED))
        ])

    /// A car from above, 18 × 36, nose up: shadow, body, `roof` shapes, windows, mirrors and lights.
    static func car(body: Color, rim: Color, glass: Color, roof: [Shape]) -> VectorIcon {
        var windshield = Path()
        windshield.move(to: Point(3.6, 10.5))
        windshield.quad(to: Point(14.4, 10.5), control: Point(9, 8.4))
        windshield.line(to: Point(13, 14.6))
        windshield.quad(to: Point(5, 14.6), control: Point(9, 13.8))
        windshield.close()
        var rearWindow = Path()
        rearWindow.move(to: Point(5, 26.2))
        rearWindow.quad(to: Point(13, 26.2), control: Point(9, 25.6))
        rearWindow.line(to: Point(14, 29.2))
        rearWindow.quad(to: Point(4, 29.2), control: Point(9, 30.2))
        rearWindow.close()
        let trim = Color.rgb(0x5F6368)
        return VectorIcon(
            width: 18, height: 36,
            shapes: [
                Shape(path: .roundedRectangle(x: 0, y: 0.5, width: 18, height: 37, radius: 7.5), fill: .rgb(0x000000, alpha: 0x18)),
                Shape(path: .roundedRectangle(x: 0.75, y: 1, width: 16.5, height: 35.5, radius: 6.8), fill: .rgb(0x000000, alpha: 0x22)),
                Shape(path: .roundedRectangle(x: 1.5, y: 1, width: 15, height: 34, radius: 6), fill: body, stroke: rim, strokeWidth: 0.9),
            ] + roof + [
                Shape(path: windshield, fill: glass),
                Shape(path: rearWindow, fill: glass),
                Shape(path: .roundedRectangle(x: 3.2, y: 15.4, width: 1.1, height: 9.8, radius: 0.5), fill: trim),
                Shape(path: .roundedRectangle(x: 13.7, y: 15.4, width: 1.1, height: 9.8, radius: 0.5), fill: trim),
                Shape(path: .ellipse(center: Point(1.4, 12.2), radiusX: 1.3, radiusY: 0.9), fill: trim),
                Shape(path: .ellipse(center: Point(16.6, 12.2), radiusX: 1.3, radiusY: 0.9), fill: trim),
                Shape(path: .roundedRectangle(x: 3.6, y: 1.9, width: 3, height: 1.5, radius: 0.7), fill: .rgb(0xFBBC04)),
                Shape(path: .roundedRectangle(x: 11.4, y: 1.9, width: 3, height: 1.5, radius: 0.7), fill: .rgb(0xFBBC04)),
                Shape(path: .roundedRectangle(x: 3.6, y: 32.7, width: 3, height: 1.3, radius: 0.6), fill: .rgb(0xD93025)),
                Shape(path: .roundedRectangle(x: 11.4, y: 32.7, width: 3, height: 1.3, radius: 0.6), fill: .rgb(0xD93025)),
            ])
    }

    /// A pin 26 × 36 with its tip at the bottom centre, in `color` with a darker rim, a
    /// ground shadow and a white `eye`.
    private static func pin(color: Color, rim: Color, eye: Path) -> VectorIcon {
        VectorIcon(
            width: 26, height: 36,
            shapes: [
                Shape(path: .ellipse(center: Point(13, 35), radiusX: 5, radiusY: 1.8), fill: .rgb(0x000000, alpha: 0x40)),
                Shape(path: .pin(centerX: 13, top: 1, radius: 12, tipY: 35), fill: color, stroke: rim, strokeWidth: 1),
                Shape(path: eye, fill: .white),
            ])
    }

    /// The pickup pin: green, round white eye.
    static let pickupPin = pin(
        color: .rgb(0x188038), rim: .rgb(0x0D5D2A),
        eye: .circle(center: Point(13, 13), radius: 4.6))

    /// The dropoff pin: red, square white eye.
    static let dropoffPin = pin(
        color: .rgb(0xD93025), rim: .rgb(0x9E1C15),
        eye: .roundedRectangle(x: 9, y: 9, width: 8, height: 8, radius: 1.2))

    /// A stop: a white disc 20 × 20 with a dark ring (its number is drawn as text).
    static let stop = VectorIcon(
        width: 20, height: 20,
        shapes: [
            Shape(path: .circle(center: Point(10, 10.6), radius: 9.6), fill: .rgb(0x000000, alpha: 0x30)),
            Shape(path: .circle(center: Point(10, 10), radius: 8.6), fill: .white, stroke: .rgb(0x202124), strokeWidth: 2),
        ])

    /// Ink colour of a stop's number.
    static let stopNumberColor = Color.rgb(0x202124)
}
