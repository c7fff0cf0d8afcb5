import FuzzSupport
import JSON
import TripModel

/// Fuzzes the strict decoder on the API's request bodies (a vehicle, a trip, a
/// vehicle search). What it accepts of a resource must encode to JSON it accepts again: the
/// store keeps resources as that JSON and reads them back with the same decoder. A search is
/// only read, never stored, so it has no encoding to check.
@main enum StrictDecoderFuzz {
    static func main() {
        runFuzzer { data, size in
            let bytes = fuzzInput(data, size)
            roundTrip(Vehicle.self, bytes, root: "vehicle")
            roundTrip(Trip.self, bytes, root: "trip")
            _ = try? StrictJSONDecoder().decode(VehicleSearchQuery.self, from: bytes, root: "")
            return 0
        }
    }
}

private func roundTrip<T: Codable>(_ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, root: String) {
    let decoder = StrictJSONDecoder()
    guard let value = try? decoder.decode(type, from: bytes, root: root) else { return }
    do {
        let encoded = try JSONStreamEncoder().encode(value)
        _ = try decoder.decode(type, from: encoded, root: "stored")
    } catch {
        fatalError("a decoded \(T.self) does not read back once encoded: \(error)")
    }
}
