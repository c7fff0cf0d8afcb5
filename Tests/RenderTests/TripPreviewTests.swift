import Foundation
import Geo
import Navigation
import Raster
import Render
import Styling
import Testing
import TripModel

/// A trip whose vehicle is `minutes` from the pickup at `fixtureTime`.
func tripWithPickupETA(seconds: Double, status: TripStatus = .enrouteToPickup) throws -> Trip {
    var trip = try GoldenSupport.trip("enroute-to-pickup")
    trip.tripStatus = status
    if let index = trip.remainingWaypoints.firstIndex(where: { $0.waypointType == .pickup }) {
        trip.remainingWaypoints[index].eta = fixtureTime.adding(seconds: seconds)
    }
    return trip
}

func texts(_ list: DisplayList) -> [String] {
    list.operations.compactMap { if case .text(let text) = $0 { text.text } else { nil } }
}

func polylines(_ list: DisplayList) -> [DisplayList.Polyline] {
    list.operations.compactMap { if case .polyline(let line) = $0 { line } else { nil } }
}

@Suite struct PickupETATests {
    /// Minutes are rounded to the nearest, at least 1; hours read as "1 hr 5 min" and days as
    /// "2 d 2 hr", as every duration of the driver's screens (one rule, NavigationText).
    @Test(arguments: [
        (29.0, "1 min"), (89, "1 min"), (91, "2 min"), (150, "3 min"), (3900, "1 hr 5 min"), (6300, "1 hr 45 min"), (7200, "2 hr"),
        (180_000, "2 d 2 hr"),
    ])
    func minutes(seconds: Double, label: String) throws {
        #expect(PickupETA.label(for: try tripWithPickupETA(seconds: seconds), at: fixtureTime) == label)
    }

    /// "Now" on arrival or once the ETA has passed; no badge after the pickup or without an ETA.
    @Test func arrivalAndAfter() throws {
        #expect(PickupETA.label(for: try tripWithPickupETA(seconds: 300, status: .arrivedAtPickup), at: fixtureTime) == "Now")
        #expect(PickupETA.label(for: try tripWithPickupETA(seconds: -10), at: fixtureTime) == "Now")
        #expect(PickupETA.label(for: try tripWithPickupETA(seconds: 300, status: .new), at: fixtureTime) == "5 min")
        #expect(PickupETA.label(for: try tripWithPickupETA(seconds: 300, status: .enrouteToDropoff), at: fixtureTime) == nil)
        var trip = try tripWithPickupETA(seconds: 300)
        trip.remainingWaypoints.removeAll { $0.waypointType == .pickup }
        trip.pickupTime = fixtureTime.adding(seconds: 420)
        #expect(PickupETA.label(for: trip, at: fixtureTime) == "7 min", "falls back to the estimated pickupTime")
        trip.pickupTime = nil
        #expect(PickupETA.label(for: trip, at: fixtureTime) == nil)
    }

    /// Another rider's pickup on a shared vehicle does not count as ours.
    @Test func onlyThisTripsPickup() throws {
        var trip = try tripWithPickupETA(seconds: 600)
        trip.remainingWaypoints.insert(TripWaypoint(waypointType: .pickup, eta: fixtureTime.adding(seconds: 60)), at: 0)
        #expect(PickupETA.label(for: trip, at: fixtureTime) == "10 min")
    }

    /// The same trip rendered at two times shows different minutes, and only the badge changes.
    @Test func badgeFollowsRenderTime() throws {
        let trip = try GoldenSupport.trip("enroute-to-pickup")
        let style = try GoldenSupport.style("default")
        let early = try TripPreview(trip: trip, style: style, options: PreviewOptions(), now: fixtureTime.adding(seconds: -150)).displayList()
        let late = try TripPreview(trip: trip, style: style, options: PreviewOptions(), now: fixtureTime).displayList()
        #expect(texts(early) == ["5 min"] && texts(late) == ["2 min"])
        #expect(early.operations.dropLast(2) == late.operations.dropLast(2))
        #expect(try early.render().image != late.render().image)
    }
}

