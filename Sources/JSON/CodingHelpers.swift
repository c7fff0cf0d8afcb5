// Shorthands for hand-written Codable conformances: proto3 JSON omits empty repeated
// fields, and absent repeated fields decode as empty. Inlinable, so that each caller's module
// specialises them for its own element types: unspecialised, every array member of every
// encode looked up the metadata of its array type at run time (issue 31).

extension KeyedDecodingContainer {
    /// Decodes an array that may be absent or null (then empty).
    @inlinable package func decodeArray<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> [T] {
        try decodeIfSet([T].self, forKey: key) ?? []
    }

    /// What `decodeIfPresent` decodes, asking first whether the member is there at all: most
    /// of a message's members are absent from a request (a location update sets a handful of
    /// a vehicle's sixty), and for each the standard library's type-erasing box looked up
    /// `Optional<T>`'s metadata at run time to return nil; `contains` is not generic.
    @inlinable package func decodeIfSet<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try decodeIfPresent(type, forKey: key)
    }
}

extension KeyedEncodingContainer {
    /// Encodes an array unless it is empty.
    @inlinable package mutating func encodeNonEmpty<T: Encodable>(_ values: [T], forKey key: Key) throws {
        if !values.isEmpty { try encode(values, forKey: key) }
    }

    /// Encodes `value` unless it is nil: what `encodeIfPresent` does, without its cost. The
    /// standard library passes the optional on through the container's type-erasing box, whose
    /// unspecialised code looks up the metadata of `Optional<T>` at run time for every member,
    /// present or not (a sixth of a vehicle's encoding); unwrapped here, in the caller's module,
    /// the box sees only `T`.
    @inlinable package mutating func encodeIfSet<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    // Strings, numbers and booleans keep the containers' own direct paths: in the generic
    // function above they would take the generic `encode`, a nested encoder each.
    @inlinable package mutating func encodeIfSet(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    @inlinable package mutating func encodeIfSet(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    @inlinable package mutating func encodeIfSet(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    @inlinable package mutating func encodeIfSet(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    @inlinable package mutating func encodeIfSet(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a proto3 integer without presence (a plain `int32`, not a wrapper): its
    /// default, 0, is what an unset field prints, so it decodes as nil.
    @inlinable package func decodeScalar<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = try decodeIfSet(T.self, forKey: key), value != 0 else { return nil }
        return value
    }
}

/// A decoder's single value that reads every width of integer the one way (``integer(_:)``),
/// as both of the module's decoders do.
protocol IntegerDecodingContainer: SingleValueDecodingContainer {
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T
}

extension IntegerDecodingContainer {
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
}
