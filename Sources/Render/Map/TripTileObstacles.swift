// A trip drawn over map tiles (the share page, DESIGN §7, §15) as what the tiles' street and
// place names keep clear of: the strokes of its routes and the icons of its pins, measured as
// a preview of the same ground would draw them with the same style sheet (the page draws the
// same widths and icons). Contract:
// - the obstacles of a view are those a preview with that view's centre, zoom, size and scale
//   would keep labels out of, with the ETA badge wherever the trip shows one: as wide as
//   the widest text it can read (`reservedBadgeText`: its minutes change while the tiles are
//   kept) and above the pickup's pin, where the page draws it;
// - `key` changes whenever the obstacles of some view may: with the trip's drawn content and
//   the style sheet's tag. Which trip a rider's tiles avoid (the route as planned, not as
//   trimmed behind the car; no car, which moves) is Fleet's rule; this only measures it;
// - a view's obstacles are measured once per value (and its copies): a rider's tiles ask
//   for the same label block again and again (`measured` hears of each measurement).

import Basemap
import Caching
import Raster
import Styling
import TripModel

/// The route strokes and pins of a trip over map tiles, for keeping labels clear of them.
package struct TripTileObstacles: Sendable {
    /// The trip in the JOURNEY_SHARING_V1S view, as its rider's map draws it.
    package let trip: Trip
    /// The style sheet its routes and pins are drawn with.
    package let style: StyleSheet
    /// Names what the obstacles depend on: the trip's drawn content and `styleTag`.
    package let key: String
    /// The obstacles of the views measured so far (label blocks: a few dozen for a city trip).
    private let views = BoundedCache<MapView, [LabelObstacle]>(capacity: 1_024)
    private let measured: @Sendable () -> Void

    /// The obstacles of `trip` drawn with `style`, whose version `styleTag` names; `measured`
    /// is called whenever a view's obstacles are measured rather than found.
    package init(trip: Trip, style: StyleSheet, styleTag: String, measured: @escaping @Sendable () -> Void = {}) {
        self.trip = trip
        self.style = style
        var fingerprint = Self.preview(trip, style, PreviewOptions()).fingerprint
        fingerprint.add(styleTag)
        key = "k" + fingerprint.hex
        self.measured = measured
    }

    /// What labels keep clear of in `view` (device pixels), where the trip lies in it or near.
    package func obstacles(in view: MapView) -> [LabelObstacle] {
        views.value(
            forKey: view,
            orMake: {
                measured()
                return measure(view)
            })
    }

    private func measure(_ view: MapView) -> [LabelObstacle] {
        let options = PreviewOptions(
            width: Int((Double(view.pixelWidth) / view.scale).rounded()), height: Int((Double(view.pixelHeight) / view.scale).rounded()),
            scale: Int(view.scale.rounded()), center: view.center, zoom: view.zoom, bearing: view.bearing)
        guard let composed = try? Self.preview(trip, style, options).composition(layers: []) else { return [] }
        let area = Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        return composed.keepOut.filter { $0.bounds.intersects(area) }
    }

    /// The badge's text the tiles make room for: the widest that ``PickupETA`` writes for a
    /// pickup less than 100 days away (hours and minutes of two digits each, digits of one
    /// width in the badge's font; "Now", "59 min" and "99 d 23 hr" are narrower).
    static let reservedBadgeText = "23 hr 59 min"

    /// The preview whose obstacles the tiles keep clear of: the badge as the page shows it
    /// at any minute (the render time then plays no part).
    private static func preview(_ trip: Trip, _ style: StyleSheet, _ options: PreviewOptions) -> TripPreview {
        var preview = TripPreview(trip: trip, style: style, options: options, now: Timestamp(microseconds: 0))
        preview.reservedBadgeText = reservedBadgeText
        return preview
    }
}
