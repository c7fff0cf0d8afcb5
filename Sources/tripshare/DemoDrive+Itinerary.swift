// The demo's default drive: a route with steps over real roads (OSRM's format, read with the
// project's own importer) whose first leg ends at the rider's pickup and whose last ends at
// the dropoff, made into a DriveScenario: the car is placed at the route's start, the trip is
// created with those two points, the route goes to the car's navigator, and Navigation's
// DriveSimulator moves the car along it at the route's speeds, one report per second of
// driving; at the pickup the car waits while the rider gets in. The trip's statuses follow
// as a provider's backend would send them, and the driver app ends guidance at the dropoff.

import Navigation
import Scenarios
import TripModel

extension DemoDrive {
    /// Seconds the car waits at the pickup.
    static let pickupWaitSeconds = 20.0
    /// Seconds of driving between two location reports.
    static let reportSpacingSeconds = 1.0

    /// The drive along `route`, whose first destination is the pickup and whose last is the
    /// dropoff; `area` names where it is, for the printed summary.
    init(route: NavRoute, area: String) throws {
        var options = DriveScenario.Options(start: Timestamp(microseconds: 0), interval: Self.reportSpacingSeconds, checkpoints: 0)
        options.vehicleId = Self.vehicleId
        options.tripId = Self.tripId
        options.pickupWaitSeconds = Self.pickupWaitSeconds
        options.labels = Self.labels
        options.locationAccuracyMeters = 5
        options.endsGuidance = true
        do {
            self.init(scenario: try DriveScenario.scenario(route: route, name: "demo", source: area, options: options), area: area)
        } catch let error as ScenarioError {
            throw DemoError("the demo \(error.description)")
        }
    }
}
