// Decoding an MVT protobuf straight into drawing form (PreparedTile): one pass, each feature's
// tags and vertices appended to its layer's flat arrays as they are read, through buffers
// reused from feature to feature, with no VectorTile in between (whose every feature holds two
// arrays of its own, made and freed on each cold draw). Contract: a tile decodes to the same
// PreparedTile as `PreparedTile(VectorTile(decoding:checkingGeometry: false))`; a tile that
// breaks any rule of the specification is decoded again that way, so what it throws is
// exactly that path's `corruptTile` error, message included.

extension PreparedTile {
    /// Decodes an uncompressed MVT protobuf for drawing. Throws `corruptTile`.
    convenience init(decoding bytes: [UInt8]) throws(BasemapError) {
        if let layers = Self.layers(decoding: bytes) {
            self.init(layers: layers)
        } else {
            try self.init(try VectorTile(decoding: bytes, checkingGeometry: false))
        }
    }

    /// The tile's layers by name, or nil when anything in it breaks the specification.
    private static func layers(decoding bytes: [UInt8]) -> [String: PreparedLayer]? {
        var reader = ProtobufReader(bytes)
        var layers: [String: PreparedLayer] = [:]
        var buffers = FeatureBuffers()
        do {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                guard field == 3 else {
                    try reader.skip(wireType)
                    continue
                }
                guard wireType == .lengthDelimited else { return nil }
                var message = try reader.message()
                guard let layer = PreparedLayer(decoding: &message, buffers: &buffers), layers[layer.name] == nil else { return nil }
                layers[layer.name] = layer
            }
        } catch {
            return nil
        }
        return layers
    }
}

/// One feature's fields as read, in buffers kept for the next feature.
struct FeatureBuffers {
    var tags: [UInt32] = []
    var geometry: [UInt32] = []
    var sink = CollectingSink()
}

extension PreparedLayer {
    /// A layer message decoded and checked as `VectorTile`'s decoding and `PreparedLayer`'s
    /// geometry walk check it; nil when anything breaks the specification.
    convenience init?(decoding reader: inout ProtobufReader, buffers: inout FeatureBuffers) {
        var version: UInt32?
        var name: String?
        var extent: UInt32 = 4096
        var keys: [String] = []
        var values: [VectorTile.Value] = []
        var arrays = LayerArrays()
        // The largest key and value indices of any feature's tags (drawn or not), checked
        // against the tables once they are read (they may follow the features).
        var largestKey: UInt32 = 0
        var largestValue: UInt32 = 0
        var anyTags = false
        do {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                switch field {
                case 15:
                    guard wireType == .varint else { return nil }
                    version = try reader.varint32()
                case 1:
                    guard wireType == .lengthDelimited else { return nil }
                    name = try reader.string()
                case 2:
                    guard wireType == .lengthDelimited else { return nil }
                    var message = try reader.message()
                    guard let read = Self.readFeature(&message, into: &buffers) else { return nil }
                    let (id, type) = read
                    let featureTags = buffers.tags
                    guard featureTags.count % 2 == 0 else { return nil }
                    var tag = 0
                    while tag < featureTags.count {
                        largestKey = max(largestKey, featureTags[tag])
                        largestValue = max(largestValue, featureTags[tag + 1])
                        anyTags = true
                        tag += 2
                    }
                    buffers.sink.reset()
                    try GeometryCommands.walk(buffers.geometry, type: type, into: &buffers.sink)
                    arrays.add(id: id, type: type, tags: featureTags, walked: &buffers.sink)
                case 3:
                    guard wireType == .lengthDelimited else { return nil }
                    keys.append(try reader.string())
                case 4:
                    guard wireType == .lengthDelimited else { return nil }
                    var message = try reader.message()
                    values.append(try VectorTile.value(&message, index: values.count))
                case 5:
                    guard wireType == .varint else { return nil }
                    extent = try reader.varint32()
                default:
                    try reader.skip(wireType)
                }
            }
        } catch {
            return nil
        }
        guard let name, let version, version == 1 || version == 2, extent > 0,
            !anyTags || (Int(largestKey) < keys.count && Int(largestValue) < values.count)
        else { return nil }
        self.init(name: name, extent: Int(extent), keys: keys, values: values.map(StyleValue.init), arrays)
    }

    /// Reads a feature message: its id and type, its tags and geometry into `buffers`; nil
    /// when it breaks a rule `VectorTile`'s decoding checks.
    private static func readFeature(
        _ reader: inout ProtobufReader, into buffers: inout FeatureBuffers
    ) -> (id: UInt64?, type: VectorTile.GeometryType)? {
        var id: UInt64?
        var type: VectorTile.GeometryType?
        var sawGeometry = false
        buffers.tags.removeAll(keepingCapacity: true)
        buffers.geometry.removeAll(keepingCapacity: true)
        do {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.fieldKey()
                switch field {
                case 1:
                    guard wireType == .varint else { return nil }
                    id = try reader.varint()
                case 2:
                    if wireType == .varint {
                        buffers.tags.append(try reader.varint32())
                    } else {
                        guard wireType == .lengthDelimited else { return nil }
                        try reader.packedUInt32(into: &buffers.tags)
                    }
                case 3:
                    guard wireType == .varint else { return nil }
                    let raw = try reader.varint()
                    guard raw <= 3, let known = VectorTile.GeometryType(rawValue: Int(raw)) else { return nil }
                    type = known
                case 4:
                    guard wireType == .lengthDelimited, !sawGeometry else { return nil }
                    sawGeometry = true
                    try reader.packedUInt32(into: &buffers.geometry)
                default:
                    try reader.skip(wireType)
                }
            }
        } catch {
            return nil
        }
        guard sawGeometry else { return nil }
        return (id, type ?? .unknown)
    }
}
