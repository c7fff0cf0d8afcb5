// Decodes Decodable values from JSON and, unlike Foundation's JSONDecoder, rejects members
// that no type asked for, so a misspelt field is an error rather than silently lost. Errors
// name the field path ("trip.pickupPoint.point.latitude").

import Foundation

/// Why a JSON input could not become a model value: the member's path (the root name given
/// to the decoder when the problem is the document itself) and what was wrong.
public typealias JSONInputError = FieldError

/// A Decodable decoder over ``JSONValue`` that reports unknown members.
public struct StrictJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from JSON text; `root` names the document in error paths (e.g. "trip").
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, root: String) throws(JSONInputError) -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw JSONInputError(path: root, message: error.description)
        }
        return try decode(type, from: value, root: root)
    }

    /// Decodes `type` from a parsed value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, root: String) throws(JSONInputError) -> T {
        let tracker = UsageTracker()
        do {
            let decoder = ValueDecoder(value: value, parent: nil, key: nil, tracker: tracker)
            let result = try T(from: decoder)
            if let unused = tracker.firstUnusedMember() {
                throw JSONInputError(path: Self.path(root, unused), message: "unknown field")
            }
            return result
        } catch let error as JSONInputError {
            throw error
        } catch let error as DecodingError {
            // A missing required field beside an unknown one is most likely a misspelling:
            // name the unknown one, which is what the client has to fix.
            if case .keyNotFound(let key, let context) = error, let unknown = tracker.unusedMember(at: context.codingPath) {
                throw JSONInputError(
                    path: Self.path(root, context.codingPath + [AnyCodingKey(unknown)]),
                    message: "unknown field; '\(key.stringValue)' is required here")
            }
            throw Self.describe(error, root: root)
        } catch let error as FieldValidationError {
            throw JSONInputError(path: Self.path(root, error.codingPath), message: error.message)
        } catch {
            throw JSONInputError(path: root, message: "\(error)")
        }
    }

    /// Joins a root name and a coding path as `root.a.b[2].c`.
    public static func path(_ root: String, _ codingPath: [any CodingKey]) -> String {
        var out = root
        for key in codingPath {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }

    static func describe(_ error: DecodingError, root: String) -> JSONInputError {
        switch error {
        case .typeMismatch(_, let context):
            return JSONInputError(path: path(root, context.codingPath), message: context.debugDescription)
        case .valueNotFound(_, let context):
            return JSONInputError(path: path(root, context.codingPath), message: context.debugDescription)
        case .keyNotFound(let key, let context):
            return JSONInputError(path: path(root, context.codingPath + [key]), message: "required field is missing")
        case .dataCorrupted(let context):
            return JSONInputError(path: path(root, context.codingPath), message: context.debugDescription)
        @unknown default:
            return JSONInputError(path: root, message: "\(error)")
        }
    }
}

/// Thrown by a model type's `init(from:)` when a value decodes but is not acceptable
/// (out of range, too long); the decoder turns it into a ``JSONInputError``.
package struct FieldValidationError: Error {
    /// Where the value sits.
    package var codingPath: [any CodingKey]
    /// What is wrong with it.
    package var message: String

    /// Creates an error at a coding path.
    package init(codingPath: [any CodingKey], message: String) {
        self.codingPath = codingPath
        self.message = message
    }
}

/// A coding key made from a string or an index.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
    package var stringValue: String
    package var intValue: Int?
    package init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    package init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
    package init(_ string: String) { self.init(stringValue: string) }
}

/// Records which members of each decoded object were read. The marks of all objects share
/// one array, and an object's path is kept as its chain: registering an object allocates
/// nothing of its own (issue 30: decoding stored rows dominated reads that missed the caches).
final class UsageTracker {
    private var objects: [(path: CodingPathNode?, members: [(key: String, value: JSONValue)], firstMark: Int)] = []
    private var used: [Bool] = []

    func register(path: CodingPathNode?, members: [(key: String, value: JSONValue)]) -> Int {
        objects.append((path, members, used.count))
        used.append(contentsOf: repeatElement(false, count: members.count))
        return objects.count - 1
    }

    func markUsed(object: Int, member: Int) { used[objects[object].firstMark + member] = true }

    /// The first member of `object` not read, by index.
    private func unused(_ object: Int) -> Int? {
        let first = objects[object].firstMark
        return used[first..<first + objects[object].members.count].firstIndex(of: false).map { $0 - first }
    }

    func unusedMember(at path: [any CodingKey]) -> String? {
        let wanted = path.map(\.stringValue)
        for object in objects.indices where CodingPathNode.path(objects[object].path).map(\.stringValue) == wanted {
            if let i = unused(object) { return objects[object].members[i].key }
        }
        return nil
    }

    func firstUnusedMember() -> [any CodingKey]? {
        for object in objects.indices {
            if let i = unused(object) {
                return CodingPathNode.path(objects[object].path) + [AnyCodingKey(objects[object].members[i].key)]
            }
        }
        return nil
    }
}

/// A coding path as a chain from its last key back to the root, shared by everything under
/// it: a member's decoder points at its container's chain rather than copying the path into
/// an array of its own, and the array is made only when asked for (errors).
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the root to `node`.
    static func path(_ node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var next = node
        while let node = next {
            keys.append(node.key)
            next = node.parent
        }
        return keys.reversed()
    }
}

/// An array element's coding key, its text made only when asked for.
struct ElementKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { String(index) }
    var intValue: Int? { index }
}

