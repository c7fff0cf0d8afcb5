import Foundation
import Geo
import Raster
import Testing

@testable import Basemap

/// A view deep past the archive's zoom shows a sliver of a tile: the features elsewhere in the
/// tile are not drawn at all (they cannot change a pixel), while those on the canvas are.
@Suite struct BasemapCullingTests {
    /// One z14 tile with a small water square at its centre, another in a far corner, and a
    /// road along the far edge.
    static let basemap: Basemap = {
        let tile = TileBuilder.tile([
            "water": [
                TileBuilder.Feature(type: .polygon, parts: [[(2000, 2000), (2100, 2000), (2100, 2100), (2000, 2100)]]),
                TileBuilder.Feature(type: .polygon, parts: [[(100, 100), (200, 100), (200, 200), (100, 200)]]),
            ],
            "roads": [TileBuilder.Feature(type: .lineString, parts: [[(100, 3900), (3900, 3900)]], properties: ["name": "Far Road"])],
        ])
        let source = BasemapDrawingTests.source([TileID(zoom: 14, x: 9326, y: 4740): tile])
        return Basemap(source: source, style: BasemapDrawingTests.style)
    }()

    /// The tile's point (x, y) in tile units as a location.
    static func location(_ x: Double, _ y: Double) -> LatLng {
        WebMercator.latLng(x: (9326 + x / 4096) * 256, y: (4740 + y / 4096) * 256, zoom: 14)
    }

    /// The rings of the fills in the reference display list.
    static func fillRings(_ view: MapView) -> Int {
        basemap.geometryDisplayList(view: view).operations.reduce(0) { count, operation in
            guard case .fill(let fill) = operation, fill.color == BasemapDrawingTests.water else { return count }
            return count + fill.path.elements.filter { if case .move = $0 { true } else { false } }.count
        }
    }

    @Test func featuresOffTheCanvasAreNotDrawn() {
        let deep = MapView(center: Self.location(2050, 2050), zoom: 19, width: 200, height: 150)
        #expect(Self.fillRings(deep) == 1)
        let strokes = Self.basemap.geometryDisplayList(view: deep).operations.filter {
            if case .stroke(let stroke) = $0 { !stroke.path.elements.isEmpty } else { false }
        }
        #expect(strokes.isEmpty, "the far road is not stroked")
        var canvas = Canvas(width: 200, height: 150)
        Self.basemap.draw(into: &canvas, view: deep)
        #expect(canvas.pixel(x: 100, y: 75) == BasemapDrawingTests.water.premultiplied)
    }

    @Test func theWholeTileInViewDrawsEverything() {
        let whole = MapView(center: Self.location(2048, 2048), zoom: 14.5, width: 400, height: 400)
        #expect(Self.fillRings(whole) == 2)
        let strokes = Self.basemap.geometryDisplayList(view: whole).operations.filter {
            if case .stroke(let stroke) = $0 { !stroke.path.elements.isEmpty } else { false }
        }
        #expect(strokes.count == 1)
    }

    /// A far feature just off the canvas is still drawn where its stroke reaches in.
    @Test func strokesReachingInAreDrawn() {
        // The road runs along y = 3900; centre the view so the road lies 2 px below its bottom
        // edge at zoom 19 (1 tile unit = 2 px), inside the 6 px wide stroke's reach.
        let view = MapView(center: Self.location(2000, 3900 - 77.0 / 2), zoom: 19, width: 200, height: 150)
        var canvas = Canvas(width: 200, height: 150)
        Self.basemap.draw(into: &canvas, view: view)
        #expect(canvas.pixel(x: 10, y: 149) == Color(red: 0, green: 0, blue: 0).premultiplied, "the road's edge shows")
        #expect(canvas.pixel(x: 10, y: 140) == Color(red: 255, green: 255, blue: 255).premultiplied)
    }
}
