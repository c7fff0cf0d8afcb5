// A decoded vector tile in the form drawing reads it: per layer, every feature's vertices in
// one flat array with part ends, bounding boxes, and property lookups that resolve names
// once per layer. Contract: immutable once built, shared by concurrent renders through the
// tile cache; `byteCount` estimates the memory it holds, which the cache bounds.

import Synchronization

/// A vector tile ready for drawing.
final class PreparedTile: Sendable {
    /// The layers by name.
    let layers: [String: PreparedLayer]
    /// Approximate memory held, in bytes: the decoded tile and, at most as much again, the
    /// memoized results below.
    let byteCount: Int
    /// Bytes of the decoded tile alone: the budget for memoized results.
    private let memoBudget: Int
    /// What draws work out from a tile that does not change between draws, by style and
    /// layer: the features passing a zoom-independent filter, the joined lines of a layer
    /// painted alike.
    private let memo = Mutex<(values: [String: any Sendable], bytes: Int)>(([:], 0))

    /// A value computed once per key and kept with the tile while the memo stays within its
    /// budget (past it, values are computed each time); `bytes` estimates a value's size.
    func memoized<Value: Sendable>(_ key: String, bytes: (Value) -> Int, compute: () -> Value) -> Value {
        if let known = memo.withLock({ $0.values[key] }) as? Value { return known }
        let computed = compute()
        let size = bytes(computed) + 64
        memo.withLock { memo in
            guard memo.values[key] == nil, memo.bytes + size <= memoBudget else { return }
            memo.values[key] = computed
            memo.bytes += size
        }
        return computed
    }

    /// Prepares a decoded tile. Throws `corruptTile` when a feature's geometry breaks the
    /// specification: this walk is what checks it on the drawing path (the tile is decoded
    /// with `checkingGeometry: false`, so each command stream is walked once).
    convenience init(_ tile: VectorTile) throws(BasemapError) {
        var layers: [String: PreparedLayer] = [:]
        for layer in tile.layers { layers[layer.name] = try PreparedLayer(layer) }
        self.init(layers: layers)
    }

    /// A tile of prepared layers.
    init(layers: [String: PreparedLayer]) {
        let bytes = layers.values.reduce(64) { $0 + $1.byteCount }
        self.layers = layers
        memoBudget = bytes
        byteCount = 2 * bytes
    }
}

/// One feature's entry in a prepared layer.
struct PreparedFeature: Sendable {
    let id: UInt64?
    let type: VectorTile.GeometryType
    /// Range in the layer's `tags`.
    let tags: Range<Int32>
    /// Range in the layer's `partEnds`.
    let parts: Range<Int32>
    /// Bounding box in tile coordinates.
    let minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
}

/// A layer of a prepared tile.
final class PreparedLayer: Sendable {
    let name: String
    let extent: Int
    let features: [PreparedFeature]
    /// Key index → value index pairs of every feature, one after the other.
    let tags: [UInt32]
    /// Key name → index into `keys`.
    let keyIndex: [String: UInt32]
    let values: [StyleValue]
    /// Every vertex of every feature.
    let points: [TilePoint]
    /// End (exclusive) in `points` of every part (point, line string or ring).
    let partEnds: [Int32]
    let byteCount: Int

    convenience init(_ layer: VectorTile.Layer) throws(BasemapError) {
        var arrays = LayerArrays()
        arrays.features.reserveCapacity(layer.features.count)
        // One sink for all features (its buffers are reused), emitting straight into the
        // layer's arrays.
        var sink = CollectingSink()
        for feature in layer.features {
            sink.reset()
            do throws(GeometryCommands.Failure) {
                try GeometryCommands.walk(feature.geometry, type: feature.type, into: &sink)
            } catch {
                let name = feature.id.map { "feature id \($0)" } ?? "a feature"
                throw BasemapError(code: .corruptTile, message: "layer \"\(layer.name)\", \(name): \(error.reason)")
            }
            arrays.add(id: feature.id, type: feature.type, tags: feature.tags, walked: &sink)
        }
        self.init(name: layer.name, extent: layer.extent, keys: layer.keys, values: layer.values.map(StyleValue.init), arrays)
    }