struct ValueDecoder: Decoder {
    let value: JSONValue
    /// The path of the container holding the value, and the value's key in it (nil at the root).
    let parent: CodingPathNode?
    let key: (any CodingKey)?
    let tracker: UsageTracker
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var codingPath: [any CodingKey] { CodingPathNode.path(node) }

    /// The value's own path, for the members of a container it opens.
    var node: CodingPathNode? { key.map { CodingPathNode(parent: parent, key: $0) } ?? parent }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: codingPath, debugDescription: "expected an object, found \(value.kindDescription)"))
        }
        let node = node
        let id = tracker.register(path: node, members: members)
        let aliases = try ProtoJSONNames.aliases(of: members, codingPath: codingPath)
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, aliases: aliases, object: id, decoder: self, path: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(
                    codingPath: codingPath, debugDescription: "expected an array, found \(value.kindDescription)"))
        }
        return UnkeyedContainer(elements: elements, decoder: self, path: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)"))
    }
}

extension ValueDecoder: IntegerDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch("a boolean") }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    /// A number, or (as proto3 JSON allows) a string holding one, "NaN" or "±Infinity".
    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .number(let d, _): return d
        case .string(let text):
            if let d = ProtoJSONNumbers.double(text) { return d }
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "expected a number, found a string ('\(text.prefix(40))')"))
        default: throw mismatch("a number")
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// An integer, or (as proto3 JSON allows, and requires of 64-bit ones) a string holding
    /// one; a fraction is refused.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let found: String
        switch value {
        case .number(let d, let integer):
            if let integer, let exact = T(exactly: integer) { return exact }
            if let exact = T(exactly: d) { return exact }
            found = "\(d)"
        case .string(let text):
            if let exact = T(text) { return exact }
            if let d = ProtoJSONNumbers.double(text), let exact = T(exactly: d) { return exact }
            found = "'\(text.prefix(40))'"
        default: throw mismatch("an integer")
        }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath, debugDescription: "expected an integer in \(T.min)...\(T.max), found \(found)"))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    /// The members' lowerCamelCase names where the document used proto field names
    /// (`vehicle_state`); nil when it used none.
    let aliases: [String]?
    let object: Int
    let decoder: ValueDecoder
    /// The object's path, shared by its members' decoders.
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { decoder.codingPath }

    func child(_ value: JSONValue, _ key: Key) -> ValueDecoder {
        ValueDecoder(value: value, parent: path, key: key, tracker: decoder.tracker)
    }

    var allKeys: [Key] {
        for i in members.indices { decoder.tracker.markUsed(object: object, member: i) }
        return members.indices.compactMap { i in Key(stringValue: members[i].key) ?? aliases.flatMap { Key(stringValue: $0[i]) } }
    }

    /// The member named `key` exactly or, failing that, by its proto field name. Names are
    /// told apart by their lengths first: most of a type's members are absent from a document
    /// and each lookup of one compared it with every member present (a tenth of decoding a
    /// stored trip, issue 30).
    func index(_ key: Key) -> Int? {
        let name = key.stringValue
        let length = name.utf8.count
        if let i = members.firstIndex(where: { $0.key.utf8.count == length && $0.key == name }) { return i }
        return aliases?.firstIndex(where: { $0.utf8.count == length && $0 == name })
    }

    func contains(_ key: Key) -> Bool { index(key) != nil }

    func entry(_ key: Key) throws -> ValueDecoder {
        guard let i = index(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "required field is missing"))
        }
        decoder.tracker.markUsed(object: object, member: i)
        return child(members[i].value, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let i = index(key) else { return true }
        decoder.tracker.markUsed(object: object, member: i)
        return members[i].value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try entry(key)
        if child.value == .null, !(T.self == JSONValue.self) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: child.codingPath, debugDescription: "must not be null"))
        }
        return try child.decode(T.self)
    }

    /// The member's value; nil when absent, null, or (proto3 JSON) a value that means unset:
    /// an empty string, an enum's zero value (``ProtoDefaultDecodable``).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try presentValue(type, forKey: key) }

    /// A string member by the rule above: the standard library's default for this overload
    /// would bypass the generic one, and `""` would not read as unset.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentValue(type, forKey: key) }

    private func presentValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = index(key) else { return nil }
        decoder.tracker.markUsed(object: object, member: i)
        let value = members[i].value
        if value == .null { return nil }
        if ProtoJSONNumbers.mayMeanUnset(value), let unsettable = T.self as? any ProtoDefaultDecodable.Type, unsettable.isUnset(value) {
            return nil
        }
        return try child(value, key).decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try entry(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try entry(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try entry(key) }
}

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: ValueDecoder
    /// The array's path, shared by its elements' decoders.
    let path: CodingPathNode?
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [JSONValue], decoder: ValueDecoder, path: CodingPathNode?) {
        self.elements = elements
        self.decoder = decoder
        self.path = path
    }

    mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "array is too short"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], parent: path, key: ElementKey(currentIndex), tracker: decoder.tracker)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let child = try next()
        if child.value == .null {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: child.codingPath, debugDescription: "must not be null"))
        }
        return try child.decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

extension JSONValue: Decodable {
    /// Decoding a `JSONValue` through ``StrictJSONDecoder`` yields the raw value; other
    /// decoders are not supported for it.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ValueDecoder else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "raw JSON needs StrictJSONDecoder"))
        }
        self = decoder.value
    }
}
