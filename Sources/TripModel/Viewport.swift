import Foundation
import Geo

/// A latitude/longitude box (`google.geo.type.Viewport`): from `low` (south-west) to `high`
/// (north-east). A `low.longitude` greater than `high.longitude` means the box crosses the
/// 180th meridian; -180 to 180 spans every longitude.
public struct Viewport: Codable, Hashable, Sendable {
    /// The south-west corner.
    package var low: LatLng
    /// The north-east corner.
    package var high: LatLng

    /// Creates a viewport.
    package init(low: LatLng, high: LatLng) {
        self.low = low
        self.high = high
    }

    /// The box around `center` that holds every point within `meters` of it, for a coarse
    /// pre-filter: clamped at the poles, wrapped across the 180th meridian.
    public init(around center: LatLng, meters: Double) {
        let dLat = meters / 111_000
        let cosine = max(0.01, cos(center.latitude * .pi / 180))
        let dLng = meters / (111_000 * cosine)
        let south = max(-90, center.latitude - dLat)
        let north = min(90, center.latitude + dLat)
        if dLng >= 180 {
            self.init(low: LatLng(latitude: south, longitude: -180), high: LatLng(latitude: north, longitude: 180))
            return
        }
        var west = center.longitude - dLng
        var east = center.longitude + dLng
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        self.init(low: LatLng(latitude: south, longitude: west), high: LatLng(latitude: north, longitude: east))
    }

    /// Whether the box crosses the 180th meridian (its longitudes run from `low` up to 180
    /// and from -180 up to `high`).
    package var crossesAntimeridian: Bool { low.longitude > high.longitude }

    /// Whether `point` lies in the box, edges included.
    package func contains(_ point: LatLng) -> Bool {
        guard point.latitude >= low.latitude, point.latitude <= high.latitude else { return false }
        if crossesAntimeridian { return point.longitude >= low.longitude || point.longitude <= high.longitude }
        return point.longitude >= low.longitude && point.longitude <= high.longitude
    }

    /// Checks the corners and refuses an empty box, as Google's APIs do; errors name `path`.
    public func validate(_ path: String) throws(StatusError) {
        try Check.latLng(low, "\(path).low")
        try Check.latLng(high, "\(path).high")
        if low.latitude > high.latitude {
            throw .invalid(path, "low.latitude \(low.latitude) is north of high.latitude \(high.latitude): the viewport is empty")
        }
        if low.longitude == 180 && high.longitude == -180 {
            throw .invalid(path, "low.longitude 180 and high.longitude -180 span no longitude: the viewport is empty")
        }
    }
}
