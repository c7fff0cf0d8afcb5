import Foundation
import Testing

@testable import Raster

/// The display-list fixtures written by scripts/generate/route_scenes.py.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let names = ["route-2k", "route-20k", "scene-2k", "scene-20k"]

    static func displayList(_ name: String) throws -> DisplayList {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
        return try JSONDecoder().decode(DisplayList.self, from: data)
    }
}

@Suite struct DisplayListTests {
    /// Every operation survives a JSON round trip unchanged.
    @Test func jsonRoundTrip() throws {
        var path = Path()
        path.move(to: Point(1, 2))
        path.line(to: Point(3, 4))
        path.quad(to: Point(5, 6), control: Point(4, 7))
        path.cubic(to: Point(9, 9), control1: Point(6, 7), control2: Point(8, 8))
        path.close()
        let icon = try PNGCodec.decode(PNGCodec.encode(Canvas(width: 2, height: 2, background: Color(red: 1, green: 2, blue: 3, alpha: 128)).image))
        let list = DisplayList(
            width: 10, height: 10, background: .white,
            operations: [
                .fill(.init(path: path, color: Color(red: 10, green: 20, blue: 30), rule: .evenOdd, transform: .scale(x: 2, y: 2))),
                .stroke(.init(path: path, color: .black, style: StrokeStyle(width: 2, cap: .square, join: .miter, miterLimit: 4))),
                .polyline(.init(points: [Point(0, 0), Point(5, 5)], color: .black, style: StrokeStyle(width: 3), opacity: 0.5)),
                .circle(.init(center: Point(5, 5), radius: 3, fill: .white, stroke: .black, strokeWidth: 1)),
                .roundedRectangle(.init(x: 1, y: 1, width: 6, height: 4, radius: 2, fill: .black)),
                .image(.init(image: icon, transform: .rotation(radians: 0.5))),
                .text(.init(text: "Hi", origin: Point(1, 8), size: 8, color: .black, bold: true)),
            ])
        let data = try JSONEncoder().encode(list)
        #expect(try JSONDecoder().decode(DisplayList.self, from: data) == list)
        #expect(String(decoding: data, as: UTF8.self).contains("\"op\":\"roundedRect\""))
    }

    /// Unknown operations and bad colours are rejected when decoding.
    @Test func rejectsBadJSON() {
        let unknown = #"{"width":1,"height":1,"ops":[{"op":"sparkle"}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DisplayList.self, from: Data(unknown.utf8)) }
        let badColor =
            #"{"width":1,"height":1,"ops":[{"op":"polyline","points":[[0,0]],"color":"blue","style":{"width":1,"cap":"round","join":"round","miterLimit":10}}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DisplayList.self, from: Data(badColor.utf8)) }
    }

    /// A display list draws exactly what the same canvas calls draw.
    @Test func executesLikeDirectCalls() throws {
        let points = [Point(3, 3), Point(30, 12), Point(8, 28)]
        let style = StrokeStyle(width: 5)
        let list = DisplayList(
            width: 40, height: 40, background: .white,
            operations: [
                .polyline(.init(points: points, color: Color(red: 66, green: 133, blue: 244), style: style)),
                .circle(.init(center: Point(20, 20), radius: 6, fill: Color(red: 200, green: 0, blue: 0, alpha: 200))),
            ])
        var direct = Canvas(width: 40, height: 40, background: .white)
        direct.stroke(polyline: points, style: style, color: Color(red: 66, green: 133, blue: 244))
        direct.fill(.circle(center: Point(20, 20), radius: 6), color: Color(red: 200, green: 0, blue: 0, alpha: 200))
        #expect(try list.render().image == direct.image)
    }

    /// Renders reuse buffers grown by earlier ones (of other sizes, with more cells) and
    /// still draw what a canvas with fresh buffers draws.
    @Test func rendersAlikeAfterOtherRenders() throws {
        let scene = try Fixtures.displayList("scene-20k")
        var fresh = Canvas(width: scene.width, height: scene.height, background: scene.background ?? .transparent)
        try fresh.execute(scene)
        let small = DisplayList(
            width: 40, height: 30, background: .white,
            operations: [.circle(.init(center: Point(20, 15), radius: 9, fill: .black, stroke: .white, strokeWidth: 2))])
        var smallFresh = Canvas(width: 40, height: 30, background: .white)
        try smallFresh.execute(small)
        for _ in 0..<2 {
            #expect(try scene.render().image == fresh.image)
            #expect(try small.render().image == smallFresh.image)
        }
    }

    /// The route fixtures decode and draw the route (blue pixels present, background kept).
    @Test(arguments: Fixtures.names) func fixturesRender(name: String) throws {
        let list = try Fixtures.displayList(name)
        let image = try list.render().image
        #expect(image.width == 640 && image.height == 640)
        #expect(image.pixel(x: 0, y: 0) == Color(hex: "#E8EAED")?.premultiplied)
        let blue = Color(hex: "#4285F4")?.premultiplied
        let hasRoute = (0..<640).contains { y in (0..<640).contains { x in image.pixel(x: x, y: y) == blue } }
        #expect(hasRoute)
    }
}
