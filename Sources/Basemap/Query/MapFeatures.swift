// Reading map data instead of drawing it: the features of some layers of one tile, in
// latitude/longitude, each clipped to its tile's own square, so that a line crossing tiles
// comes in pieces that meet on the tile edges and the buffer tiles carry around their
// squares is not read twice. Contract: map data only (Basemap knows nothing of what it is
// asked for); a tile the archive lacks is nil, one that cannot be decoded throws, and
// geometry that breaks the MVT rules is skipped feature by feature.

import Geo

/// One feature of a vector tile's layer, in geographic coordinates.
public struct MapFeature: Sendable {
    /// The layer it belongs to.
    public var layer: String
    /// Points, lines or polygons.
    public var type: VectorTile.GeometryType
    /// Points: one part per point. Lines: one part per piece inside the tile's square.
    /// Polygons: the rings, unclipped.
    public var parts: [[LatLng]]
    /// The feature's properties.
    public var properties: [String: VectorTile.Value]

    /// A property as text, whatever its type in the tile (`class`, `oneway` and the like are
    /// strings in some schemas and numbers in others).
    public func text(_ key: String) -> String? {
        switch properties[key] {
        case .string(let s): s
        case .int(let n), .sint(let n): String(n)
        case .uint(let n): String(n)
        case .bool(let b): b ? "true" : "false"
        case .float(let f): String(f)
        case .double(let d): String(d)
        case nil: nil
        }
    }
}

extension TileSource {
    /// The features of the layers named `layers` in the vector tile at `id`; nil when the
    /// archive has no tile there. Throws when the tile cannot be read or decoded, or when the
    /// archive holds images.
    public func features(at id: TileID, layers: Set<String>) throws(BasemapError) -> [MapFeature]? {
        guard metadata.format.isVector else {
            throw BasemapError(code: .unsupported, message: "the archive holds \(metadata.format) images, not vector tiles")
        }
        guard let data = try tileData(id) else { return nil }
        let tile = try VectorTile(decoding: data, checkingGeometry: false)
        var out: [MapFeature] = []
        for layer in tile.layers where layers.contains(layer.name) {
            let place = TilePlacement(tile: id, extent: layer.extent)
            for feature in layer.features {
                guard feature.type != .unknown, let geometry = try? FeatureGeometry(decoding: feature) else { continue }
                var parts: [[LatLng]] = []
                for index in geometry.partEnds.indices {
                    let points = geometry.part(index)
                    switch feature.type {
                    case .lineString: parts += place.clipped(points)
                    case .point: parts += points.filter(place.contains).map { [place.latLng($0)] }
                    default: parts.append(points.map(place.latLng))
                    }
                }
                guard !parts.isEmpty else { continue }
                out.append(MapFeature(layer: layer.name, type: feature.type, parts: parts, properties: layer.properties(of: feature)))
            }
        }
        return out
    }
}

/// Where a tile's geometry units lie on the earth.
private struct TilePlacement {
    let tile: TileID
    let extent: Double

    init(tile: TileID, extent: Int) {
        self.tile = tile
        self.extent = Double(max(extent, 1))
    }

    func contains(_ p: TilePoint) -> Bool {
        p.x >= 0 && p.y >= 0 && Double(p.x) <= extent && Double(p.y) <= extent
    }

    func latLng(_ p: TilePoint) -> LatLng { latLng(x: Double(p.x), y: Double(p.y)) }

    func latLng(x: Double, y: Double) -> LatLng {
        WebMercator.latLng(
            x: (Double(tile.x) + x / extent) * 256, y: (Double(tile.y) + y / extent) * 256, zoom: Double(tile.zoom))
    }

    /// The pieces of a line string inside the tile's square (Liang–Barsky, segment by segment).
    func clipped(_ points: ArraySlice<TilePoint>) -> [[LatLng]] {
        var pieces: [[LatLng]] = []
        var current: [LatLng] = []
        let vertices = Array(points)
        for i in vertices.indices.dropLast() {
            let a = (x: Double(vertices[i].x), y: Double(vertices[i].y))
            let b = (x: Double(vertices[i + 1].x), y: Double(vertices[i + 1].y))
            guard let (t0, t1) = Self.clip(a, b, extent) else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            let start = latLng(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y))
            let end = latLng(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y))
            if current.isEmpty || t0 > 0 {
                if current.count >= 2 { pieces.append(current) }
                current = [start]
            }
            current.append(end)
            if t1 < 1 {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// The part of segment a→b inside [0, size]², as fractions along it; nil when outside.
    static func clip(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ size: Double) -> (Double, Double)? {
        var t0 = 0.0
        var t1 = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        for (p, q) in [(-dx, a.x), (dx, size - a.x), (-dy, a.y), (dy, size - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return nil }
        }
        return (t0, t1)
    }
}