    /// A layer from its decoded parts.
    init(name: String, extent: Int, keys: [String], values: [StyleValue], _ arrays: LayerArrays) {
        self.name = name
        self.extent = extent
        self.values = values
        var keyIndex: [String: UInt32] = [:]
        for (index, key) in keys.enumerated() where keyIndex[key] == nil { keyIndex[key] = UInt32(index) }
        self.keyIndex = keyIndex
        features = arrays.features
        tags = arrays.tags
        points = arrays.points
        partEnds = arrays.partEnds
        let valueBytes = values.reduce(0) { total, value in total + 24 + (value.string?.utf8.count ?? 0) }
        byteCount =
            128 + features.count * MemoryLayout<PreparedFeature>.stride + tags.count * 4 + points.count * 8
            + partEnds.count * 4 + valueBytes + keyIndex.keys.reduce(0) { $0 + 48 + $1.utf8.count }
    }

    /// Where in `values` feature `index`'s property with key index `key` is (its first tag with
    /// that key), nil when the feature does not have it.
    func valueIndex(ofKey key: UInt32, feature index: Int) -> Int? {
        let range = features[index].tags
        return tags.withUnsafeBufferPointer { tags in
            var tag = Int(range.lowerBound)
            let end = Int(range.upperBound)
            while tag + 1 < end {
                if tags[tag] == key { return Int(tags[tag + 1]) }
                tag += 2
            }
            return nil
        }
    }

    /// The points of part `index` (an index into `partEnds`).
    func part(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(partEnds[index - 1]))..<Int(partEnds[index])
    }
}

/// A prepared layer's features, tags and vertices as they are added.
struct LayerArrays {
    var features: [PreparedFeature] = []
    var tags: [UInt32] = []
    var points: [TilePoint] = []
    var partEnds: [Int32] = []

    /// Adds a feature whose command stream `sink` holds (walked and checked); a feature
    /// that yields no vertex (an empty or degenerate geometry) is left out.
    mutating func add(id: UInt64?, type: VectorTile.GeometryType, tags featureTags: [UInt32], walked sink: inout CollectingSink) {
        let base = points.count
        let partStart = Int32(partEnds.count)
        sink.emit(type: type, into: &points) {
            partEnds.append(Int32($0))
        } polygonStarted: {
        }
        guard points.count > base else { return }
        let tagStart = Int32(tags.count)
        tags.append(contentsOf: featureTags)
        var minX = Int32.max
        var minY = Int32.max
        var maxX = Int32.min
        var maxY = Int32.min
        for point in points[base...] {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }
        features.append(
            PreparedFeature(
                id: id, type: type, tags: tagStart..<Int32(tags.count), parts: partStart..<Int32(partEnds.count), minX: minX,
                minY: minY, maxX: maxX, maxY: maxY))
    }
}

/// One feature of a prepared layer, as expressions see it.
struct FeatureView {
    let layer: PreparedLayer
    let index: Int

    var feature: PreparedFeature { layer.features[index] }

    /// A property's value, or nil when the feature does not have it.
    func property(_ name: String) -> StyleValue? {
        guard let key = layer.keyIndex[name], let value = layer.valueIndex(ofKey: key, feature: index) else { return nil }
        return layer.values[value]
    }

    /// "Point", "LineString", "Polygon" (or "Unknown").
    var geometryTypeName: String { layer.features[index].type.styleName }

    var id: UInt64? { layer.features[index].id }
}

extension VectorTile.GeometryType {
    /// The name style expressions see (`geometry-type`, legacy `$type`).
    var styleName: String {
        switch self {
        case .point: "Point"
        case .lineString: "LineString"
        case .polygon: "Polygon"
        case .unknown: "Unknown"
        }
    }
}