@Suite struct TripPreviewTests {
    let trip: Trip
    let style: StyleSheet

    init() throws {
        trip = try GoldenSupport.trip("enroute-to-pickup")
        style = try GoldenSupport.style("default")
    }

    func list(
        _ style: StyleSheet? = nil, _ options: PreviewOptions = PreviewOptions(), trip: Trip? = nil,
        layers: PreviewLayers = .all
    ) throws -> DisplayList {
        try TripPreview(trip: trip ?? self.trip, style: style ?? self.style, options: options, now: fixtureTime).displayList(layers: layers)
    }

    /// Background first, then polylines, then markers, then the badge.
    @Test func layerOrder() throws {
        let operations = try list().operations
        func rank(_ operation: DisplayList.Operation) -> Int {
            switch operation {
            case .polyline: 0
            case .fill, .stroke, .image: 1
            case .text, .roundedRectangle, .circle: 2
            }
        }
        let ranks = operations.map(rank)
        #expect(ranks == ranks.sorted())
        #expect(try list().background == style.map.background)
        #expect(try list(nil, PreviewOptions(lighting: .lowLight)).background == style.map.nightBackground)
    }

    /// Polylines draw by zIndex: raising the remaining route's draws it over the active one.
    @Test func polylineZIndex() throws {
        let active = style[polyline: .activeRoute].color
        let remaining = style[polyline: .remainingRoute].color
        #expect(try polylines(list()).map(\.color) == [remaining, active])
        var raised = style
        raised[polyline: .remainingRoute].zIndex = 10
        #expect(try polylines(list(raised)).map(\.color) == [active, remaining])
    }

