import FuzzSupport
import JSON

/// Fuzzes the API's JSON parser. Whatever parses must encode and parse back to the same value
/// (stored bodies are read back this way); a refused input must be a thrown error. The member
/// limits are checked against a count of the document: with small limits, a document parses
/// exactly when its objects are within them, and then to the same value as without limits.
@main enum JSONFuzz {
    static let small = JSONParser.Limits(membersPerObject: 16, membersPerDocument: 64)

    static func main() {
        runFuzzer { data, size in
            let input = fuzzInput(data, size)
            guard let value = try? JSONParser.parse(input, limits: .none) else {
                if (try? JSONParser.parse(input, limits: JSONFuzz.small)) != nil { fatalError("parsed within limits but not without") }
                return 0
            }
            guard let encoded = try? JSONStreamEncoder().encode(value) else { fatalError("a parsed JSON value does not encode: \(value)") }
            guard let again = try? JSONParser.parse(encoded, limits: .none), again == value else {
                fatalError("JSON does not read back as written: \(String(decoding: encoded, as: UTF8.self).prefix(200))")
            }
            let (largest, total) = JSONFuzz.count(value)
            do throws(JSONParser.SyntaxError) {
                let limited = try JSONParser.parse(input, limits: JSONFuzz.small)
                guard limited == value, largest <= JSONFuzz.small.membersPerObject, total <= JSONFuzz.small.membersPerDocument else {
                    fatalError("parsed within limits a document beyond them (\(largest) in an object, \(total) in all)")
                }
            } catch {
                guard error.exceedsLimit, largest > JSONFuzz.small.membersPerObject || total > JSONFuzz.small.membersPerDocument else {
                    fatalError("refused a document within the limits (\(largest) in an object, \(total) in all): \(error)")
                }
            }
            return 0
        }
    }

    /// The most members of one object, and the members of all objects, in `value`.
    static func count(_ value: JSONValue) -> (largest: Int, total: Int) {
        switch value {
        case .object(let members):
            return members.reduce((members.count, members.count)) { sum, member in
                let inner = count(member.value)
                return (max(sum.0, inner.largest), sum.1 + inner.total)
            }
        case .array(let elements):
            return elements.reduce((0, 0)) { sum, element in
                let inner = count(element)
                return (max(sum.0, inner.largest), sum.1 + inner.total)
            }
        default: return (0, 0)
        }
    }
}
