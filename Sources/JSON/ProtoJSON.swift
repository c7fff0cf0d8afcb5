// proto3 JSON as protobuf's own printers write it (DESIGN §3), read once here rather than by
// every model type: a member may be named by its lowerCamelCase JSON name or its proto field
// name (`vehicle_state`); a scalar printed with its default value (`""`, an enum's zero
// value) means the field is unset; numbers may come as strings ("NaN", int64 as "123").

/// A type some of whose proto3 JSON values mean "not set" (a string's `""`, an enum's
/// `UNKNOWN_*`/`*_UNSPECIFIED` name or `0`): ``StrictJSONDecoder`` decodes such a value of an
/// optional member as absent.
public protocol ProtoDefaultDecodable {
    /// Whether `value` is this type's default, printed by a proto3 JSON printer for an
    /// unset field.
    static func isUnset(_ value: JSONValue) -> Bool
}

extension String: ProtoDefaultDecodable {
    /// The empty string: proto3 has no presence for strings.
    public static func isUnset(_ value: JSONValue) -> Bool { value == .string("") }
}

/// Proto field names as JSON member names.
package enum ProtoJSONNames {
    /// The lowerCamelCase JSON name of a proto field name (`lat_lng` → `latLng`), as protoc
    /// derives it; a name without underscores is returned as it is.
    package static func jsonName(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "_")) else { return name }
        var out = ""
        out.reserveCapacity(name.utf8.count)
        var upper = false
        for ch in name {
            if ch == "_" {
                upper = true
            } else {
                out.append(upper ? Character(ch.uppercased()) : ch)
                upper = false
            }
        }
        return out
    }

    /// The members' JSON names when some member is named by its proto field name, else nil
    /// (the usual case, which costs one scan of the keys). A field named twice, once each
    /// way, is refused as protobuf's parsers refuse it.
    static func aliases(of members: [(key: String, value: JSONValue)], codingPath: @autoclosure () -> [any CodingKey]) throws -> [String]? {
        guard members.contains(where: { $0.key.utf8.contains(UInt8(ascii: "_")) }) else { return nil }
        let names = members.map { $0.key.utf8.contains(UInt8(ascii: "_")) ? jsonName($0.key) : $0.key }
        var seen = Set<String>()
        for (i, name) in names.enumerated() where !seen.insert(name).inserted {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath() + [AnyCodingKey(members[i].key)],
                    debugDescription: "the field '\(name)' is given twice (as '\(name)' and by its proto name)"))
        }
        return names
    }
}

/// Numbers as proto3 JSON writes them.
enum ProtoJSONNumbers {
    /// A number written as a string: decimal, "NaN", "Infinity" or "-Infinity".
    static func double(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default:
            // Swift's parser also reads "nan", "inf" and hex floats: accept decimal text only.
            guard let first = text.utf8.first, first == UInt8(ascii: "-") || (48...57).contains(first) else { return nil }
            guard !text.utf8.contains(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }) else { return nil }
            return Double(text)
        }
    }

    /// A cheap test for a value that may be some type's default (``ProtoDefaultDecodable``),
    /// so that only those pay for the type check.
    static func mayMeanUnset(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text):
            return textMayMeanUnset(text.utf8)
        case .number(let d, _):
            return d == 0
        default:
            return false
        }
    }

    /// The test for a string, on its UTF-8 text: empty, or spelt as an enum's zero value
    /// (`UNKNOWN_...`, `..._UNSPECIFIED`).
    static func textMayMeanUnset(_ text: some BidirectionalCollection<UInt8>) -> Bool {
        text.isEmpty || text.starts(with: "UNKNOWN".utf8) || text.reversed().starts(with: "UNSPECIFIED".utf8.reversed())
    }
}
