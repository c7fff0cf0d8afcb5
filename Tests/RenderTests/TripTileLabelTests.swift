import Foundation
import Geo
import Raster
import Styling
import Testing
import TripModel

@testable import Basemap
@testable import Render

/// Map tiles with a trip on top (DESIGN §7, §15): street names placed clear of the trip's
/// route and pins, over whole label blocks, on the project's Helsinki tiles.
@Suite struct TripTileLabelTests {
    static let zoom = 16

    /// A route laid along a label of the plain tile (through the middle of its letters), and
    /// the tile it was found on: a label the plain tile draws under the route.
    static func routeUnderALabel() throws -> (tile: TileID, route: [LatLng]) {
        let basemap = try #require(try HelsinkiSample.basemapLayer().basemap(named: "openmaptiles-day"))
        let tile = MapTilesTests.tile(zoom: zoom)
        let plain = try #require(basemap.drawTile(tile, scale: 1))
        // The widest label box drawn wholly on this tile (a point label's text, or a glyph of a
        // street name).
        let area = Rect(x: 0, y: 0, width: 256, height: 256)
        let box = try #require(plain.stats.labelBoxes.filter { area.contains($0) }.max { $0.width < $1.width }, "the plain tile draws a label")
        let y = box.y + box.height / 2
        let route = [box.x - 40, box.x + box.width / 2, box.maxX + 40].map { x in
            WebMercator.latLng(x: Double(tile.x * 256) + x, y: Double(tile.y * 256) + y, zoom: Double(zoom))
        }
        return (tile, route)
    }

    static func trip(along route: [LatLng]) -> Trip {
        var trip = Trip(name: "providers/p/trips/t1")
        trip.tripStatus = .enrouteToDropoff
        trip.dropoffPoint = TerminalLocation(point: route[route.count - 1])
        trip.remainingWaypoints = [
            TripWaypoint(
                location: trip.dropoffPoint, tripId: "t1", waypointType: .dropOff, encodedPathToWaypoint: EncodedPolyline.encode(route))
        ]
        return trip
    }

    /// A label the plain tile draws under the route is not under it on the trip's tile: no
    /// label box of the trip's tile meets the route's stroke or the dropoff pin.
    @Test func labelsKeepClearOfTheTrip() throws {
        let (tile, route) = try Self.routeUnderALabel()
        let basemap = try #require(try HelsinkiSample.basemapLayer().basemap(named: "openmaptiles-day"))
        let style = try StyleLibrary.bundled().defaultStyle
        let trip = TripTileObstacles(trip: Self.trip(along: route), style: style, styleTag: "test")
        let blockView = try #require(Basemap.labelBlockView(containing: tile, scale: 1))
        let obstacles = trip.obstacles(in: blockView)
        #expect(obstacles.contains { if case .line = $0 { true } else { false } }, "the route is an obstacle")
        #expect(obstacles.contains { if case .box = $0 { true } else { false } }, "the dropoff pin is an obstacle")
        let shift = Self.shift(of: tile)
        let plain = try #require(basemap.drawTile(tile, scale: 1))
        #expect(plain.stats.labelBoxes.contains { Self.meets($0, obstacles, shift: shift) }, "the plain tile has a label under the trip")
        let avoiding = try #require(basemap.drawTile(tile, scale: 1, keepOut: TileKeepOut(key: trip.key, obstacles: obstacles)))
        #expect(avoiding.stats.labels > 0, "the trip's tile still names streets")
        let under = avoiding.stats.labelBoxes.filter { Self.meets($0, obstacles, shift: shift) }
        #expect(under.isEmpty, "labels under the trip: \(under)")
    }

    /// MapTiles answers the plain tile where the trip touches none of the tile's label block,
    /// and elsewhere a tile of its own under a tag with the trip's key; the key follows the
    /// route and the style sheet's tag.
    @Test func tilesAwayFromTheTripArePlain() throws {
        let (tile, route) = try Self.routeUnderALabel()
        let tiles = MapTiles(layer: try HelsinkiSample.basemapLayer())
        let style = try StyleLibrary.bundled().defaultStyle
        let trip = TripTileObstacles(trip: Self.trip(along: route), style: style, styleTag: "test")
        let plainTag = try #require(tiles.tag(style: "openmaptiles-day", tile: tile, scale: 1))
        #expect(tiles.tag(style: "openmaptiles-day", tile: tile, scale: 1, avoiding: trip) == plainTag + trip.key)
        guard case .picture(let png, let tag)? = tiles.tile(style: "openmaptiles-day", tile: tile, scale: 1, avoiding: trip),
            case .picture(let plainPNG, _)? = tiles.tile(style: "openmaptiles-day", tile: tile, scale: 1)
        else {
            Issue.record("no pictures")
            return
        }
        #expect(tag == plainTag + trip.key)
        #expect(png != plainPNG, "a label moved off the route")
        // Two blocks away the trip lies on nothing: the plain tile, under the plain tag.
        let far = TileID(zoom: tile.zoom, x: tile.x + 8, y: tile.y)
        #expect(
            tiles.tag(style: "openmaptiles-day", tile: far, scale: 1, avoiding: trip) == tiles.tag(style: "openmaptiles-day", tile: far, scale: 1))
        #expect(
            tiles.tile(style: "openmaptiles-day", tile: far, scale: 1, avoiding: trip) == tiles.tile(style: "openmaptiles-day", tile: far, scale: 1))
        // Another route, another style sheet version: another key.
        let moved = TripTileObstacles(trip: Self.trip(along: Array(route.dropLast())), style: style, styleTag: "test")
        let restyled = TripTileObstacles(trip: Self.trip(along: route), style: style, styleTag: "test-2")
        #expect(Set([trip.key, moved.key, restyled.key]).count == 3)
        #expect(TripTileObstacles(trip: Self.trip(along: route), style: style, styleTag: "test").key == trip.key)
    }

    /// Where `tile`'s top-left corner lies in its label block's view.
    static func shift(of tile: TileID) -> Point {
        let block = LabelBlock(containing: tile)
        let (x, y) = block.shift(of: tile, scale: 1)
        return Point(Double(x), Double(y))
    }

    /// True when `box` (tile pixels) meets an obstacle (block pixels): a box, or a line's stroke.
    static func meets(_ box: Rect, _ obstacles: [LabelObstacle], shift: Point) -> Bool {
        let moved = Rect(x: box.x + shift.x, y: box.y + shift.y, width: box.width, height: box.height)
        return obstacles.contains { obstacle in
            switch obstacle {
            case .box(let rect): return rect.intersects(moved)
            case .line(let points, let width):
                for (a, b) in zip(points, points.dropFirst()) {
                    let length = max(hypot(b.x - a.x, b.y - a.y), 1e-9)
                    var t = 0.0
                    while t <= length {
                        let p = Point(a.x + (b.x - a.x) * t / length, a.y + (b.y - a.y) * t / length)
                        let dx = max(moved.x - p.x, 0, p.x - moved.maxX)
                        let dy = max(moved.y - p.y, 0, p.y - moved.maxY)
                        if hypot(dx, dy) < width / 2 { return true }
                        t += 0.5
                    }
                }
                return false
            }
        }
    }
}
