import FuzzSupport
import Geo

/// Fuzzes Fleet Engine's S2 polylines, as bytes and as the base64 text the logs
/// and the API carry.
@main enum S2PolylineFuzz {
    static func main() {
        runFuzzer { data, size in
            let bytes = Array(fuzzInput(data, size))
            _ = try? S2Polyline.decode(bytes: bytes)
            _ = try? S2Polyline.decode(base64: String(decoding: bytes, as: UTF8.self))
            return 0
        }
    }
}
