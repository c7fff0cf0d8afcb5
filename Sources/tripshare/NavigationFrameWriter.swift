import ArgumentParser
import Foundation
import Navigation
import Render
import Styling
import TripModel

/// Writes `navigation-NNNNN.png` for every NavInfo a navigator emits (`tripshare navigate
/// --frames`): the driver's screen without a server, drawn from the same inputs the server
/// uses — the NavInfo, the route, the last road-snapped location, the vehicle's UI settings.
struct NavigationFrameWriter {
    private let directory: URL
    private let settings: NavigationUISettings
    private let parameters: [String: String]
    private let thresholds: SpeedAlertThresholds
    private let style: StyleSheet
    private var route: NavigationRouteGeometry?
    private var vehicle: VehiclePosition?
    private(set) var count = 0

    /// A writer into `directory` (created if missing); `parameters` are navigation.png's
    /// query (width, height, scale, camera, lighting, units, tz, ...), checked here.
    init(directory: String, settingsFile: String?, parameters: [String: String], navigator: NavigatorSettings) throws {
        self.directory = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        if let settingsFile {
            let bytes = try CommandFiles.read(settingsFile)
            do {
                settings = try NavigationUISettings(json: bytes)
            } catch {
                throw ValidationError("--settings \(settingsFile): \(error)")
            }
        } else {
            settings = NavigationUISettings()
        }
        do {
            _ = try NavigationScreenOptions(parameters: parameters, now: Timestamp(microseconds: 0))
        } catch {
            throw ValidationError(error.message)
        }
        self.parameters = parameters
        thresholds = SpeedAlertThresholds(navigator)
        style = try StyleLibrary.bundled().defaultStyle
    }

    /// Takes the route frames are drawn on from now.
    mutating func setRoute(_ route: NavRoute) throws {
        self.route = try NavigationRouteGeometry(route: route)
    }

    /// Follows a batch of events: keeps the vehicle's latest location and writes a frame for
    /// each NavInfo.
    mutating func observe(_ events: [NavEvent], navigator: Navigator, time: Date) throws {
        for event in events {
            switch event {
            case .didUpdateLocation(let location):
                vehicle = VehiclePosition(
                    location: location.location, heading: location.heading,
                    speedMetersPerSecond: location.speedMetersPerSecond)
            case .didUpdateNavInfo(let info):
                try write(info, navigator: navigator, time: time)
            default:
                break
            }
        }
    }

    private mutating func write(_ info: NavInfo, navigator: Navigator, time: Date) throws {
        var query = parameters
        query["at"] = Timestamp(time).rfc3339
        let options = try NavigationScreenOptions(parameters: query, now: Timestamp(time))
        let finalIndex = (navigator.route?.destinations.count ?? 0) - 1
        let screen = NavigationScreen(
            navInfo: info, route: route, vehicle: vehicle, arrived: navigator.arrivedDestinationIndex == finalIndex,
            settings: settings, speedAlertThresholds: thresholds, style: style, options: options)
        count += 1
        let name = String(format: "navigation-%05d.png", count)
        try Data(screen.png()).write(to: directory.appendingPathComponent(name))
    }
}
