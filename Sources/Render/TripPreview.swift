// A trip preview (DESIGN §7): the trip's scene, styled and placed by the camera, in the
// contract's layer order — background; the basemap, when there is one, with its street names
// kept clear of the routes' strokes, the markers and the ETA badge; polylines by zIndex
// (traffic runs in their colours, round joins and caps); markers by zIndex at their ground
// anchors (flat ones turned by heading and bearing); the pickup ETA badge; the basemap's
// attribution on top. Everything above the basemap is a
// Raster display list, which IntegrationTests/cairo/cairo_compare.py replays with Cairo (the basemap's own
// geometry has its display list in Basemap).

import Basemap
import Geo
import Navigation
import Raster
import Styling
import TripModel

/// A trip, a style, options and a render time: everything that decides a preview's pixels.
public struct TripPreview: Sendable {
    /// The trip, as GET trip returns it in the JOURNEY_SHARING_V1S view.
    public var trip: Trip
    /// The style in effect.
    public var style: StyleSheet
    /// Size, camera and lighting.
    public var options: PreviewOptions
    /// The render time (the ETA badge counts minutes from it).
    public var now: Timestamp
    /// The map under the routes and markers; nil draws the style's plain background alone.
    public var basemap: BasemapLayer?
    /// For map tiles under a live page (TripTileObstacles): the badge text measured whenever
    /// a badge is shown, in place of the minutes at `now` (which change while the tiles are
    /// kept), with the pill always above the pickup, where the page draws it. Nil for pictures.
    var reservedBadgeText: String?

    /// A preview from its inputs.
    public init(trip: Trip, style: StyleSheet, options: PreviewOptions, now: Timestamp, basemap: BasemapLayer? = nil) {
        self.trip = trip
        self.style = style
        self.options = options
        self.now = now
        self.basemap = basemap
    }

    /// The basemap drawn: the layer's style for this style sheet and lighting.
    package var mapBasemap: Basemap? {
        basemap?.basemap(for: style.map, lighting: options.lighting)
    }

    /// The ETA badge's text, or nil when no badge is drawn (also hidden by style).
    package var etaLabel: String? {
        let pickup = style[marker: .tripPickupPoint]
        guard pickup.isVisible, pickup.etaLabel.isVisible, trip.pickupPoint != nil, let label = PickupETA.label(for: trip, at: now) else {
            return nil
        }
        return reservedBadgeText ?? label
    }

    /// The drawing operations above the basemap (only `layers`, placed as the whole would be).
    /// Throws when the badge's or a stop number's font cannot be used.
    public func displayList(layers: PreviewLayers = .all) throws(RasterError) -> DisplayList {
        try composition(layers: layers).list
    }

    /// The camera the preview is drawn with (fitted to the content unless the options fix it).
    public func camera() throws(RasterError) -> Camera {
        try composition(layers: []).camera
    }

    /// The preview drawn: the background, the basemap, then the display list.
    public func render(layers: PreviewLayers = .all) throws(RasterError) -> Canvas {
        try drawn(layers: layers).canvas
    }

    /// The preview drawn, with the device-pixel boxes of the basemap's labels and its
    /// attribution (none without a basemap): the background and the basemap with its labels
    /// clear of the routes' strokes, the markers and the badge; then the display list; then
    /// the attribution, last, so nothing of the trip hides it.
    package func drawn(layers: PreviewLayers = .all) throws(RasterError) -> (canvas: Canvas, labelBoxes: [Rect], attributionBox: Rect?) {
        let composed = try composition(layers: layers)
        guard let basemap = mapBasemap else { return (try composed.list.render(), [], nil) }
        var canvas = Canvas(width: composed.list.width, height: composed.list.height, background: composed.list.background ?? .transparent)
        let view = MapView(camera: composed.camera)
        let stats = basemap.draw(into: &canvas, view: view, keepOut: composed.keepOut, attribution: false)
        try canvas.execute(composed.list)
        let attribution = basemap.drawAttribution(into: &canvas, view: view)
        return (canvas, stats.labelBoxes, attribution)
    }

