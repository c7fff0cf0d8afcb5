// Web Mercator (EPSG:3857) in "world pixels", as Google Maps and OSM tiles use it: at zoom z
// the world is a square 256 · 2^z pixels wide, x grows east from the antimeridian (-180°),
// y grows south from the top edge (latitude ≈ 85.0511°, where the square closes).

import Foundation

/// A position in world pixels at some zoom (origin top-left, y down).
public struct WorldPoint: Sendable, Hashable {
    /// Pixels east of longitude -180°.
    public var x: Double
    /// Pixels south of latitude ``WebMercator/maxLatitude``.
    public var y: Double

    /// Creates a point from pixel coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The Web Mercator projection in world pixels, and camera fitting.
public enum WebMercator {
    /// The latitude at which the projection's square world ends, atan(sinh(π)) in degrees;
    /// latitudes beyond are clamped to it.
    package static let maxLatitude = 85.051_128_779_806_59

    /// Width (and height) of the world in pixels at `zoom`: 256 · 2^zoom.
    package static func worldSize(zoom: Double) -> Double {
        256 * exp2(zoom)
    }

    /// The world-pixel position of `p` at `zoom`; latitude is clamped to ±``maxLatitude``.
    public static func worldPoint(_ p: LatLng, zoom: Double) -> WorldPoint {
        let size = worldSize(zoom: zoom)
        let lat = max(-maxLatitude, min(maxLatitude, p.latitude)) * .pi / 180
        let x = (p.longitude + 180) / 360 * size
        let y = (0.5 - log(tan(.pi / 4 + lat / 2)) / (2 * .pi)) * size
        return WorldPoint(x: x, y: y)
    }

    /// The latitude/longitude at world pixel (x, y) at `zoom`; the inverse of
    /// ``worldPoint(_:zoom:)``. x beyond the world wraps round to -180...180.
    package static func latLng(x: Double, y: Double, zoom: Double) -> LatLng {
        let size = worldSize(zoom: zoom)
        var lng = x / size * 360 - 180
        if lng < -180 || lng > 180 {
            lng = (lng + 180).truncatingRemainder(dividingBy: 360)
            lng += lng < 0 ? 180 : -180
        }
        let lat = atan(sinh(.pi * (1 - 2 * y / size))) * 180 / .pi
        return LatLng(latitude: lat, longitude: lng)
    }

    /// The latitude/longitude of a world point at `zoom`.
    package static func latLng(_ point: WorldPoint, zoom: Double) -> LatLng {
        latLng(x: point.x, y: point.y, zoom: zoom)
    }

    /// The largest (fractional) zoom at which `bounds` fits in a `width` × `height` pixel
    /// image with `padding` pixels kept free on every side, at most `maxZoom` and at least
    /// `minZoom`. A single point (or a padding that leaves no room) gets `maxZoom` and
    /// `minZoom` respectively.
    package static func zoomToFit(
        bounds: GeoBounds, width: Double, height: Double, padding: Double = 0,
        maxZoom: Double = 21, minZoom: Double = 0
    ) -> Double {
        let availableWidth = width - 2 * padding
        let availableHeight = height - 2 * padding
        guard availableWidth > 0, availableHeight > 0 else { return minZoom }
        // Spans in world pixels at zoom 0; each zoom step doubles them.
        let spanX = bounds.longitudeSpan / 360 * 256
        let north = worldPoint(LatLng(latitude: bounds.north, longitude: 0), zoom: 0).y
        let south = worldPoint(LatLng(latitude: bounds.south, longitude: 0), zoom: 0).y
        let spanY = abs(south - north)
        var zoom = maxZoom
        if spanX > 0 { zoom = min(zoom, log2(availableWidth / spanX)) }
        if spanY > 0 { zoom = min(zoom, log2(availableHeight / spanY)) }
        return max(minZoom, min(maxZoom, zoom))
    }

    /// The point that a camera fitting `bounds` centres on: halfway in world pixels, so the
    /// bounds sit symmetrically in the image (unlike ``GeoBounds/center`` in degrees).
    public static func center(of bounds: GeoBounds) -> LatLng {
        let north = worldPoint(LatLng(latitude: bounds.north, longitude: 0), zoom: 0).y
        let south = worldPoint(LatLng(latitude: bounds.south, longitude: 0), zoom: 0).y
        let middle = latLng(x: 128, y: (north + south) / 2, zoom: 0)
        return LatLng(latitude: middle.latitude, longitude: bounds.center.longitude)
    }
}
