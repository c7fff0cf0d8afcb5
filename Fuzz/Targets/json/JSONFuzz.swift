import FuzzSupport
import JSON

/// Fuzzes the API's JSON parser. Whatever parses must encode and parse back to the
/// same value (stored bodies are read back this way); a refused input must be a thrown error.
@main enum JSONFuzz {
    static func main() {
        runFuzzer { data, size in
            guard let value = try? JSONParser.parse(fuzzInput(data, size)) else { return 0 }
            guard let encoded = try? JSONStreamEncoder().encode(value) else { fatalError("a parsed JSON value does not encode: \(value)") }
            guard let again = try? JSONParser.parse(encoded), again == value else {
                fatalError("JSON does not read back as written: \(String(decoding: encoded, as: UTF8.self).prefix(200))")
            }
            return 0
        }
    }
}
