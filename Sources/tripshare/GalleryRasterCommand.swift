import ArgumentParser
import Foundation
import Raster

/// `tripshare gallery raster`: what the rasteriser draws, to look at.
struct GalleryRasterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Draw joins and caps, text and a rotated icon with the rasteriser (joins-caps.png, text.png, icon.png)."
    )

    @Option(help: "The folder to write the images to.")
    var out: String

    func run() throws {
        try GalleryCommand.write(try Self.joinsAndCaps(), "joins-caps.png", in: out)
        try GalleryCommand.write(try Self.text(), "text.png", in: out)
        try GalleryCommand.write(Self.rotatedIcon(), "icon.png", in: out)
    }

    /// Joins (miter, round, bevel) and caps (butt, round, square) on a zigzag with a reversal,
    /// and sub-pixel wiggles, short segments and a dense curve.
    static func joinsAndCaps() throws -> Image {
        var canvas = Canvas(width: 480, height: 300, background: .white)
        let joins: [LineJoin] = [.miter, .round, .bevel]
        let caps: [LineCap] = [.butt, .round, .square]
        for (index, join) in joins.enumerated() {
            let x = 20 + Double(index) * 155
            let points = [Point(x, 120), Point(x + 40, 30), Point(x + 70, 120), Point(x + 120, 60), Point(x + 60, 60)]
            canvas.stroke(
                polyline: points, style: StrokeStyle(width: 16, cap: caps[index], join: join),
                color: Color(red: 66, green: 133, blue: 244))
            canvas.stroke(polyline: points, style: StrokeStyle(width: 1, cap: .butt, join: .miter), color: .black)
        }
        var wiggle: [Point] = []
        for step in 0..<400 { wiggle.append(Point(20 + Double(step) * 1.1, 220 + 25 * sin(Double(step) / 9) + Double(step % 3) * 0.3)) }
        canvas.stroke(polyline: wiggle, style: StrokeStyle(width: 8), color: Color(red: 217, green: 48, blue: 37, alpha: 200))
        return canvas.image
    }

    /// Text at several sizes, regular and bold, on a badge sized from its measurement.
    static func text() throws -> Image {
        var canvas = Canvas(width: 360, height: 160, background: Color(red: 232, green: 234, blue: 237))
        let regular = try Font.dejaVuSans()
        let bold = try Font.dejaVuSans(bold: true)
        var y = 24.0
        for size in [10.0, 13.0, 17.5, 24.0] {
            try canvas.drawText("AV Wa 4 min · Tripshare", font: regular, size: size, at: Point(10.3, y), color: .black)
            y += size + 8
        }
        let label = try TextLayout(text: "12 min", font: bold, size: 16)
        let badge = (x: 230.0, y: 110.0, width: label.width + 24, height: label.ascent + label.descent + 10)
        canvas.fill(
            .roundedRectangle(x: badge.x, y: badge.y, width: badge.width, height: badge.height, radius: badge.height / 2),
            color: Color(red: 32, green: 33, blue: 36))
        try canvas.draw(label, at: Point(badge.x + 12, badge.y + 5 + label.ascent), color: .white)
        return canvas.image
    }

    /// An icon drawn at 1×, then scaled 3× and rotated by several headings.
    static func rotatedIcon() -> Image {
        var icon = Canvas(width: 24, height: 24)
        icon.fill(.circle(center: Point(12, 12), radius: 11), color: Color(red: 255, green: 255, blue: 255, alpha: 230))
        icon.fill(.polygon([Point(12, 3), Point(19, 20), Point(12, 16), Point(5, 20)]), color: Color(red: 26, green: 115, blue: 232))
        var canvas = Canvas(width: 420, height: 120, background: Color(red: 232, green: 234, blue: 237))
        canvas.draw(icon.image, transform: .translation(x: 10, y: 48))
        for (index, heading) in [0.0, 30, 90, 135, 200].enumerated() {
            let transform = Transform.translation(x: -12, y: -12)
                .scaledBy(x: 3, y: 3)
                .rotatedBy(radians: heading * Double.pi / 180)
                .translatedBy(x: 90 + Double(index) * 70, y: 60)
            canvas.draw(icon.image, transform: transform)
        }
        return canvas.image
    }
}
