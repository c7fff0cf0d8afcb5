import Foundation
import Geo
import Navigation
import Raster
import Styling
import Testing
import TripModel

@testable import Basemap
@testable import Render

/// The project's own Helsinki data (data-samples/: the demo's tiles and route), so these
/// tests run on a clone without ../shared.
enum HelsinkiSample {
    static let dataSamples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data-samples")
    static let tiles = dataSamples.appendingPathComponent("helsinki.pmtiles").path
    static let center = LatLng(latitude: 60.1699, longitude: 24.9410)

    /// One layer for every test: its decoded tiles are shared, as a server's are.
    static let layer: BasemapLayer? = try? BasemapLayer.open(path: tiles)

    static func basemapLayer() throws -> BasemapLayer {
        try #require(layer, "data-samples/helsinki.pmtiles cannot be opened")
    }

    /// The demo's route (real streets): its points, and the pickup's index.
    static func route() throws -> (points: [LatLng], pickupIndex: Int) {
        let data = try Data(contentsOf: dataSamples.appendingPathComponent("helsinki-demo-route.osrm.json"))
        let route = try OSRMImporter.route(from: data)
        return (try route.validate(), try #require(route.destinations.first).polylinePointIndex)
    }

    /// A rider's trip on the demo route: the car `share` of the way to the pickup, the ETA
    /// badge showing, the leg to the dropoff after it.
    static func trip(share: Double = 0.4) throws -> Trip {
        let (points, pickupIndex) = try route()
        let carIndex = Int(Double(pickupIndex) * share)
        var trip = Trip(name: "providers/demo/trips/helsinki")
        trip.tripStatus = .enrouteToPickup
        trip.vehicleId = "demo-car"
        trip.pickupPoint = TerminalLocation(point: points[pickupIndex])
        trip.dropoffPoint = TerminalLocation(point: points[points.count - 1])
        trip.lastLocation = VehicleLocation(location: points[carIndex])
        trip.remainingWaypoints = [
            TripWaypoint(
                location: trip.pickupPoint, tripId: "helsinki", waypointType: .pickup,
                encodedPathToWaypoint: EncodedPolyline.encode(Array(points[carIndex...pickupIndex])),
                eta: fixtureTime.adding(seconds: 100)),
            TripWaypoint(
                location: trip.dropoffPoint, tripId: "helsinki", waypointType: .dropOff,
                encodedPathToWaypoint: EncodedPolyline.encode(Array(points[pickupIndex...])),
                eta: fixtureTime.adding(seconds: 360)),
        ]
        return trip
    }
}

/// Previews over the basemap (DESIGN §7, §13): the map between the background and the
/// routes, street names clear of the markers and the badge, the style sheet choosing the
/// basemap style by lighting, and the basemap in the preview's digest.
@Suite struct BasemapPreviewTests {
    /// Style sheets may name exactly the basemap styles Basemap has built in.
    @Test func styleSheetsNameTheBuiltInBasemapStyles() throws {
        #expect(MapStyleOptions.basemapStyleNames == MapStyle.builtinNames)
        let day = try GoldenSupport.style("default").map
        let night = try GoldenSupport.style("night").map
        #expect(day.basemapStyle == "openmaptiles-day" && day.nightBasemapStyle == "openmaptiles-night")
        #expect(night.basemapStyle == "openmaptiles-night" && night.nightBasemapStyle == "openmaptiles-night")
    }

    /// The layer draws the style sheet's basemap style for the lighting, or the operator's one style always.
    @Test func layerChoosesTheStyle() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let map = try GoldenSupport.style("default").map
        #expect(layer.basemap(for: map, lighting: .normal).style.name == "openmaptiles-day")
        #expect(layer.basemap(for: map, lighting: .lowLight).style.name == "openmaptiles-night")
        let fixed = try BasemapLayer.open(path: HelsinkiSample.tiles, style: "openmaptiles-night")
        #expect(fixed.basemap(for: map, lighting: .normal).style.name == "openmaptiles-night")
    }

    /// The basemap's camera is the preview's: the same pixel for the same place.
    @Test func mapViewAgreesWithTheCamera() {
        let camera = Camera(center: HelsinkiSample.center, zoom: 15.3, bearing: 27, pixelWidth: 640, pixelHeight: 480, scale: 2)
        let view = MapView(camera: camera)
        for place in [LatLng(latitude: 60.171, longitude: 24.943), LatLng(latitude: 60.165, longitude: 24.937)] {
            let a = camera.point(place)
            let b = view.point(place)
            #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6)
        }
    }

