// The Mapbox Vector Tile 2.x data model, as the specification's protobuf defines it: layers
// with their key and value tables, features with tags and a geometry command stream.
// Decoding (VectorTile+Decoding) validates everything; `FeatureGeometry` turns a feature's
// command stream into points, lines or polygons.

/// A decoded Mapbox Vector Tile.
public struct VectorTile: Hashable, Sendable {
    /// The layers, in the order the tile holds them.
    public var layers: [Layer]

    /// A tile from its layers.
    public init(layers: [Layer]) {
        self.layers = layers
    }

    /// The layer with a name, if any.
    public func layer(named name: String) -> Layer? {
        layers.first { $0.name == name }
    }

    /// One named layer of a tile.
    public struct Layer: Hashable, Sendable {
        /// The specification version the layer follows (1 or 2).
        package var version: Int
        /// The layer's name, unique within its tile.
        public var name: String
        /// The size of the tile square in geometry units (4096 by default).
        package var extent: Int
        /// Property names, indexed by features' tags.
        public var keys: [String]
        /// Property values, indexed by features' tags.
        package var values: [Value]
        /// The features, in tile order.
        public var features: [Feature]

        /// A layer from its parts.
        package init(
            version: Int = 2, name: String, extent: Int = 4096, keys: [String] = [], values: [Value] = [],
            features: [Feature] = []
        ) {
            self.version = version
            self.name = name
            self.extent = extent
            self.keys = keys
            self.values = values
            self.features = features
        }

        /// A feature's properties as a dictionary (tags resolved through the tables; a
        /// repeated key keeps its last value).
        public func properties(of feature: Feature) -> [String: Value] {
            var result: [String: Value] = [:]
            var index = 0
            while index + 1 < feature.tags.count {
                let key = Int(feature.tags[index])
                let value = Int(feature.tags[index + 1])
                if key < keys.count && value < values.count { result[keys[key]] = values[value] }
                index += 2
            }
            return result
        }
    }

    /// A property value of one of the specification's seven types.
    public enum Value: Hashable, Sendable {
        /// `string_value`.
        case string(String)
        /// `float_value` (32-bit).
        case float(Float)
        /// `double_value`.
        case double(Double)
        /// `int_value` (two's complement varint).
        case int(Int64)
        /// `uint_value`.
        case uint(UInt64)
        /// `sint_value` (zig-zag varint).
        case sint(Int64)
        /// `bool_value`.
        case bool(Bool)
    }

    /// The geometry types of the specification.
    public enum GeometryType: Int, Hashable, Sendable {
        /// `UNKNOWN`: valid, but nothing says how to draw it.
        case unknown = 0
        /// One or more points.
        case point = 1
        /// One or more line strings.
        case lineString = 2
        /// One or more polygons.
        case polygon = 3
    }

    /// One feature: an optional id, tags into the layer's tables, a type and a geometry.
    public struct Feature: Hashable, Sendable {
        /// The feature id, when the tile gives one.
        public var id: UInt64?
        /// Pairs of indices: key index, value index.
        package var tags: [UInt32]
        /// The geometry type.
        public var type: GeometryType
        /// The geometry command stream (command integers and zig-zag parameters).
        public var geometry: [UInt32]

        /// A feature from its parts.
        package init(id: UInt64? = nil, tags: [UInt32] = [], type: GeometryType, geometry: [UInt32]) {
            self.id = id
            self.tags = tags
            self.type = type
            self.geometry = geometry
        }
    }
}
