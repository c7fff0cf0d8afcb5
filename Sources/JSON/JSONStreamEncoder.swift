// A JSON encoder that writes bytes as the Encodable values are visited, instead of building
// a tree and serialising it as Foundation's JSONEncoder does: responses and stored
// resources are encoded on every request, and this is several times faster. Members come
// out in the order the `encode(to:)` implementations write them, so equal values always
// give equal bytes.

/// Encodes Encodable values as compact JSON.
public struct JSONStreamEncoder: Sendable {
    /// What the values' `encode(to:)` read from their encoder's `userInfo`.
    package let userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates an encoder whose encoders offer `userInfo` to the values they encode.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) { self.userInfo = userInfo }

    /// The JSON bytes of `value`; throws `EncodingError.invalidValue` for NaN or infinity.
    public func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONByteWriter(userInfo: userInfo)
        try writer.encodeValue(value, pathDepth: 0)
        writer.closeFrames(downTo: 0)
        return writer.bytes
    }
}

/// The output and the stack of open objects/arrays. Encodable gives no signal when a
/// container is finished, so a container is closed when its parent writes again or when
/// the value that opened it returns from `encode(to:)`.
final class JSONByteWriter {
    // One writer serves one encode call on one thread; the dynamic exclusivity checks on
    // these properties cost more than the writes themselves.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Open containers, innermost last: whether each is an object, and whether it has members.
    @exclusivity(unchecked) private var frames: [(isObject: Bool, hasMembers: Bool)] = []
    /// The keys leading to the value being written. Containers remember only how deep
    /// their own path is and read it from here when asked (only errors ask): building a
    /// new path array for every nested value was a malloc per member.
    @exclusivity(unchecked) private var path: [any CodingKey] = []

    /// The first `depth` keys of the current path.
    func codingPath(depth: Int) -> [any CodingKey] { Array(path.prefix(depth)) }

    /// Sets the path to its first `depth` keys followed by `key`; returns the new depth.
    func enter(depth: Int, key: any CodingKey) -> Int {
        // A container used out of turn could find the path shorter than its own depth.
        if path.count > depth { path.removeLast(path.count - depth) }
        path.append(key)
        return path.count
    }

