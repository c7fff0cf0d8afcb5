// Decoding of MVT 2.x (vector_tile.proto: Tile.layers = 3; Layer.name = 1, features = 2,
// keys = 3, values = 4, extent = 5, version = 15; Feature.id = 1, tags = 2, type = 3,
// geometry = 4; Value.string = 1, float = 2, double = 3, int = 4, uint = 5, sint = 6,
// bool = 7). Contract: input is untrusted; any breach of the specification throws
// `corruptTile` with a message naming the layer and feature: a known field with the wrong
// wire type, a missing version or name, versions other than 1 and 2, an extent
// of 0, duplicate layer names, a missing geometry, values with no or an unknown type, odd tag counts, tags that
// index past the tables, and every geometry rule of FeatureGeometry. Unknown fields of
// tiles, layers and features are skipped (the specification reserves them for extensions).
// Work is linear in the input size.

extension VectorTile {
    /// Decodes and validates an uncompressed MVT protobuf. Throws `corruptTile`.
    public init(decoding bytes: [UInt8]) throws(BasemapError) {
        try self.init(decoding: bytes, checkingGeometry: true)
    }

    /// Decodes an MVT protobuf, checking the geometry command streams only when
    /// `checkingGeometry` (PreparedTile walks them once itself, checking them then).
    init(decoding bytes: [UInt8], checkingGeometry: Bool) throws(BasemapError) {
        var reader = ProtobufReader(bytes)
        var layers: [Layer] = []
        var names = Set<String>()
        do throws(ProtobufReader.Failure) {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                if field == 3 {
                    try Self.expect(wireType, .lengthDelimited, "Tile.layers")
                    var message = try reader.message()
                    let layer = try Self.layer(&message, index: layers.count, checkingGeometry: checkingGeometry)
                    guard names.insert(layer.name).inserted else {
                        throw Self.failure("two layers are named \"\(layer.name)\"")
                    }
                    layers.append(layer)
                } else {
                    try reader.skip(wireType)
                }
            }
        } catch {
            throw BasemapError(code: .corruptTile, message: error.reason)
        }
        self.init(layers: layers)
    }

    private static func failure(_ reason: String) -> ProtobufReader.Failure {
        ProtobufReader.Failure(reason: reason)
    }

    private static func expect(
        _ actual: ProtobufReader.WireType, _ expected: ProtobufReader.WireType,
        _ field: String
    ) throws(ProtobufReader.Failure) {
        guard actual == expected else {
            throw failure("\(field) has wire type \(actual.rawValue), expected \(expected.rawValue)")
        }
    }

    private static func layer(_ reader: inout ProtobufReader, index: Int, checkingGeometry: Bool) throws(ProtobufReader.Failure) -> Layer {
        var version: UInt32?
        var name: String?
        var extent: UInt32 = 4096
        var keys: [String] = []
        var values: [Value] = []
        var features: [Feature] = []
        func context() -> String { name.map { "layer \"\($0)\"" } ?? "layer \(index)" }
        do throws(ProtobufReader.Failure) {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                switch field {
                case 15:
                    try expect(wireType, .varint, "Layer.version")
                    version = try reader.varint32()
                case 1:
                    try expect(wireType, .lengthDelimited, "Layer.name")
                    name = try reader.string()
                case 2:
                    try expect(wireType, .lengthDelimited, "Layer.features")
                    var message = try reader.message()
                    features.append(try feature(&message, index: features.count))
                case 3:
                    try expect(wireType, .lengthDelimited, "Layer.keys")
                    keys.append(try reader.string())
                case 4:
                    try expect(wireType, .lengthDelimited, "Layer.values")
                    var message = try reader.message()
                    values.append(try value(&message, index: values.count))
                case 5:
                    try expect(wireType, .varint, "Layer.extent")
                    extent = try reader.varint32()
                default:
                    try reader.skip(wireType)
                }
            }
        } catch {
            throw failure("\(context()): \(error.reason)")
        }
        guard let name else { throw failure("\(context()) has no name") }
        guard let version else { throw failure("layer \"\(name)\" has no version") }
        guard version == 1 || version == 2 else { throw failure("layer \"\(name)\" has version \(version) (expected 1 or 2)") }
        guard extent > 0 else { throw failure("layer \"\(name)\" has an extent of 0") }
        for (position, feature) in features.enumerated() {
            guard feature.tags.count % 2 == 0 else {
                throw failure("layer \"\(name)\", \(describe(feature, position)): an odd number of tags (\(feature.tags.count))")
            }
            var tag = 0
            while tag < feature.tags.count {
                guard Int(feature.tags[tag]) < keys.count else {
                    throw failure(
                        "layer \"\(name)\", \(describe(feature, position)): tag key \(feature.tags[tag]) "
                            + "is past the \(keys.count) keys")
                }
                guard Int(feature.tags[tag + 1]) < values.count else {
                    throw failure(
                        "layer \"\(name)\", \(describe(feature, position)): tag value \(feature.tags[tag + 1]) "
                            + "is past the \(values.count) values")
                }
                tag += 2
            }
            guard checkingGeometry else { continue }
            var sink = DiscardingSink()
            do throws(GeometryCommands.Failure) {
                try GeometryCommands.walk(feature.geometry, type: feature.type, into: &sink)
            } catch {
                throw failure("layer \"\(name)\", \(describe(feature, position)): \(error.reason)")
            }
        }
        return Layer(version: Int(version), name: name, extent: Int(extent), keys: keys, values: values, features: features)
    }

    private static func describe(_ feature: Feature, _ position: Int) -> String {
        feature.id.map { "feature id \($0)" } ?? "feature \(position)"
    }

    private static func feature(_ reader: inout ProtobufReader, index: Int) throws(ProtobufReader.Failure) -> Feature {
        var id: UInt64?
        var tags: [UInt32] = []
        var type: GeometryType?
        var geometry: [UInt32]?
        do throws(ProtobufReader.Failure) {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                switch field {
                case 1:
                    try expect(wireType, .varint, "Feature.id")
                    id = try reader.varint()
                case 2:
                    // Packed, as the specification says; an unpacked repeated field is also
                    // legal protobuf and costs nothing to accept.
                    if wireType == .varint {
                        tags.append(try reader.varint32())
                    } else {
                        try expect(wireType, .lengthDelimited, "Feature.tags")
                        try reader.packedUInt32(into: &tags)
                    }
                case 3:
                    try expect(wireType, .varint, "Feature.type")
                    let raw = try reader.varint()
                    guard raw <= 3, let known = GeometryType(rawValue: Int(raw)) else {
                        throw failure("unknown geometry type \(raw)")
                    }
                    type = known
                case 4:
                    try expect(wireType, .lengthDelimited, "Feature.geometry")
                    guard geometry == nil else { throw failure("more than one geometry field") }
                    var commands: [UInt32] = []
                    try reader.packedUInt32(into: &commands)
                    geometry = commands
                default:
                    try reader.skip(wireType)
                }
            }
        } catch {
            throw failure("\(id.map { "feature id \($0)" } ?? "feature \(index)"): \(error.reason)")
        }
        let name = id.map { "feature id \($0)" } ?? "feature \(index)"
        guard let geometry else { throw failure("\(name) has no geometry") }
        // An absent type reads as UNKNOWN, protobuf's default: such features are kept but
        // never drawn (the specification marks them invalid, yet mvt-fixtures 016 holds the
        // same bytes as a valid tile).
        return Feature(id: id, tags: tags, type: type ?? .unknown, geometry: geometry)
    }

    static func value(_ reader: inout ProtobufReader, index: Int) throws(ProtobufReader.Failure) -> Value {
        var result: Value?
        do throws(ProtobufReader.Failure) {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                let decoded: Value
                switch field {
                case 1:
                    try expect(wireType, .lengthDelimited, "Value.string_value")
                    decoded = .string(try reader.string())
                case 2:
                    try expect(wireType, .fixed32, "Value.float_value")
                    decoded = .float(Float(bitPattern: try reader.fixed32()))
                case 3:
                    try expect(wireType, .fixed64, "Value.double_value")
                    decoded = .double(Double(bitPattern: try reader.fixed64()))
                case 4:
                    try expect(wireType, .varint, "Value.int_value")
                    decoded = .int(Int64(bitPattern: try reader.varint()))
                case 5:
                    try expect(wireType, .varint, "Value.uint_value")
                    decoded = .uint(try reader.varint())
                case 6:
                    try expect(wireType, .varint, "Value.sint_value")
                    let raw = try reader.varint()
                    decoded = .sint(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
                case 7:
                    try expect(wireType, .varint, "Value.bool_value")
                    let raw = try reader.varint()
                    guard raw <= 1 else { throw failure("bool_value \(raw) is neither 0 nor 1") }
                    decoded = .bool(raw == 1)
                default:
                    throw failure("unknown value field \(field)")
                }
                guard result == nil else { throw failure("more than one value field") }
                result = decoded
            }
        } catch {
            throw failure("value \(index): \(error.reason)")
        }
        guard let result else { throw failure("value \(index) has no value field") }
        return result
    }
}
