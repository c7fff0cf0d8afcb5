import Geo
import Testing

@Suite struct WebMercatorTests {
    /// At zoom 0 the world is 256 px: (0, 0) is its centre, the clamped corners its corners.
    @Test func zoomZeroCorners() {
        #expect(WebMercator.worldSize(zoom: 0) == 256)
        #expect(WebMercator.worldSize(zoom: 2.5) == 256 * 5.656854249492381)
        let center = WebMercator.worldPoint(LatLng(latitude: 0, longitude: 0), zoom: 0)
        #expect(abs(center.x - 128) < 1e-12 && abs(center.y - 128) < 1e-12)
        let topLeft = WebMercator.worldPoint(LatLng(latitude: WebMercator.maxLatitude, longitude: -180), zoom: 0)
        #expect(abs(topLeft.x) < 1e-12 && abs(topLeft.y) < 1e-9)
        let bottomRight = WebMercator.worldPoint(LatLng(latitude: -90, longitude: 180), zoom: 0)
        #expect(abs(bottomRight.x - 256) < 1e-12 && abs(bottomRight.y - 256) < 1e-9)
    }

    /// London at zoom 10 lands where the OSM tile formula puts it (x 130978.939, y 87169.571:
    /// tile 511/340), computed independently with asinh(tan φ).
    @Test func londonAtZoomTen() {
        let p = WebMercator.worldPoint(LatLng(latitude: 51.5074, longitude: -0.1278), zoom: 10)
        #expect(abs(p.x - 130_978.93888) < 1e-5)
        #expect(abs(p.y - 87_169.57060) < 1e-5)
        #expect(Int(p.x / 256) == 511 && Int(p.y / 256) == 340)
    }

    /// The inverse gives the point back, at fractional zooms too; x beyond the world wraps.
    @Test func inverse() {
        for (lat, lng) in [(51.5074, -0.1278), (-33.8688, 151.2093), (84.9, 179.9), (-84.9, -179.9), (0, 0)] {
            for zoom in [0.0, 3.7, 17.25] {
                let w = WebMercator.worldPoint(LatLng(latitude: lat, longitude: lng), zoom: zoom)
                let back = WebMercator.latLng(w, zoom: zoom)
                #expect(abs(back.latitude - lat) < 1e-9 && abs(back.longitude - lng) < 1e-9)
            }
        }
        let wrapped = WebMercator.latLng(x: 256 + 64, y: 128, zoom: 0)
        #expect(abs(wrapped.longitude - -90) < 1e-12)
        #expect(abs(WebMercator.latLng(x: -64, y: 128, zoom: 0).longitude - 90) < 1e-12)
    }

    /// A latitude beyond the square world is clamped to its edge.
    @Test func clampsLatitude() {
        let pole = WebMercator.worldPoint(LatLng(latitude: 90, longitude: 0), zoom: 1)
        #expect(abs(pole.y) < 1e-9)
    }

    /// Fitting: 1° of longitude at the equator in 256 px is zoom log2(360) = 8.49; padding
    /// takes its share; a point fits at the maximum zoom; no room gives the minimum.
    @Test func zoomToFit() {
        let degree = GeoBounds(south: 0, west: 0, north: 0, east: 1)
        #expect(abs(WebMercator.zoomToFit(bounds: degree, width: 256, height: 256) - 8.491853096329674) < 1e-12)
        #expect(abs(WebMercator.zoomToFit(bounds: degree, width: 356, height: 256, padding: 50) - 8.491853096329674) < 1e-12)
        let point = GeoBounds(LatLng(latitude: 10, longitude: 10))
        #expect(WebMercator.zoomToFit(bounds: point, width: 640, height: 480, padding: 48, maxZoom: 18) == 18)
        #expect(WebMercator.zoomToFit(bounds: degree, width: 640, height: 480, padding: 400, minZoom: 1) == 1)
        // Tall bounds are limited by the height: the fitted span fills it exactly.
        let tall = GeoBounds(south: 40, west: 0, north: 41, east: 0.001)
        let zoom = WebMercator.zoomToFit(bounds: tall, width: 640, height: 480, padding: 40)
        let top = WebMercator.worldPoint(LatLng(latitude: 41, longitude: 0), zoom: zoom).y
        let bottom = WebMercator.worldPoint(LatLng(latitude: 40, longitude: 0), zoom: zoom).y
        #expect(abs(bottom - top - 400) < 1e-6)
        // Across the antimeridian the narrow span counts, not 358°.
        let fiji = GeoBounds(south: -18, west: 179, north: -17, east: -179)
        #expect(WebMercator.zoomToFit(bounds: fiji, width: 512, height: 512) > 5)
    }

    /// The fitting centre is halfway in world pixels, north of the midpoint in degrees.
    @Test func centerOfBounds() {
        let b = GeoBounds(south: 40, west: 0, north: 60, east: 10)
        let c = WebMercator.center(of: b)
        #expect(c.longitude == 5)
        #expect(c.latitude > 50)
        let y = WebMercator.worldPoint(c, zoom: 0).y
        let north = WebMercator.worldPoint(LatLng(latitude: 60, longitude: 0), zoom: 0).y
        let south = WebMercator.worldPoint(LatLng(latitude: 40, longitude: 0), zoom: 0).y
        #expect(abs(y - (north + south) / 2) < 1e-9)
    }
}