    /// With a basemap the picture shows streets under the unchanged route and markers; without
    /// one (what `basemap=off` asks for) it is exactly the plain preview.
    @Test func basemapGoesUnderTheTrip() throws {
        let trip = try HelsinkiSample.trip()
        let style = try GoldenSupport.style("default")
        let plain = TripPreview(trip: trip, style: style, options: PreviewOptions(), now: fixtureTime)
        var mapped = plain
        mapped.basemap = try HelsinkiSample.basemapLayer()
        #expect(try plain.displayList() == mapped.displayList(), "the basemap changes nothing above it")
        let plainImage = try plain.render().image
        #expect(plainImage == (try plain.displayList().render().image))
        let mappedImage = try mapped.render().image
        var differing = 0
        var colours = Set<String>()
        for y in stride(from: 0, to: plainImage.height, by: 4) {
            for x in stride(from: 0, to: plainImage.width, by: 4) where plainImage.pixel(x: x, y: y) != mappedImage.pixel(x: x, y: y) {
                differing += 1
                colours.insert(mappedImage.color(atPoint: Double(x), Double(y), scale: 1).hex)
            }
        }
        #expect(differing > plainImage.width * plainImage.height / 16 / 2, "most of the picture is map")
        #expect(colours.count > 20, "streets, buildings, parks and names, not one flat colour")
    }

    /// The digest (and so the ETag) changes with the basemap drawn: none, the archive, the
    /// style the style sheet names, the lighting.
    @Test func fingerprintCoversTheBasemap() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let trip = try HelsinkiSample.trip()
        let day = try GoldenSupport.style("default")
        let night = try GoldenSupport.style("night")
        let plain = TripPreview(trip: trip, style: day, options: PreviewOptions(), now: fixtureTime)
        let mapped = TripPreview(trip: trip, style: day, options: PreviewOptions(), now: fixtureTime, basemap: layer)
        let nightSheet = TripPreview(trip: trip, style: night, options: PreviewOptions(), now: fixtureTime, basemap: layer)
        let nightLayer = try BasemapLayer.open(path: HelsinkiSample.tiles, style: "openmaptiles-night")
        let fixed = TripPreview(trip: trip, style: day, options: PreviewOptions(), now: fixtureTime, basemap: nightLayer)
        let prints = [plain, mapped, nightSheet, fixed].map(\.fingerprint)
        #expect(Set(prints).count == 3, "the night sheet and the fixed night style draw alike; the rest differ")
        #expect(prints[2] == prints[3])
        #expect(
            mapped.fingerprint
                == TripPreview(
                    trip: trip, style: day, options: PreviewOptions(), now: fixtureTime,
                    basemap: layer
                ).fingerprint)
    }

    /// Street names stay clear of the markers and the ETA badge: the preview hands the
    /// basemap every marker's icon box and the badge's box, and no label is placed in them.
    @Test func labelsKeepClearOfMarkersAndBadge() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let style = try GoldenSupport.style("default")
        let options = try PreviewOptions(parameters: ["center": "60.1699,24.9410", "zoom": "16.5"])
        let preview = TripPreview(
            trip: try HelsinkiSample.trip(share: 0.7), style: style, options: options, now: fixtureTime,
            basemap: layer)
        let composed = try preview.composition(layers: .all)
        let boxes = composed.keepOut.compactMap { if case .box(let box) = $0 { box } else { nil } }
        #expect(boxes.count == 4, "vehicle, pickup and dropoff icons, and the ETA badge")
        let basemap = try #require(preview.mapBasemap)
        var canvas = Canvas(width: 640, height: 480)
        let free = basemap.placedLabels(into: &canvas, view: MapView(camera: composed.camera), keepOut: [])
        let kept = basemap.placedLabels(into: &canvas, view: MapView(camera: composed.camera), keepOut: composed.keepOut)
        let clashes = { (labels: [PlacedLabel]) in
            labels.filter { label in label.boxes.contains { box in boxes.contains { $0.intersects(box) } } }.count
        }
        #expect(clashes(free) > 0, "without keep-outs some street name would be under a marker or the badge")
        #expect(clashes(kept) == 0)
        #expect(kept.count > 0)
    }
}

