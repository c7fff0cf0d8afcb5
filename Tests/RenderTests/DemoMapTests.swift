import Foundation
import Geo
import Navigation
import Raster
import Styling
import Testing
import TripModel

@testable import Basemap
@testable import Render

/// Whether a label box clashes with what is drawn over the map: an independent oracle (it
/// samples each line segment every quarter pixel) for the placer's own collision test.
enum LabelClash {
    /// The label boxes that overlap a box obstacle's interior, or come within half a line's
    /// width of a line obstacle.
    static func clashes(_ labels: [Rect], _ obstacles: [LabelObstacle]) -> [Rect] {
        labels.filter { label in obstacles.contains { clash(label, $0) } }
    }

    static func clash(_ label: Rect, _ obstacle: LabelObstacle) -> Bool {
        switch obstacle {
        case .box(let box):
            return label.intersects(box)
        case .line(let points, let width):
            let half = width / 2
            for (a, b) in zip(points, points.dropFirst()) {
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                let steps = max(1, Int(length * 4))
                for k in 0...steps {
                    let t = Double(k) / Double(steps)
                    let p = Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
                    let dx = max(label.x - p.x, 0, p.x - label.maxX)
                    let dy = max(label.y - p.y, 0, p.y - label.maxY)
                    if (dx * dx + dy * dy).squareRoot() < half - 1e-9 { return true }
                }
            }
            return false
        }
    }
}

/// The demo's pictures (DESIGN §7, §9): golden previews and driver's screens over the
/// project's own Helsinki map, each looked at when recorded, in which no street or place name
/// lies under the route's stroke or a marker, and the route's own street is still named.
@Suite struct DemoMapTests {
    struct PreviewCase: Sendable, CustomTestStringConvertible {
        var name: String
        var parameters: [String: String] = [:]
        var share = 0.4
        /// Whether the picture is big enough to have street names beside the trip.
        var named = true
        var testDescription: String { name }
    }

    static let previewCases = [
        PreviewCase(name: "demo-preview-fitted"),
        PreviewCase(name: "demo-preview-start-zoom16", parameters: ["zoom": "16"], share: 0),
        PreviewCase(name: "demo-preview-phone-night", parameters: ["width": "390", "height": "300", "scale": "2", "lighting": "lowLight"]),
        PreviewCase(name: "demo-preview-small", parameters: ["width": "200", "height": "150"], share: 0.8, named: false),
    ]

    /// A preview of the demo trip with the car `share` of the way to the pickup, over the map.
    private static func preview(share: Double, parameters: [String: String] = [:]) throws -> TripPreview {
        TripPreview(
            trip: try HelsinkiSample.trip(share: share), style: try GoldenSupport.style("default"),
            options: try PreviewOptions(parameters: parameters), now: fixtureTime, basemap: try HelsinkiSample.basemapLayer())
    }

    /// Previews of the demo trip: labels clear of the route and the markers, and the golden.
    @Test(arguments: previewCases) func previewLabelsAvoidTheTrip(_ test: PreviewCase) throws {
        let preview = try Self.preview(share: test.share, parameters: test.parameters)
        let drawn = try preview.drawn()
        let obstacles = try preview.composition(layers: .all).keepOut
        #expect(obstacles.contains { if case .line = $0 { true } else { false } }, "the route's strokes are obstacles")
        #expect(!test.named || !drawn.labelBoxes.isEmpty, "the map has street names")
        let clashes = LabelClash.clashes(drawn.labelBoxes, obstacles)
        #expect(clashes.isEmpty, "\(clashes.count) label boxes under the trip: \(clashes.prefix(3))")
        try GoldenSupport.check(drawn.canvas.image, list: try preview.displayList(), golden: test.name)
    }

    /// Without the route as an obstacle a street name would lie under it: the test can fail.
    @Test func withoutObstaclesANameLiesUnderTheRoute() throws {
        let preview = try Self.preview(share: 0.4)
        let composed = try preview.composition(layers: .all)
        let basemap = try #require(preview.mapBasemap)
        var canvas = Canvas(width: 640, height: 480)
        let free = basemap.draw(into: &canvas, view: MapView(camera: composed.camera)).labelBoxes
        #expect(!LabelClash.clashes(free, composed.keepOut).isEmpty)
    }

    /// A street the route runs along is named beside the line instead of under it.
    @Test func theRoutesStreetIsNamedBesideIt() throws {
        let preview = try Self.preview(share: 0.4)
        let composed = try preview.composition(layers: .all)
        let basemap = try #require(preview.mapBasemap)
        var canvas = Canvas(width: 640, height: 480)
        let labels = basemap.placedLabels(into: &canvas, view: MapView(camera: composed.camera), keepOut: composed.keepOut)
        let lines = composed.keepOut.filter { if case .line = $0 { true } else { false } }
        // Names placed along a road whose glyphs lie within a few pixels of the route's stroke:
        // beside it, not under it.
        let beside = labels.filter { label in
            label.boxes.count > 1 && label.boxes.allSatisfy { box in lines.contains { LabelClash.clash(box.insetBy(-6), $0) } }
        }
        #expect(!beside.isEmpty, "some street the route follows is named along its side; placed: \(labels.map(\.text))")
    }