    /// The encoder's `userInfo`, the same for every value it visits. Kept as given: turning it
    /// into the `[CodingUserInfoKey: Any]` that `Encoder` offers looks up generic metadata, and
    /// only the values that ask (few, and only where they have something to leave out) pay.
    let userInfo: [CodingUserInfoKey: any Sendable]

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo
        bytes.reserveCapacity(1024)
    }

    var depth: Int { frames.count }

    func closeFrames(downTo depth: Int) {
        while frames.count > depth {
            bytes.append(frames.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    func open(object: Bool) -> Int {
        bytes.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append((object, false))
        return frames.count
    }

    /// Prepares container `frame` (1-based depth) for its next member or element.
    func beginMember(of frame: Int, key: String?) {
        closeFrames(downTo: frame)
        if frames[frame - 1].hasMembers { bytes.append(UInt8(ascii: ",")) }
        frames[frame - 1].hasMembers = true
        if let key {
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    func encodeValue(_ value: some Encodable, pathDepth: Int) throws {
        let depth = frames.count
        let start = bytes.count
        try value.encode(to: StreamEncoder(writer: self, pathDepth: pathDepth))
        closeFrames(downTo: depth)
        if bytes.count == start { bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
    }

    func writeString(_ text: String) { JSONStringText.append(text, to: &bytes) }

    func writeDouble(_ value: Double, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath(), debugDescription: "\(value) is not a JSON number"))
        }
        if value == value.rounded(), abs(value) < 1e15 {
            writeInteger(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    func writeInteger<T: BinaryInteger>(_ value: T) { bytes.append(contentsOf: String(value).utf8) }

    func writeLiteral(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}

private struct StreamEncoder: Encoder {
    let writer: JSONByteWriter
    let pathDepth: Int
    var codingPath: [any CodingKey] { writer.codingPath(depth: pathDepth) }
    var userInfo: [CodingUserInfoKey: Any] {
        if writer.userInfo.isEmpty { return [:] }
        return writer.userInfo.mapValues { $0 as Any }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedContainer<Key>(writer: writer, frame: writer.open(object: true), pathDepth: pathDepth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(writer: writer, frame: writer.open(object: false), pathDepth: pathDepth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { StreamSingleValue(writer: writer, pathDepth: pathDepth) }
}

private struct StreamSingleValue: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let pathDepth: Int
    var codingPath: [any CodingKey] { writer.codingPath(depth: pathDepth) }

    mutating func encodeNil() throws { writer.writeLiteral("null") }
    mutating func encode(_ value: Bool) throws { writer.writeLiteral(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try writer.writeDouble(value, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try writer.writeDouble(Double(value), codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value, pathDepth: pathDepth) }
}

private struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let frame: Int
    let pathDepth: Int
    var codingPath: [any CodingKey] { writer.codingPath(depth: pathDepth) }

    private func begin(_ key: Key) { writer.beginMember(of: frame, key: key.stringValue) }
    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws {
        begin(key)
        writer.writeLiteral("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        begin(key)
        writer.writeLiteral(value ? "true" : "false")
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        begin(key)
        writer.writeString(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        begin(key)
        try writer.writeDouble(value, codingPath: path(key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        begin(key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        begin(key)
        writer.writeInteger(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        begin(key)
        try writer.encodeValue(value, pathDepth: writer.enter(depth: pathDepth, key: key))
    }

    // The standard library's default `encodeIfPresent` passes every value through the
    // generic `encode`, which for a String or a number builds a nested encoder and a
    // single-value container; these keep the direct paths.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        begin(key)
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(
                writer: writer, frame: writer.open(object: true),
                pathDepth: writer.enter(depth: pathDepth, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        begin(key)
        return StreamUnkeyedContainer(writer: writer, frame: writer.open(object: false), pathDepth: writer.enter(depth: pathDepth, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginMember(of: frame, key: "super")
        return StreamEncoder(writer: writer, pathDepth: pathDepth)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        begin(key)
        return StreamEncoder(writer: writer, pathDepth: writer.enter(depth: pathDepth, key: key))
    }
}

private struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let frame: Int
    let pathDepth: Int
    var codingPath: [any CodingKey] { writer.codingPath(depth: pathDepth) }
    private(set) var count = 0

    init(writer: JSONByteWriter, frame: Int, pathDepth: Int) {
        self.writer = writer
        self.frame = frame
        self.pathDepth = pathDepth
    }

    private var elementKey: AnyCodingKey { AnyCodingKey(intValue: count - 1) }

    private mutating func begin() {
        writer.beginMember(of: frame, key: nil)
        count += 1
    }

    mutating func encodeNil() throws {
        begin()
        writer.writeLiteral("null")
    }
    mutating func encode(_ value: Bool) throws {
        begin()
        writer.writeLiteral(value ? "true" : "false")
    }
    mutating func encode(_ value: String) throws {
        begin()
        writer.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        begin()
        try writer.writeDouble(value, codingPath: codingPath + [elementKey])
    }
    mutating func encode(_ value: Int) throws {
        begin()
        writer.writeInteger(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try writer.encodeValue(value, pathDepth: writer.enter(depth: pathDepth, key: elementKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        begin()
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(
                writer: writer, frame: writer.open(object: true),
                pathDepth: writer.enter(depth: pathDepth, key: elementKey)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        begin()
        return StreamUnkeyedContainer(writer: writer, frame: writer.open(object: false), pathDepth: writer.enter(depth: pathDepth, key: elementKey))
    }

    mutating func superEncoder() -> any Encoder {
        begin()
        return StreamEncoder(writer: writer, pathDepth: writer.enter(depth: pathDepth, key: elementKey))
    }
}
