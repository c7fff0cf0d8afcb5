// Decoding what this program wrote itself (stored rows, stored events) straight from the
// text. StrictJSONDecoder builds a tree of the whole document first, then checks every member
// was asked for: right for what clients send, and about two thirds of the price of every row
// the caches do not hold (issue 30: at 50,000 vehicles most rider reads and location updates
// decode a trip and a vehicle). Here an object's members are found when the object is opened
// and each value is read from the bytes only when asked for.
//
// It is the same decoding for any document it reads: the same values for the same members,
// the same proto3 JSON rules (defaults that mean unset, numbers as strings). What it does not
// do is explain: on anything it does not expect (an escaped member name, a value of the wrong
// kind, a required member missing) it gives up and StrictJSONDecoder decodes the document
// instead, so a row that cannot be read fails with the same message as before. The one
// difference is on purpose: members no type asks for are ignored, as a newer version's row
// read by an older server should be.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes Decodable values from JSON this program encoded (``JSONCoding``).
public enum StoredJSONDecoder {
    /// Decodes `type` from `text`; `root` names the document in the error of a document that
    /// cannot be decoded.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, root: String) throws(JSONInputError) -> T {
        var text = text
        if let value = text.withUTF8({ try? decode(type, from: $0) }) { return value }
        return try strict(type, from: text.utf8, root: root)
    }

    /// One top-level member of the object `text` holds, decoded alone; nil when it is absent or
    /// null. `name` also names the member in errors.
    public static func member<T: Decodable>(_ name: String, of text: String, as type: T.Type) throws(JSONInputError) -> T? {
        var text = text
        let fast = text.withUTF8 { bytes in
            Result { () throws -> T? in
                guard let found = try document(bytes).members().index(of: name), !found.isNull else { return nil }
                return try T(from: found)
            }
        }
        if case .success(let value) = fast { return value }
        guard let member = try parse(text.utf8, root: name)[name], member != .null else { return nil }
        return try StrictJSONDecoder().decode(type, from: member, root: name)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        try T(from: document(bytes))
    }

    /// The document's value, after any leading space.
    private static func document(_ bytes: UnsafeBufferPointer<UInt8>) -> StoredValue {
        var scanner = JSONObjectMembers.Scanner(bytes: bytes)
        scanner.skipSpace()
        return StoredValue(bytes: bytes, start: scanner.position)
    }

    private static func strict<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, root: String) throws(JSONInputError) -> T {
        try StrictJSONDecoder().decode(type, from: try parse(bytes, root: root), root: root)
    }

    /// What this program stored is read back whatever the request limits are now.
    private static func parse(_ bytes: some Collection<UInt8>, root: String) throws(JSONInputError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, limits: .none)
        } catch {
            throw JSONInputError(path: root, message: error.description)
        }
    }
}

/// Thrown where the fast path gives up; the document is then decoded by StrictJSONDecoder.
private struct NotForTheFastPath: Error {}

/// One value in the text: a decoder, and the container of a single value. Holds a pointer
/// into the text, valid while the text's buffer is (the decoding call).
private struct StoredValue: Decoder, IntegerDecodingContainer {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the value's first byte is.
    let start: Int

    // Paths are for errors, which StrictJSONDecoder reports.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var first: UInt8 { start < bytes.count ? bytes[start] : 0 }
    var isNull: Bool { isLiteral("null") }

