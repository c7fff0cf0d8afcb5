// A trip preview (DESIGN §7): the trip's scene, styled and placed by the camera, as a Raster
// display list in the contract's layer order — background; polylines by zIndex (traffic
// runs in their colours, round joins and caps); markers by zIndex at their ground anchors
// (flat ones turned by heading and bearing); the pickup ETA badge on top. The display list
// is what is rendered to PNG, and what scripts/cairo_compare.py replays with Cairo.

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

    /// A preview from its inputs.
    public init(trip: Trip, style: StyleSheet, options: PreviewOptions, now: Timestamp) {
        self.trip = trip
        self.style = style
        self.options = options
        self.now = now
    }

    /// The ETA badge's text, or nil when no badge is drawn (also hidden by style).
    public var etaLabel: String? {
        let pickup = style[marker: .tripPickupPoint]
        guard pickup.isVisible, pickup.etaLabel.isVisible, trip.pickupPoint != nil else { return nil }
        return PickupETA.label(for: trip, at: now)
    }

    /// The drawing operations of the preview (only `layers`, placed as the whole would be).
    /// Throws when the badge's or a stop number's font cannot be used.
    public func displayList(layers: PreviewLayers = .all) throws(RasterError) -> DisplayList {
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
        let camera = Camera.fitting(
            routePoints: routes.flatMap { $0.worlds }, routeExtent: routes.map { $0.width * scale / 2 }.max() ?? 0,
            items: items, center: options.center, zoom: options.zoom.map { min(max($0, PreviewOptions.zoomRange.lowerBound), PreviewOptions.zoomRange.upperBound) },
            bearing: options.bearing, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
            scale: scale, padding: options.padding * scale)

        let background = options.lighting == .lowLight ? style.map.nightBackground : style.map.background
        var list = DisplayList(width: options.pixelWidth, height: options.pixelHeight, background: background)
        if layers.contains(.routes) {
            for route in routes { route.draw(camera: camera, scale: scale, into: &list.operations) }
        }
        if layers.contains(.markers) {
            for placement in markers { placement.draw(camera: camera, into: &list.operations) }
        }
        if layers.contains(.etaBadge), let badge, let pickup = markers.first(where: { $0.marker.type == .tripPickupPoint }) {
            badge.draw(at: badge.placement(for: pickup, among: markers, camera: camera), into: &list.operations)
        }
        return list
    }

    /// The preview as PNG bytes (RGB: previews are opaque).
    public func png(options encoding: PNGEncodingOptions = .default) throws(RasterError) -> [UInt8] {
        try PNGCodec.encode(displayList().render().image, options: encoding)
    }
}
