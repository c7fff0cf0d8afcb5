import Geo
import Navigation
import TripModel

/// What a vehicle's driver screen is drawn from (DESIGN §9), read in one snapshot: the
/// navigator's NavInfo, route and thresholds, where the vehicle is, and its settings.
package struct NavigationScreenInputs: Sendable {
    /// The vehicle as stored (its last location carries the heading and speed it reported).
    package var vehicle: Vehicle
    /// The navigator's latest NavInfo with every remaining step (`stopped` without a route).
    package var navInfo: NavInfo
    /// The route being driven, if any.
    package var route: NavRoute?
    /// Identifies ``route``: it changes whenever the route is replaced and never repeats for
    /// the vehicle, so what is derived from a route may be cached under it. 0 without a route.
    package var routeVersion: Int64
    /// The navigator's last road-snapped location, if it has one.
    package var snappedLocation: LatLng?
    /// True while the latest news is the arrival at the route's final destination.
    package var arrived: Bool
    /// What the screen says at a stop (arrived, waiting for the rider, trip complete); nil
    /// while driving (``Fleet/driverStop(navigator:trips:lastTripStatus:)``).
    package var stop: DriverStop?
    /// The navigator's settings (the speedometer's alert thresholds are theirs).
    package var navigatorSettings: NavigatorSettings
    /// The vehicle's navigation UI settings in effect.
    package var uiSettings: VehicleNavigationUISettings
}
