// A strict RFC 8259 parser: no comments, no trailing commas, no NaN/Infinity, no
// duplicate keys, bounded nesting and member counts. Errors carry the byte offset. Its time
// is linear in the input: duplicate members are found through a set of an object's names once
// it has more than a few, so a body of many distinct members costs no more than its bytes.

/// Parses JSON text into a ``JSONValue``.
public struct JSONParser {
    /// Why a document is not valid JSON, or is larger than the parser's ``Limits`` allow.
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        /// Byte offset where parsing failed.
        public var offset: Int
        /// What was wrong there.
        package var reason: String
        /// Whether the document is valid JSON beyond the parser's limits rather than malformed.
        public var exceedsLimit = false

        /// An error at `offset`.
        package init(offset: Int, reason: String, exceedsLimit: Bool = false) {
            self.offset = offset
            self.reason = reason
            self.exceedsLimit = exceedsLimit
        }

        public var description: String {
            exceedsLimit ? "JSON too large at byte \(offset): \(reason)" : "malformed JSON at byte \(offset): \(reason)"
        }
    }

    /// How many members a document may hold: beyond them it is refused as soon as the parser
    /// counts one too many, so an outsized body costs little and holds no large tree.
    public struct Limits: Sendable, Equatable {
        /// Members one object may have.
        public var membersPerObject: Int
        /// Members all the document's objects may have together.
        public var membersPerDocument: Int

        /// Limits of `membersPerObject` and `membersPerDocument` members.
        public init(membersPerObject: Int, membersPerDocument: Int) {
            self.membersPerObject = membersPerObject
            self.membersPerDocument = membersPerDocument
        }

        /// 10,000 members an object (no object of the API has more than a few dozen; a map
        /// field holds what its client sends) and 200,000 a document: a 10,000-step route,
        /// lanes included, has about 150,000 (while a 2 MiB body of the smallest members could
        /// hold 350,000).
        public static let standard = Limits(membersPerObject: 10_000, membersPerDocument: 200_000)

        /// The limits with `membersPerObject` per object, and a document bound no lower.
        package static func perObject(_ membersPerObject: Int) -> Limits {
            Limits(membersPerObject: membersPerObject, membersPerDocument: max(standard.membersPerDocument, membersPerObject))
        }

        /// No bound but memory: for documents this program wrote itself (stored rows).
        public static let none = Limits(membersPerObject: .max, membersPerDocument: .max)
    }

    /// Deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 64

    /// Parses a whole document; trailing non-space bytes are an error, and so is a document
    /// with more members than `limits` allow.
    public static func parse(_ bytes: some Collection<UInt8>, limits: Limits = .standard) throws(SyntaxError) -> JSONValue {
        let buffer = Array(bytes)
        var parser = Cursor(bytes: buffer, limits: limits)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == buffer.count else {
            throw SyntaxError(offset: parser.index, reason: "unexpected text after the document")
        }
        return value
    }

    /// Objects up to this many members look for a duplicate name by comparing with each
    /// member, which is faster than hashing; larger ones keep a set of names.
    static let linearDuplicateSearch = 8

    private struct Cursor {
        let bytes: [UInt8]
        let limits: Limits
        var index = 0
        /// Members of every object read so far.
        var documentMembers = 0

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func fail(_ reason: String) -> SyntaxError { SyntaxError(offset: index, reason: reason) }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard index < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail("unexpected end of input") }
            let matches = word.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
            }
            guard matches else { throw fail("invalid literal") }
            index += count
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw fail("nesting deeper than \(JSONParser.maximumDepth)") }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            var names: Set<String> = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let keyOffset = index
                guard members.count < limits.membersPerObject else {
                    throw SyntaxError(
                        offset: keyOffset, reason: "an object has more than \(limits.membersPerObject) members", exceedsLimit: true)
                }
                guard documentMembers < limits.membersPerDocument else {
                    throw SyntaxError(
                        offset: keyOffset, reason: "the document has more than \(limits.membersPerDocument) members",
                        exceedsLimit: true)
                }
                documentMembers += 1
                let key = try string()
                let duplicate: Bool
                if members.count < JSONParser.linearDuplicateSearch {
                    duplicate = members.contains(where: { $0.key == key })
                } else {
                    if names.isEmpty { names = Set(members.lazy.map(\.key)) }
                    duplicate = !names.insert(key).inserted
                }
                if duplicate {
                    throw SyntaxError(offset: keyOffset, reason: "duplicate member '\(key.prefix(64))'")
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth)))
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end of input") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                throw fail("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw fail("nesting deeper than \(JSONParser.maximumDepth)") }
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth))
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end of input") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                throw fail("expected ',' or ']'")
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    try checkUTF8(start, index)
                    index += 1
                    return text
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw fail("control character in a string") }
                index += 1
            }
            var scalars = Array(bytes[start..<index])
            while index < bytes.count {
                let c = bytes[index]
                switch c {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: scalars, as: UTF8.self) else {
                        throw SyntaxError(offset: start, reason: "string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw fail("unexpected end of input") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append(0x22)
                    case UInt8(ascii: "\\"): scalars.append(0x5C)
                    case UInt8(ascii: "/"): scalars.append(0x2F)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw fail("unpaired surrogate") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(code) {
                            throw fail("unpaired surrogate")
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("invalid escape") }
                        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw fail("invalid escape")
                    }
                default:
                    if c < 0x20 { throw fail("control character in a string") }
                    scalars.append(c)
                    index += 1
                }
            }
            throw fail("unterminated string")
        }

        func checkUTF8(_ start: Int, _ end: Int) throws(SyntaxError) {
            var ascii = true
            for i in start..<end where bytes[i] >= 0x80 {
                ascii = false
                break
            }
            if ascii { return }
            if String(validating: bytes[start..<end], as: UTF8.self) == nil {
                throw SyntaxError(offset: start, reason: "string is not valid UTF-8")
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("unexpected end of input") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let digit: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("invalid \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) { throw fail("leading zero in a number") }
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let double = Double(text), double.isFinite else {
                throw SyntaxError(offset: start, reason: "number out of range")
            }
            return .number(double, integer: isInteger ? Int64(text) : nil)
        }

        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    }
}
