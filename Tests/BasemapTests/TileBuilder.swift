import Basemap
import Foundation

/// Builds small vector tiles and PMTiles archives for tests (an MVT and PMTiles writer just
/// big enough for the shapes tests need).
enum TileBuilder {
    /// A feature to encode: geometry parts in tile coordinates and string properties.
    struct Feature {
        var type: VectorTile.GeometryType
        var parts: [[(Int, Int)]]
        var properties: [String: String] = [:]
    }

    /// An encoded tile with one layer per entry.
    static func tile(_ layers: [String: [Feature]], extent: Int = 4096) -> [UInt8] {
        var tile: [UInt8] = []
        for name in layers.keys.sorted() {
            var layer: [UInt8] = []
            field(15, varint: 2, into: &layer)
            field(1, bytes: Array(name.utf8), into: &layer)
            var keys: [String] = []
            var values: [String] = []
            for feature in layers[name] ?? [] {
                var body: [UInt8] = []
                var tags: [UInt32] = []
                for (key, value) in feature.properties.sorted(by: { $0.key < $1.key }) {
                    if !keys.contains(key) { keys.append(key) }
                    if !values.contains(value) { values.append(value) }
                    tags += [UInt32(keys.firstIndex(of: key) ?? 0), UInt32(values.firstIndex(of: value) ?? 0)]
                }
                field(2, packed: tags, into: &body)
                field(3, varint: UInt64(feature.type.rawValue), into: &body)
                field(4, packed: commands(feature), into: &body)
                field(2, bytes: body, into: &layer)
            }
            for key in keys { field(3, bytes: Array(key.utf8), into: &layer) }
            for value in values {
                var message: [UInt8] = []
                field(1, bytes: Array(value.utf8), into: &message)
                field(4, bytes: message, into: &layer)
            }
            field(5, varint: UInt64(extent), into: &layer)
            field(3, bytes: layer, into: &tile)
        }
        return tile
    }

    private static func commands(_ feature: Feature) -> [UInt32] {
        var out: [UInt32] = []
        var x = 0
        var y = 0
        func zigzag(_ value: Int) -> UInt32 { UInt32(truncatingIfNeeded: (value << 1) ^ (value >> 63)) }
        for part in feature.parts {
            guard let first = part.first else { continue }
            out += [1 | (1 << 3), zigzag(first.0 - x), zigzag(first.1 - y)]
            (x, y) = first
            let rest = part.dropFirst()
            if !rest.isEmpty {
                out.append(2 | UInt32(rest.count << 3))
                for point in rest {
                    out += [zigzag(point.0 - x), zigzag(point.1 - y)]
                    (x, y) = point
                }
            }
            if feature.type == .polygon { out.append(7 | (1 << 3)) }
        }
        return out
    }

    static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private static func field(_ number: UInt64, varint value: UInt64, into out: inout [UInt8]) {
        varint(number << 3, into: &out)
        varint(value, into: &out)
    }

    private static func field(_ number: UInt64, bytes: [UInt8], into out: inout [UInt8]) {
        varint(number << 3 | 2, into: &out)
        varint(UInt64(bytes.count), into: &out)
        out += bytes
    }

    private static func field(_ number: UInt64, packed values: [UInt32], into out: inout [UInt8]) {
        var body: [UInt8] = []
        for value in values { varint(UInt64(value), into: &body) }
        field(number, bytes: body, into: &out)
    }

    /// A whole-tile square (with a buffer) as a polygon feature.
    static func square(buffer: Int = 64, extent: Int = 4096, properties: [String: String] = [:]) -> Feature {
        Feature(
            type: .polygon,
            parts: [
                [
                    (-buffer, -buffer), (extent + buffer, -buffer), (extent + buffer, extent + buffer),
                    (-buffer, extent + buffer),
                ]
            ], properties: properties)
    }

    // MARK: - PMTiles

    /// The PMTiles tile id (zoom prefix plus Hilbert index), written independently of the
    /// reader's implementation for cross-checking.
    static func pmtilesID(_ tile: TileID) -> UInt64 {
        var acc: UInt64 = 0
        for zoom in 0..<tile.zoom { acc += UInt64(1) << (2 * UInt64(zoom)) }
        let n = 1 << tile.zoom
        var x = tile.x
        var y = tile.y
        var d = 0
        var s = n / 2
        while s > 0 {
            let rx = (x & s) > 0 ? 1 : 0
            let ry = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                (x, y) = (y, x)
            }
            s /= 2
        }
        return acc + UInt64(d)
    }

    /// A PMTiles archive (no compression) whose root directory points at leaf directories
    /// of `leafSize` entries each; identical consecutive tiles share one run-length entry.
    static func pmtiles(
        _ tiles: [TileID: [UInt8]], leafSize: Int = 50, tileType: UInt8 = 1,
        metadata: String = "{\"attribution\":\"<b>Test</b> &amp; data\"}"
    ) -> [UInt8] {
        let sorted = tiles.map { (pmtilesID($0.key), $0.value) }.sorted { $0.0 < $1.0 }
        var data: [UInt8] = []
        var entries: [(id: UInt64, offset: Int, length: Int, run: Int)] = []
        for (id, bytes) in sorted {
            if let last = entries.last, last.id + UInt64(last.run) == id,
                Array(data[last.offset..<(last.offset + last.length)]) == bytes
            {
                entries[entries.count - 1].run += 1
                continue
            }
            entries.append((id, data.count, bytes.count, 1))
            data += bytes
        }
        func directory(_ list: [(id: UInt64, offset: Int, length: Int, run: Int)]) -> [UInt8] {
            var out: [UInt8] = []
            varint(UInt64(list.count), into: &out)
            var last: UInt64 = 0
            for entry in list {
                varint(entry.id - last, into: &out)
                last = entry.id
            }
            for entry in list { varint(UInt64(entry.run), into: &out) }
            for entry in list { varint(UInt64(entry.length), into: &out) }
            for entry in list { varint(UInt64(entry.offset + 1), into: &out) }
            return out
        }
        var leaves: [UInt8] = []
        var root: [(id: UInt64, offset: Int, length: Int, run: Int)] = []
        var index = 0
        while index < entries.count {
            let chunk = Array(entries[index..<min(index + leafSize, entries.count)])
            let bytes = directory(chunk)
            root.append((chunk[0].id, leaves.count, bytes.count, 0))
            leaves += bytes
            index += leafSize
        }
        let rootBytes = directory(root)
        let metadataBytes = Array(metadata.utf8)
        var header = [UInt8](repeating: 0, count: 127)
        header.replaceSubrange(0..<7, with: Array("PMTiles".utf8))
        header[7] = 3
        func put(_ value: Int, at offset: Int) {
            for byte in 0..<8 { header[offset + byte] = UInt8((value >> (8 * byte)) & 0xFF) }
        }
        let rootOffset = 127
        let metadataOffset = rootOffset + rootBytes.count
        let leafOffset = metadataOffset + metadataBytes.count
        let dataOffset = leafOffset + leaves.count
        put(rootOffset, at: 8)
        put(rootBytes.count, at: 16)
        put(metadataOffset, at: 24)
        put(metadataBytes.count, at: 32)
        put(leafOffset, at: 40)
        put(leaves.count, at: 48)
        put(dataOffset, at: 56)
        put(data.count, at: 64)
        header[97] = 1
        header[98] = 1
        header[99] = tileType
        header[100] = UInt8(tiles.keys.map(\.zoom).min() ?? 0)
        header[101] = UInt8(tiles.keys.map(\.zoom).max() ?? 0)
        return header + rootBytes + metadataBytes + leaves + data
    }
}