    /// The display list, its camera, and what the basemap's labels must stay out of: every
    /// route's stroke, every marker's icon and the ETA badge, drawn or not (so a partial list
    /// has the same map under it).
    func composition(layers: PreviewLayers) throws(RasterError) -> (list: DisplayList, camera: Camera, keepOut: [LabelObstacle]) {
        let scale = Double(options.scale)
        let scene = TripScene(trip: trip)
        let routes = routeLayers(scene)
        let markers = try markerPlacements(scene, scale: scale)
        var badge: Badge?
        if let label = etaLabel { badge = try Badge(text: label, style: style[marker: .tripPickupPoint].etaLabel, scale: scale) }

        var items = markers.map(\.fitItem)
        if let badge, let pickup = markers.first(where: { $0.marker.type == .tripPickupPoint }) {
            items.append(badge.fitItem(above: pickup))
        }
        // An explicit zoom without a centre looks at the car (DESIGN §7); with neither, the
        // camera fits everything.
        let vehicle = scene.markers.first { $0.type == .tripVehicle }?.location
        let center = options.center ?? (options.zoom == nil ? nil : vehicle)
        let basemap = mapBasemap
        let fitted = Camera.fitting(
            routePoints: routes.flatMap { $0.worlds }, routeExtent: routes.map { $0.width * scale / 2 }.max() ?? 0,
            items: items, center: center,
            zoom: options.zoom.map { min(max($0, PreviewOptions.zoomRange.lowerBound), PreviewOptions.zoomRange.upperBound) },
            bearing: options.bearing, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
            scale: scale, padding: options.padding * scale, reservedBottom: basemap.map { attributionStrip($0, scale: scale) } ?? 0)
        // Only a basemap that puts whole-zoom pictures together from squares it keeps needs
        // the camera on whole pixels; otherwise the picture is exactly where the camera says.
        let camera = basemap == nil ? fitted : fitted.pixelAligned()

        let background = options.lighting == .lowLight ? style.map.nightBackground : style.map.background
        var list = DisplayList(width: options.pixelWidth, height: options.pixelHeight, background: background)
        var strokes: [DisplayList.Operation] = []
        for route in routes { route.draw(camera: camera, scale: scale, into: &strokes) }
        if layers.contains(.routes) { list.operations += strokes }
        if layers.contains(.markers) {
            for placement in markers { placement.draw(camera: camera, into: &list.operations) }
        }
        var keepOut: [LabelObstacle] = strokes.compactMap {
            if case .polyline(let line) = $0 { return .line(line.points, width: line.style.width) }
            return nil
        }
        keepOut += markers.map { .box(Rect($0.box(camera))) }
        if let badge, let pickup = markers.first(where: { $0.marker.type == .tripPickupPoint }) {
            let box =
                reservedBadgeText == nil
                ? badge.placement(for: pickup, among: markers, camera: camera) : badge.frame(.above, of: pickup, camera: camera)
            // The page's pill (CSS) is a pixel or two taller and further up than ours.
            keepOut.append(.box(Rect(reservedBadgeText == nil ? box : box.inset(by: -2 * scale))))
            if layers.contains(.etaBadge) { badge.draw(at: box, into: &list.operations) }
        }
        return (list, camera, keepOut)
    }

    /// Device pixels at the picture's bottom that the attribution's plate takes, with a gap:
    /// the fit keeps markers and the badge above it, so that neither hides the other.
    private func attributionStrip(_ basemap: Basemap, scale: Double) -> Double {
        let view = MapView(
            center: LatLng(latitude: 0, longitude: 0), zoom: 1, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight, scale: scale)
        guard let box = basemap.attributionBox(view: view) else { return 0 }
        return Double(options.pixelHeight) - box.y + 2 * scale
    }

    /// The preview as PNG bytes (RGB: previews are opaque).
    public func png(options encoding: PNGEncodingOptions = .default) throws(RasterError) -> [UInt8] {
        try PNGCodec.encode(render().image, options: encoding)
    }
}