    /// With traffic off a route is one run of its stroke colour; with it on, runs of the traffic colours.
    @Test func trafficRuns() throws {
        #expect(try polylines(list()).count == 2)
        let traffic = try GoldenSupport.style("traffic")
        let runs = try polylines(list(traffic))
        #expect(runs.count > 5)
        let colours = Set(PolylineType.allCases.flatMap { type in SpeedType.allCases.map { traffic[polyline: type].trafficColor(for: $0) } })
        #expect(runs.allSatisfy { colours.contains($0.color) })
        #expect(runs.contains { $0.color == traffic[polyline: .remainingRoute].trafficColor(for: .trafficJam) })
        // Runs meet end to start, so the line has no gaps.
        let remaining = runs.filter { line in SpeedType.allCases.contains { traffic[polyline: .remainingRoute].trafficColor(for: $0) == line.color } }
        for (a, b) in zip(remaining, remaining.dropFirst()) { #expect(a.points.last == b.points.first) }
        #expect(runs.allSatisfy { $0.style.cap == .round && $0.style.join == .round })
    }

    /// Invisible markers and polylines, and zero widths, draw nothing.
    @Test func visibility() throws {
        var hidden = style
        for type in MarkerType.allCases { hidden[marker: type].isVisible = false }
        hidden[polyline: .activeRoute].isVisible = false
        hidden[polyline: .remainingRoute].width = 0
        let operations = try list(hidden).operations
        #expect(operations.isEmpty)
    }

    /// Scale multiplies the image, line widths and icons.
    @Test func scale() throws {
        let one = try list()
        let two = try list(nil, PreviewOptions(scale: 2))
        #expect(two.width == 1280 && two.height == 960)
        #expect(polylines(two).map(\.style.width) == polylines(one).map { $0.style.width * 2 })
    }

    /// Only the routes are drawn when asked, with the same geometry as the full preview.
    @Test func routesOnly() throws {
        let routes = try list(layers: .routes)
        #expect(routes.operations.allSatisfy { if case .polyline = $0 { true } else { false } })
        #expect(polylines(routes) == polylines(try list()))
    }

    /// A flat vehicle turns by its heading minus the camera's bearing; an upright one does not turn.
    @Test(arguments: [0.0, 45.0]) func flatVehicleTurns(bearing: Double) throws {
        var turned = trip
        turned.lastLocation?.heading = 90
        func vehicleTransforms(_ style: StyleSheet) throws -> [Transform] {
            var others = style
            for type in MarkerType.allCases where type != .tripVehicle { others[marker: type].isVisible = false }
            return try list(others, PreviewOptions(bearing: bearing), trip: turned, layers: .markers).operations.compactMap {
                if case .fill(let fill) = $0 { fill.transform } else { nil }
            }
        }
        let flat = try vehicleTransforms(style)
        #expect(!flat.isEmpty)
        for transform in flat { #expect(abs(atan2(transform.b, transform.a) * 180 / .pi - (90 - bearing)) < 1e-9) }
        var upright = style
        upright[marker: .tripVehicle].isFlat = false
        #expect(try vehicleTransforms(upright).allSatisfy { $0.a == 1 && $0.b == 0 && $0.c == 0 && $0.d == 1 })
    }

    /// A PNG icon is blitted at its density, its ground anchor on the location.
    @Test func pngIcon() throws {
        let brand = try GoldenSupport.style("brand")
        var only = brand
        for type in MarkerType.allCases where type != .tripVehicle { only[marker: type].isVisible = false }
        only[marker: .tripVehicle].isFlat = false
        let camera = Camera(center: try #require(trip.lastLocation?.location), zoom: 15, bearing: 0, pixelWidth: 640, pixelHeight: 480, scale: 2)
        let list = try list(only, PreviewOptions(scale: 2, center: camera.center, zoom: 15), layers: .markers)
        guard case .image(let blit)? = list.operations.first else {
            Issue.record("no image operation")
            return
        }
        #expect(blit.transform.a == 1 && blit.transform.d == 1, "a @2x icon at scale 2 is drawn 1:1")
        #expect(blit.transform.apply(Point(18, 36)) == Point(640, 480))
    }

    /// The fingerprint changes with anything drawn (vehicle, heading, traffic, status, badge
    /// minute, options) and not otherwise.
    @Test func fingerprint() throws {
        func digest(_ trip: Trip, _ options: PreviewOptions = PreviewOptions(), at time: Timestamp = fixtureTime) -> Fingerprint {
            TripPreview(trip: trip, style: style, options: options, now: time).fingerprint
        }
        let base = digest(trip)
        #expect(digest(trip) == base)
        var moved = trip
        moved.lastLocation?.location?.latitude += 0.0001
        var turned = trip
        turned.lastLocation?.heading = 10
        var traffic = trip
        traffic.remainingWaypoints[0].trafficToWaypoint?.speedReadingInterval[0].speed = .trafficJam
        var status = trip
        status.tripStatus = .arrivedAtPickup
        var unseen = trip
        unseen.attributes = [Attribute(key: "k", stringValue: "v")]
        for changed in [
            digest(moved), digest(turned), digest(traffic), digest(status), digest(trip, PreviewOptions(zoom: 12)),
            digest(trip, at: fixtureTime.adding(seconds: -120)),
        ] {
            #expect(changed != base)
        }
        #expect(digest(unseen) == base)
        #expect(digest(trip, at: fixtureTime.adding(seconds: 5)) == base, "same badge minute, same pixels")
    }

    /// A finished trip shows no vehicle, routes or badge.
    @Test func finishedTrip() throws {
        var done = trip
        done.tripStatus = .complete
        let operations = try list(trip: done).operations
        #expect(polylines(DisplayList(width: 1, height: 1, operations: operations)).isEmpty)
        #expect(texts(DisplayList(width: 1, height: 1, operations: operations)).isEmpty)
        #expect(!operations.isEmpty)
    }
}

@Suite struct CameraTests {
    /// The centre maps to the image centre, and at zoom 0 the world is 256 px wide (times scale).
    @Test func projection() {
        let camera = Camera(center: LatLng(latitude: 0, longitude: 0), zoom: 0, bearing: 0, pixelWidth: 640, pixelHeight: 480, scale: 1)
        #expect(camera.point(LatLng(latitude: 0, longitude: 0)) == Point(320, 240))
        #expect(camera.point(LatLng(latitude: 0, longitude: 90)) == Point(384, 240))
        let zoomed = Camera(center: LatLng(latitude: 0, longitude: 0), zoom: 2, bearing: 0, pixelWidth: 640, pixelHeight: 480, scale: 2)
        #expect(zoomed.point(LatLng(latitude: 0, longitude: 90)) == Point(320 + 64 * 8, 240))
    }

    /// A bearing of 90 puts east at the top.
    @Test func bearing() {
        let camera = Camera(center: LatLng(latitude: 0, longitude: 0), zoom: 0, bearing: 90, pixelWidth: 640, pixelHeight: 480, scale: 1)
        let east = camera.point(LatLng(latitude: 0, longitude: 90))
        #expect(abs(east.x - 320) < 1e-9 && abs(east.y - 176) < 1e-9)
    }

    /// A fitted preview keeps every route vertex and every icon inside the padding.
    @Test(arguments: [0.0, 60.0, 200.0]) func fitKeepsContentInside(bearing: Double) throws {
        let options = PreviewOptions(bearing: bearing)
        let list = try TripPreview(
            trip: try GoldenSupport.trip("intermediate-stops"), style: try GoldenSupport.style("default"),
            options: options, now: fixtureTime
        ).displayList()
        let inside = { (p: Point) in p.x >= 47.9 && p.x <= 592.1 && p.y >= 47.9 && p.y <= 432.1 }
        for line in polylines(list) { #expect(line.points.allSatisfy(inside)) }
        var touches = [false, false]
        for line in polylines(list) {
            for p in line.points {
                if p.x < 60 || p.x > 580 { touches[0] = true }
                if p.y < 60 || p.y > 420 { touches[1] = true }
            }
        }
        #expect(touches.contains(true), "the fit should use the space")
    }

    /// An explicit centre and zoom are honoured.
    @Test func explicitCamera() throws {
        let trip = try GoldenSupport.trip("enroute-to-pickup")
        let pickup = try #require(trip.pickupPoint?.point)
        let list = try TripPreview(
            trip: trip, style: try GoldenSupport.style("default"),
            options: PreviewOptions(center: pickup, zoom: 17), now: fixtureTime
        ).displayList()
        // The pickup pin's tip (its ground anchor) is on the centre pixel.
        let pins = list.operations.compactMap { operation -> Transform? in
            if case .fill(let fill) = operation, let transform = fill.transform, transform.a == 1, transform.d == 1 { return transform }
            return nil
        }
        #expect(pins.contains { $0.apply(Point(13, 36)) == Point(320, 240) })
    }
}

/// Cameras snapped to whole device pixels of the world (what lets the basemap reuse squares).
@Suite struct PixelAlignedCameraTests {
    /// The device position of the world's top-left corner: whole pixels once aligned.
    static func worldOrigin(_ camera: Camera) -> Point {
        camera.point(WebMercator.latLng(x: 0, y: 0, zoom: 0))
    }

    /// At a whole zoom and bearing 0 the camera moves by at most half a pixel each way, onto
    /// whole pixels; other cameras stay as they are.
    @Test(arguments: [1.0, 2.0, 3.0])
    func alignsOnlyWholeZoomsWithoutBearing(scale: Double) {
        let center = LatLng(latitude: 60.1699, longitude: 24.9410)
        let camera = Camera(center: center, zoom: 15, bearing: 0, pixelWidth: 641, pixelHeight: 480, scale: scale)
        let aligned = camera.pixelAligned()
        let origin = Self.worldOrigin(aligned)
        #expect(abs(origin.x - origin.x.rounded()) < 1e-6 && abs(origin.y - origin.y.rounded()) < 1e-6, "\(origin)")
        let moved = aligned.point(center)
        #expect(abs(moved.x - 320.5) <= 0.5 + 1e-9 && abs(moved.y - 240) <= 0.5 + 1e-9, "\(moved)")
        #expect(abs(Self.worldOrigin(camera).x - Self.worldOrigin(camera).x.rounded()) > 1e-3, "the example starts off the grid")
        for other in [
            Camera(center: center, zoom: 15.5, bearing: 0, pixelWidth: 640, pixelHeight: 480, scale: scale),
            Camera(center: center, zoom: 15, bearing: 20, pixelWidth: 640, pixelHeight: 480, scale: scale),
        ] {
            #expect(other.pixelAligned() == other)
        }
    }
}

/// Where a preview's camera looks (DESIGN §7): exactly where the options say unless a basemap
/// puts the picture together from kept squares; an explicit zoom alone looks at the car.
@Suite struct PreviewCameraTests {
    /// Regression (issue 28): at a whole zoom without a basemap, the camera is not moved onto
    /// whole pixels: the centre asked for is the picture's centre, so the route lands where
    /// Cairo draws the same geometry (it was up to half a pixel off).
    @Test func wholeZoomWithoutBasemapIsExactlyWhereAsked() throws {
        let center = LatLng(latitude: 60.1699, longitude: 24.9410)
        let options = try PreviewOptions(parameters: ["center": "60.1699,24.9410", "zoom": "14", "width": "641"])
        let preview = TripPreview(trip: Trip(name: ""), style: try GoldenSupport.style("default"), options: options, now: fixtureTime)
        let camera = try preview.camera()
        let point = camera.point(center)
        #expect(abs(point.x - 320.5) < 1e-9 && abs(point.y - 240) < 1e-9, "\(point)")
        #expect(camera != camera.pixelAligned(), "this centre is off the pixel grid, so a snap would have moved it")
    }

    /// With a basemap the same camera is snapped onto whole pixels, where the kept squares lie.
    @Test func wholeZoomWithBasemapIsOnThePixelGrid() throws {
        let options = try PreviewOptions(parameters: ["center": "60.1699,24.9410", "zoom": "14", "width": "641"])
        let preview = TripPreview(
            trip: Trip(name: ""), style: try GoldenSupport.style("default"), options: options, now: fixtureTime,
            basemap: try HelsinkiSample.basemapLayer())
        let camera = try preview.camera()
        #expect(camera == camera.pixelAligned())
    }

    /// Regression (issue 33): `zoom=16` without `center` at the start of the demo trip showed
    /// neither the car nor either pin; it now centres on the car.
    @Test func explicitZoomCentresOnTheCar() throws {
        let trip = try HelsinkiSample.trip(share: 0)
        let options = try PreviewOptions(parameters: ["zoom": "16"])
        let preview = TripPreview(trip: trip, style: try GoldenSupport.style("default"), options: options, now: fixtureTime)
        let car = try #require(trip.lastLocation?.location)
        let point = try preview.camera().point(car)
        #expect(abs(point.x - 320) < 1e-6 && abs(point.y - 240) < 1e-6, "\(point)")
        // With a centre given too, the centre wins.
        let fixed = TripPreview(
            trip: trip, style: try GoldenSupport.style("default"),
            options: try PreviewOptions(parameters: ["zoom": "16", "center": "60.1699,24.9410"]), now: fixtureTime)
        let asked = try fixed.camera().point(LatLng(latitude: 60.1699, longitude: 24.9410))
        #expect(abs(asked.x - 320) < 1e-6 && abs(asked.y - 240) < 1e-6)
    }
}
