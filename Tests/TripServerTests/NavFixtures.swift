import Foundation
import Geo
import Navigation
import TripModel

/// Vehicle and trip bodies and places for the navigation tests (their routes are NavigationTesting's
/// `StraightRoute.streets`).
enum NavFixtures {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    /// A vehicle update body setting `lastLocation` to a trace point.
    static func locationBody(_ p: TracePoint) -> String {
        """
        {"lastLocation": {"location": {"latitude": \(p.location.latitude), "longitude": \(p.location.longitude)}, \
        "heading": \(Int((p.heading ?? 0).rounded())), "speed": \(p.speedMetersPerSecond ?? 0), "latlngAccuracy": 5, \
        "updateTime": "\(Timestamp(p.time).rfc3339)"}}
        """
    }

    static let vehicleBody = """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, \
        "vehicleType": {"category": "AUTO"}}
        """

    static func tripBody(vehicle: String, pickup: LatLng) -> String {
        """
        {"tripType": "EXCLUSIVE", "vehicleId": "\(vehicle)", \
        "pickupPoint": {"point": {"latitude": \(pickup.latitude), "longitude": \(pickup.longitude)}}}
        """
    }

    /// A point `north` metres north of `p`.
    static func north(_ p: LatLng, _ meters: Double) -> LatLng {
        LatLng(latitude: p.latitude + meters / LocalPlane.metersPerDegree, longitude: p.longitude)
    }
}
