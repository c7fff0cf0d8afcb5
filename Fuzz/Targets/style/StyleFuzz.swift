import FuzzSupport
import Styling

/// The bundled defaults and icons, loaded once.
private let library: StyleLibrary = {
    do { return try StyleLibrary.bundled() } catch { fatalError("the bundled styles do not load: \(error)") }
}()

/// Fuzzes style JSON as the API takes it (a whole style sheet, one marker's or one
/// polyline's options, one traffic colour) and the driver screen's settings. Whatever is
/// accepted is stored as JSON and must be read back.
@main enum StyleFuzz {
    static func main() {
        runFuzzer { data, size in
            let bytes = fuzzInput(data, size)
            var coordinator = StyleCoordinator(defaults: library.defaultStyle)
            if (try? coordinator.setStyle(json: bytes, icons: library.icons)) != nil {
                let stored = coordinator.storedOverrides()
                guard (try? StyleCoordinator(defaults: library.defaultStyle, storedOverrides: stored, icons: library.icons)) != nil else {
                    fatalError("accepted style overrides do not read back: \(String(decoding: stored, as: UTF8.self).prefix(300))")
                }
            }
            var single = StyleCoordinator(defaults: library.defaultStyle)
            _ = try? single.setMarkerStyleOptions(json: bytes, for: .tripPickupPoint, icons: library.icons)
            _ = try? single.setPolylineStyleOptions(json: bytes, for: .activeRoute)
            _ = try? single.setTrafficColor(json: bytes, for: .trafficJam, polyline: .activeRoute)
            _ = try? NavigationUISettings(json: bytes)
            return 0
        }
    }
}
