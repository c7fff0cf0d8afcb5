import FuzzSupport
import Scenarios

/// Fuzzes the Fleet Engine Cloud Logging export reader (`tripshare replay`,
/// `import fleet-log`, `demo --fleet-log`), and the vehicles it synthesizes for replays.
@main enum FleetLogFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let log = try? FleetLog.parse(fuzzInput(data, size)) else { return 0 }
            for case .createVehicle(_, let id, _) in log.entries.lazy.map(\.call).prefix(4) {
                _ = log.synthesizedVehicle(id: id)
            }
            return 0
        }
    }
}