/// Golden previews over the Helsinki basemap, with and without a trip on top (looked at, each).
@Suite struct BasemapPreviewGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var style = "default"
        var parameters: [String: String] = [:]
        var withTrip = true
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "basemap-helsinki-map-alone-z15", parameters: ["center": "60.1699,24.9410", "zoom": "15"], withTrip: false),
        Case(name: "basemap-helsinki-trip-day"),
        Case(name: "basemap-helsinki-trip-night-style", style: "night"),
        Case(
            name: "basemap-helsinki-trip-lowlight-scale2-bearing",
            parameters: ["width": "320", "height": "240", "scale": "2", "bearing": "30", "lighting": "lowLight"]),
    ]

    @Test(arguments: cases) func matchesGolden(_ test: Case) throws {
        let trip = test.withTrip ? try HelsinkiSample.trip() : Trip(name: "")
        let preview = TripPreview(
            trip: trip, style: try GoldenSupport.style(test.style),
            options: try PreviewOptions(parameters: test.parameters), now: fixtureTime,
            basemap: try HelsinkiSample.basemapLayer())
        try GoldenSupport.check(try preview.render().image, list: try preview.displayList(), golden: test.name)
    }
}

/// The basemap as the navigation screen's map underlay.
@Suite struct BasemapUnderlayTests {
    /// It draws the style sheet's basemap style for the screen's lighting at the screen's camera.
    @Test func drawsTheMapForTheLighting() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let underlay = layer.underlay(for: try GoldenSupport.style("default"))
        let camera = Camera(center: HelsinkiSample.center, zoom: 16, bearing: 0, pixelWidth: 200, pixelHeight: 150, scale: 1)
        let whole = Rect(x: 0, y: 0, width: 200, height: 150)
        var day = Canvas(width: 200, height: 150)
        try underlay.draw(on: &day, camera: camera, visibleArea: whole, keepOut: [], lighting: .normal)
        var night = Canvas(width: 200, height: 150)
        try underlay.draw(on: &night, camera: camera, visibleArea: whole, keepOut: [], lighting: .lowLight)
        var direct = Canvas(width: 200, height: 150)
        layer.basemap(for: underlay.map, lighting: .lowLight).draw(into: &direct, view: MapView(camera: camera), attribution: false)
        #expect(night.image == direct.image)
        #expect(day.image != night.image)
        #expect(day.image.pixel(x: 100, y: 75).alpha == 255, "the map covers the screen")
    }

    /// A camera cropped to a band of rows (as the navigation screen draws the map between its
    /// header and footer) draws the band's map on the pixels it has in the whole picture, labels
    /// and attribution included: at most float rounding in edge coverage differs.
    @Test func croppedCameraDrawsTheSamePixels() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let underlay = layer.underlay(for: try GoldenSupport.style("default"))
        let (width, height, top, rows) = (400, 320, 60, 200)
        let keepOut = [Rect(x: 0, y: 0, width: 400, height: 60), Rect(x: 0, y: 260, width: 400, height: 60)]
        let visible = Rect(x: 0, y: 60, width: 400, height: 200)
        func inBand(_ rect: Rect) -> Rect { Rect(x: rect.x, y: rect.y - 60, width: rect.width, height: rect.height) }
        for bearing in [0.0, 37.5] {
            let camera = Camera(center: HelsinkiSample.center, zoom: 16.3, bearing: bearing, pixelWidth: width, pixelHeight: height, scale: 1)
            var whole = Canvas(width: width, height: height)
            try underlay.draw(on: &whole, camera: camera, visibleArea: visible, keepOut: keepOut.map { .box($0) }, lighting: .normal)
            var band = Canvas(width: width, height: rows)
            try underlay.draw(
                on: &band, camera: camera.cropped(x: 0, y: top, width: width, height: rows), visibleArea: inBand(visible),
                keepOut: keepOut.map { .box(inBand($0)) }, lighting: .normal)
            let wholeBytes = whole.image.straightRGBA
            let bandBytes = band.image.straightRGBA
            var differing = 0
            var largest = 0
            for index in bandBytes.indices where bandBytes[index] != wholeBytes[index + top * width * 4] {
                differing += 1
                largest = max(largest, abs(Int(bandBytes[index]) - Int(wholeBytes[index + top * width * 4])))
            }
            #expect(largest <= 2 && differing < bandBytes.count / 500, "bearing \(bearing): \(differing) bytes differ, by up to \(largest)")
            #expect(Set(bandBytes).count > 20, "a map, not a blank")
        }
    }

    /// Its identity names the archive and the styles, so screens' digests change with them.
    @Test func identityFollowsTheStyles() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let day = layer.underlay(for: try GoldenSupport.style("default"))
        let night = layer.underlay(for: try GoldenSupport.style("night"))
        #expect(day.identity != night.identity)
        #expect(day.identity == layer.underlay(for: try GoldenSupport.style("traffic")).identity)
        #expect(day.identity.contains(layer.source.identity))
    }
}