    /// A fitted preview keeps every marker whole and the ETA badge inside the picture, clear of
    /// the attribution, which is drawn whole, at every size (DESIGN §7).
    @Test(arguments: [(200, 150, 1), (320, 240, 2), (390, 844, 1), (640, 480, 1), (1280, 800, 1), (900, 220, 2)])
    func fittedPreviewKeepsEverythingWhole(width: Int, height: Int, scale: Int) throws {
        for share in [0.0, 0.5, 0.95] {
            let preview = try Self.preview(share: share, parameters: ["width": "\(width)", "height": "\(height)", "scale": "\(scale)"])
            let drawn = try preview.drawn()
            #expect(try preview.camera().zoom > 12, "\(width)×\(height)@\(scale), car at \(share): the trip is seen, not shrunk to a dot")
            let picture = Rect(x: 0, y: 0, width: Double(width * scale), height: Double(height * scale))
            let attribution = try #require(drawn.attributionBox, "\(width)×\(height)@\(scale): an attribution")
            #expect(picture.contains(attribution))
            let boxes = try preview.composition(layers: .all).keepOut.compactMap { if case .box(let box) = $0 { box } else { nil } }
            #expect(boxes.count == 4, "vehicle, pickup, dropoff and the badge")
            for box in boxes {
                #expect(picture.contains(box), "\(width)×\(height)@\(scale), car at \(share): \(box) is cut by the edge")
                #expect(!box.intersects(attribution), "\(width)×\(height)@\(scale), car at \(share): \(box) is under the attribution")
            }
        }
    }

    // MARK: - The driver's screen

    /// A driver's screen on the demo route over the Helsinki map.
    private func screen(at fraction: Double, stop: DriverStop? = nil, query: [String: String] = [:]) throws -> NavigationScreen {
        let data = try Data(contentsOf: HelsinkiSample.dataSamples.appendingPathComponent("helsinki-demo-route.osrm.json"))
        let route = try OSRMImporter.route(from: data)
        let line = try #require(PolylineMeasure(try route.validate()))
        let (navigator, vehicle) = try NavigationFixtures.drive(route, to: line.totalMeters * fraction, speed: 8)
        let style = try GoldenSupport.style("default")
        return NavigationScreen(
            navInfo: navigator.navInfo, route: try NavigationRouteGeometry(route: route), vehicle: vehicle,
            arrived: navigator.arrivedDestinationIndex == route.destinations.count - 1, stop: stop, style: style,
            options: try NavigationScreenOptions(parameters: query, now: NavigationFixtures.at),
            underlay: try HelsinkiSample.basemapLayer().underlay(for: style))
    }

    struct ScreenCase: Sendable, CustomTestStringConvertible {
        var name: String
        var fraction: Double
        var stop: DriverStop?
        var query: [String: String] = [:]
        var testDescription: String { name }
    }

    static let screenCases = [
        ScreenCase(name: "demo-enroute", fraction: 0.25),
        ScreenCase(name: "demo-overview-night", fraction: 0.1, query: ["camera": "overview", "lighting": "lowLight"]),
        ScreenCase(name: "demo-waiting-at-pickup", fraction: 0.587, stop: .waitingForRider(place: "Kaivokatu 8")),
        ScreenCase(name: "demo-trip-complete", fraction: 1, stop: .tripComplete(place: "Fabianinkatu 16")),
    ]

    /// Screens along the demo route: labels clear of the route, the markers and the panels.
    @Test(arguments: screenCases) func screenLabelsAvoidTheTrip(_ test: ScreenCase) throws {
        let screen = try screen(at: test.fraction, stop: test.stop, query: test.query)
        let frame = try screen.render()
        #expect(!frame.labelBoxes.isEmpty, "the map has street names")
        let panels = frame.layout.rects.filter { $0.name != "map" }.map { LabelObstacle.box($0.rect.scaled(by: Double(frame.layout.scale))) }
        let clashes = LabelClash.clashes(frame.labelBoxes, frame.mapObstacles + panels)
        #expect(clashes.isEmpty, "\(clashes.count) label boxes under the route, a marker or a panel: \(clashes.prefix(3))")
        // The attribution is whole, on the map, and no button or panel hides it.
        let attribution = try #require(frame.attributionBox)
        let map = try #require(frame.layout["map"]).scaled(by: Double(frame.layout.scale))
        #expect(map.contains(attribution), "\(attribution) outside the map \(map)")
        let hidden = frame.layout.rects.filter { $0.name != "map" && $0.rect.scaled(by: Double(frame.layout.scale)).intersects(attribution) }
        #expect(hidden.isEmpty, "the attribution is under \(hidden.map(\.name))")
        try FrameGoldens.check(frame, golden: test.name)
    }

    /// At a stop the header says so, with the place, instead of a "0 m" maneuver.
    @Test func stopsAreWorded() throws {
        #expect(DriverStop.arrived(place: "Kaivokatu 8").text == "You have arrived · Kaivokatu 8")
        #expect(DriverStop.waitingForRider(place: nil).text == "Waiting for your rider")
        #expect(DriverStop.tripComplete(place: "Fabianinkatu 16").text == "Trip complete · Fabianinkatu 16")
        let waiting = try screen(at: 0.587, stop: .waitingForRider(place: "Kaivokatu 8"))
        guard case .stop(.waitingForRider(let place))? = waiting.headerContent() else {
            Issue.record("the header shows \(String(describing: waiting.headerContent()))")
            return
        }
        #expect(place == "Kaivokatu 8")
        #expect(try waiting.layout()["footer"] == nil, "no time and distance to the next stop while waiting")
        // The final arrival without a stop from the application names the route's destination.
        let arrived = try screen(at: 1)
        #expect(arrived.arrived)
        guard case .stop(.arrived(let name))? = arrived.headerContent() else {
            Issue.record("the header shows \(String(describing: arrived.headerContent()))")
            return
        }
        #expect(name == "Fabianinkatu 16")
    }
}