    /// Whether `word` is the value here: a literal is checked whole, so that a row cut short
    /// or garbled is never read as something else.
    func isLiteral(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard start + count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + start, word.utf8Start, count) == 0
            && (start + count == bytes.count || !Self.continuesLiteral(bytes[start + count]))
    }

    /// Whether a byte after a literal or number would make it another token.
    static func continuesLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"):
            return true
        default: return false
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(StoredObject<Key>(members: try members()))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { StoredArray(elements: try elements(), in: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The members of the object here, each with where its name and its value are.
    func members() throws -> StoredMembers {
        var members: [StoredMembers.Member] = []
        // Most stored objects have a handful of members: one allocation, not a growing one.
        members.reserveCapacity(8)
        var scanner = JSONObjectMembers.Scanner(bytes: bytes, position: start)
        var escapedName = false
        let wellFormed = scanner.walkMembers { _, name in
            escapedName = Self.hasBackslash(bytes, name)
            // The value starts after the name's closing quote, the colon and any space.
            var value = JSONObjectMembers.Scanner(bytes: bytes, position: name.upperBound + 1)
            value.skipSpace()
            _ = value.take(UInt8(ascii: ":"))
            value.skipSpace()
            members.append(StoredMembers.Member(name: name, value: value.position))
            return !escapedName
        }
        guard wellFormed, !escapedName else { throw NotForTheFastPath() }
        return StoredMembers(bytes: bytes, members: members)
    }

    /// Where each element of the array here starts.
    func elements() throws -> [Int] {
        var scanner = JSONObjectMembers.Scanner(bytes: bytes, position: start)
        guard scanner.take(UInt8(ascii: "[")) else { throw NotForTheFastPath() }
        var elements: [Int] = []
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return elements }
        while true {
            scanner.skipSpace()
            elements.append(scanner.position)
            guard scanner.skipValue() else { throw NotForTheFastPath() }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { continue }
            guard scanner.take(UInt8(ascii: "]")) else { throw NotForTheFastPath() }
            return elements
        }
    }

    static func hasBackslash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        bytes[range].contains(UInt8(ascii: "\\"))
    }

    /// The string here; nil where the value is not a string.
    func string() throws -> String? {
        guard first == UInt8(ascii: "\"") else { return nil }
        var scanner = JSONObjectMembers.Scanner(bytes: bytes, position: start)
        guard let range = scanner.string() else { throw NotForTheFastPath() }
        guard Self.hasBackslash(bytes, range) else { return String(decoding: bytes[range], as: UTF8.self) }
        // Escapes are rare in stored text (a quote in a name): the parser reads them.
        guard case .string(let text) = try JSONParser.parse(bytes[start..<range.upperBound + 1], limits: .none) else {
            throw NotForTheFastPath()
        }
        return text
    }

    /// The number literal here, as the parser reads it: its value, and its integer where it
    /// has no fraction or exponent (and fits Int64). Integers are read from the bytes.
    func number() throws -> (double: Double, integer: Int64?)? {
        guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        var end = start
        var isInteger = true
        scan: while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isInteger = false
            default:
                guard !Self.continuesLiteral(bytes[end]) else { throw NotForTheFastPath() }
                break scan
            }
            end += 1
        }
        if isInteger, let integer = Self.integer(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return (Double(integer), integer) }
        return try Self.number(String(decoding: bytes[start..<end], as: UTF8.self), isInteger: isInteger)
    }

    private static func number(_ text: String, isInteger: Bool) throws -> (double: Double, integer: Int64?) {
        guard let double = Double(text), double.isFinite else { throw NotForTheFastPath() }
        return (double, isInteger ? Int64(text) : nil)
    }

    /// An integer literal of at most 18 digits (so it cannot overflow) with an optional minus
    /// sign, as JSON writes them; nil for anything else (and for `-0`, whose double is
    /// negative), which the general path reads.
    private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = literal.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: literal.dropFirst()) : literal
        guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        guard !(negative && value == 0) else { return nil }
        return negative ? -value : value
    }

    /// Whether the value's kind (by its first byte: a string, a number that may be zero) is
    /// one whose value may mean unset.
    var mayBeUnset: Bool { first == UInt8(ascii: "\"") || first == UInt8(ascii: "0") || first == UInt8(ascii: "-") }

    /// The value as ``JSONValue`` where it is one that may mean unset
    /// (``ProtoJSONNumbers/mayMeanUnset(_:)``), for ``ProtoDefaultDecodable``; nil otherwise.
    func possiblyUnset() throws -> JSONValue? {
        switch first {
        case UInt8(ascii: "\""):
            // The rule is tested on the bytes, so that most strings are never made.
            var scanner = JSONObjectMembers.Scanner(bytes: bytes, position: start)
            guard let range = scanner.string(), ProtoJSONNumbers.textMayMeanUnset(bytes[range]) else { return nil }
            return .string(try decode(String.self))
        case UInt8(ascii: "0"), UInt8(ascii: "-"):
            guard let number = try number(), number.double == 0 else { return nil }
            return .number(number.double, integer: number.integer)
        default:
            return nil
        }
    }

    // MARK: One value

    func decodeNil() -> Bool { isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        if isLiteral("true") { return true }
        if isLiteral("false") { return false }
        throw NotForTheFastPath()
    }

    func decode(_ type: String.Type) throws -> String {
        guard let text = try string() else { throw NotForTheFastPath() }
        return text
    }

    /// A number, or (proto3 JSON) a string holding one, "NaN" or "±Infinity".
    func decode(_ type: Double.Type) throws -> Double {
        if let number = try number() { return number.double }
        guard let text = try string(), let double = ProtoJSONNumbers.double(text) else { throw NotForTheFastPath() }
        return double
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// An integer, or a string holding one, as StrictJSONDecoder reads it.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if let number = try number() {
            if let integer = number.integer, let exact = T(exactly: integer) { return exact }
            if let exact = T(exactly: number.double) { return exact }
        } else if let text = try string() {
            if let exact = T(text) { return exact }
            if let double = ProtoJSONNumbers.double(text), let exact = T(exactly: double) { return exact }
        }
        throw NotForTheFastPath()
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A raw value's own decoding asks for StrictJSONDecoder's decoder: parse the slice.
        if T.self == JSONValue.self {
            var scanner = JSONObjectMembers.Scanner(bytes: bytes, position: start)
            guard scanner.skipValue() else { throw NotForTheFastPath() }
            return try JSONParser.parse(bytes[start..<scanner.position], limits: .none) as! T
        }
        return try T(from: self)
    }
}

