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

    /// The room the tiles keep for the pickup's badge holds every text the badge can show
    /// (a pickup up to 100 days away), in the badge's font.
    @Test func reservedBadgeHoldsEveryText() throws {
        let font = try Font.dejaVuSans(bold: true)
        let reserved = try TextLayout(text: TripTileObstacles.reservedBadgeText, font: font, size: 13).width
        let minutes = Array(1...(48 * 60)) + stride(from: 48 * 60, to: 100 * 24 * 60, by: 59)
        for minute in minutes {
            let text = NavigationText.duration(Double(minute) * 60)
            #expect(try TextLayout(text: text, font: font, size: 13).width <= reserved + 1e-9, "\(text)")
        }
        #expect(try TextLayout(text: "Now", font: font, size: 13).width <= reserved)
    }

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

    /// A trip on its way to a pickup at `pickup`, with its routes coming from below (from
    /// `below` pixels under the pickup at this zoom) and leaving downwards.
    static func tripToPickup(at pickup: LatLng, below: Double) -> Trip {
        let world = WebMercator.worldPoint(pickup, zoom: Double(zoom))
        let under = WebMercator.latLng(x: world.x, y: world.y + below, zoom: Double(zoom))
        let away = WebMercator.latLng(x: world.x + below, y: world.y + below, zoom: Double(zoom))
        var trip = Trip(name: "providers/p/trips/t1")
        trip.tripStatus = .enrouteToPickup
        trip.pickupPoint = TerminalLocation(point: pickup)
        trip.dropoffPoint = TerminalLocation(point: away)
        var toPickup = TripWaypoint(
            location: trip.pickupPoint, tripId: "t1", waypointType: .pickup, encodedPathToWaypoint: EncodedPolyline.encode([under, pickup]))
        toPickup.eta = Timestamp(microseconds: 3_600_000_000)
        trip.remainingWaypoints = [
            toPickup,
            TripWaypoint(
                location: trip.dropoffPoint, tripId: "t1", waypointType: .dropOff, encodedPathToWaypoint: EncodedPolyline.encode([pickup, away])),
        ]
        return trip
    }

    /// The ETA badge is an obstacle too: a label of the plain tile that the badge above a
    /// pickup would cover (the pin and the routes lie below it) is not under it on the trip's
    /// tile; the badge's room does not change with the minutes, so neither does the key.
    @Test func labelsKeepClearOfTheETABadge() throws {
        let basemap = try #require(try HelsinkiSample.basemapLayer().basemap(named: "openmaptiles-day"))
        let tile = MapTilesTests.tile(zoom: Self.zoom)
        let plain = try #require(basemap.drawTile(tile, scale: 1))
        let area = Rect(x: 0, y: 0, width: 256, height: 256)
        let label = try #require(plain.stats.labelBoxes.filter { area.contains($0) }.max { $0.width < $1.width }, "the plain tile draws a label")
        let style = try StyleLibrary.bundled().defaultStyle
        let blockView = try #require(Basemap.labelBlockView(containing: tile, scale: 1))
        let shift = Self.shift(of: tile)
        func point(_ x: Double, _ y: Double) -> LatLng {
            WebMercator.latLng(x: Double(tile.x * 256) + x, y: Double(tile.y * 256) + y, zoom: Double(Self.zoom))
        }
        // A pickup under the label's middle, then moved so that its badge's middle lies on the
        // label's (the badge is the box above the pin's: the highest obstacle).
        var pickup = (x: label.x + label.width / 2, y: label.maxY + 40)
        var obstacles: [LabelObstacle] = []
        for _ in 0..<2 {
            let trip = TripTileObstacles(trip: Self.tripToPickup(at: point(pickup.x, pickup.y), below: 300), style: style, styleTag: "test")
            obstacles = trip.obstacles(in: blockView)
            let boxes = obstacles.compactMap { if case .box(let rect) = $0 { rect } else { nil } }
            let badge = try #require(boxes.min { $0.y < $1.y }, "the pin and the badge are obstacles")
            pickup.y += (label.y + label.height / 2) - (badge.y + badge.height / 2 - shift.y)
        }
        let boxes = obstacles.compactMap { if case .box(let rect) = $0 { rect } else { nil } }
        #expect(boxes.count == 3, "the pickup's pin, its badge and the dropoff's pin: \(boxes)")
        #expect(Self.meets(label, obstacles, shift: shift), "the plain tile's label lies under the badge")
        let trip = TripTileObstacles(trip: Self.tripToPickup(at: point(pickup.x, pickup.y), below: 300), style: style, styleTag: "test")
        let avoiding = try #require(basemap.drawTile(tile, scale: 1, keepOut: TileKeepOut(key: trip.key, obstacles: trip.obstacles(in: blockView))))
        #expect(avoiding.stats.labels > 0, "the trip's tile still names streets")
        let under = avoiding.stats.labelBoxes.filter { Self.meets($0, obstacles, shift: shift) }
        #expect(under.isEmpty, "labels under the trip or its badge: \(under)")
        // Another ETA (another minute): the same room, the same key.
        var later = Self.tripToPickup(at: point(pickup.x, pickup.y), below: 300)
        later.remainingWaypoints[0].eta = Timestamp(microseconds: 3_660_000_000)
        #expect(TripTileObstacles(trip: later, style: style, styleTag: "test").key == trip.key)
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