/// An object's members: where each one's name and value start.
private struct StoredMembers {
    struct Member {
        /// The name, between its quotes.
        let name: Range<Int>
        /// Where the value starts.
        let value: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let members: [Member]

    /// The member named `name`. Names are compared by length first: most of a type's members
    /// are absent from a row, and each lookup of one passes every member present.
    func position(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { wanted in
            members.firstIndex { member in
                member.name.count == wanted.count
                    && (wanted.isEmpty || memcmp(bytes.baseAddress! + member.name.lowerBound, wanted.baseAddress!, wanted.count) == 0)
            }
        }
    }

    func index(of name: String) -> StoredValue? {
        position(of: name).map { StoredValue(bytes: bytes, start: members[$0].value) }
    }
}

private struct StoredObject<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: StoredMembers
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        members.members.compactMap { Key(stringValue: String(decoding: members.bytes[$0.name], as: UTF8.self)) }
    }

    func contains(_ key: Key) -> Bool { members.position(of: key.stringValue) != nil }

    private func value(_ key: Key) throws -> StoredValue {
        guard let value = members.index(of: key.stringValue) else { throw NotForTheFastPath() }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { members.index(of: key.stringValue)?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try value(key)
        if value.isNull, !(T.self == JSONValue.self) { throw NotForTheFastPath() }
        return try value.decode(T.self)
    }

    /// Nil when absent, null, or a value that means unset (as StrictJSONDecoder reads it).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try presentValue(type, forKey: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentValue(type, forKey: key) }

    private func presentValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members.index(of: key.stringValue), !value.isNull else { return nil }
        // By the first byte, then the type, then the value: most values stop at the first.
        if value.mayBeUnset, let unsettable = T.self as? any ProtoDefaultDecodable.Type, let scalar = try value.possiblyUnset(),
            unsettable.isUnset(scalar)
        {
            return nil
        }
        return try value.decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try value(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try value(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { throw NotForTheFastPath() }
    func superDecoder(forKey key: Key) throws -> any Decoder { try value(key) }
}

private struct StoredArray: UnkeyedDecodingContainer {
    let elements: [Int]
    let bytes: UnsafeBufferPointer<UInt8>
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [Int], in value: StoredValue) {
        self.elements = elements
        bytes = value.bytes
    }

    mutating func next() throws -> StoredValue {
        guard !isAtEnd else { throw NotForTheFastPath() }
        defer { currentIndex += 1 }
        return StoredValue(bytes: bytes, start: elements[currentIndex])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, StoredValue(bytes: bytes, start: elements[currentIndex]).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next()
        if value.isNull { throw NotForTheFastPath() }
        return try value.decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
