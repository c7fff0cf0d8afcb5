// "Which street is this?": the named road nearest to a point, read from the archive's
// deepest vector tiles, for pages that name a place by its street. Knows nothing of trips.
// Contract: looks at the road-name layers of the common schemas (OpenMapTiles'
// `transportation_name`, Mapbox Streets' `road` (v8) and `road_label` (v7)), at the tile under
// the point and those its search circle reaches; the answer is the road whose line passes
// nearest, within `radius` metres; nil for raster archives, outside the data, or when no
// named road is that close.

import Foundation
import Geo

extension Basemap {
    /// The tile layers searched for road names, in the order they are tried.
    static let roadNameLayers = ["transportation_name", "road", "road_label"]
    /// The properties a road's name is read from, the first one a feature has (tilemaker's
    /// OpenMapTiles output may carry only `name:latin`).
    static let roadNameProperties = ["name", "name:latin", "name_en", "name_int"]

    /// The name of the road that passes nearest to `location`, and how far it is, within
    /// `radius` metres; nil when none does (or the archive is not vector tiles).
    package func nearestRoad(to location: LatLng, within radius: Double = 100) -> (name: String, meters: Double)? {
        let metadata = source.metadata
        guard metadata.format.isVector, location.latitude.isFinite, location.longitude.isFinite, radius > 0,
            abs(location.latitude) < WebMercator.maxLatitude
        else { return nil }
        let zoom = metadata.maxZoom
        let world = WebMercator.worldPoint(location, zoom: Double(zoom))
        // The point in tile units of zoom `zoom` (tile (x, y) spans x…x+1).
        let point = (x: world.x / 256, y: world.y / 256)
        let metersPerTile = 2 * .pi * Earth.radiusMeters * cos(location.latitude * .pi / 180) / exp2(Double(zoom))
        let reach = radius / metersPerTile
        var best: (name: String, x: Double, y: Double, distance: Double)?
        let count = 1 << zoom
        for tileY in Int((point.y - reach).rounded(.down))...Int((point.y + reach).rounded(.down)) where tileY >= 0 && tileY < count {
            for tileX in Int((point.x - reach).rounded(.down))...Int((point.x + reach).rounded(.down)) {
                let id = TileID(zoom: zoom, x: ((tileX % count) + count) % count, y: tileY)
                guard case .vector(let tile) = content(id).content,
                    let layer = Self.roadNameLayers.lazy.compactMap({ tile.layers[$0] }).first
                else { continue }
                let local = (x: (point.x - Double(tileX)) * Double(layer.extent), y: (point.y - Double(tileY)) * Double(layer.extent))
                guard let found = Self.nearestNamedLine(in: layer, to: local) else { continue }
                let distance = found.distance / Double(layer.extent)
                if distance <= reach, distance < best?.distance ?? .infinity {
                    let x = Double(tileX) + found.x / Double(layer.extent)
                    let y = Double(tileY) + found.y / Double(layer.extent)
                    best = (found.name, x, y, distance)
                }
            }
        }
        guard let best else { return nil }
        let nearest = WebMercator.latLng(x: best.x * 256, y: best.y * 256, zoom: Double(zoom))
        return (best.name, Earth.distance(location, nearest))
    }

    /// The named line of `layer` nearest to `point` (tile units): its name, the nearest point
    /// on it and the distance to it, in tile units.
    static func nearestNamedLine(
        in layer: PreparedLayer, to point: (x: Double, y: Double)
    ) -> (
        name: String, x: Double, y: Double, distance: Double
    )? {
        var best: (name: String, x: Double, y: Double, distance: Double)?
        for index in layer.features.indices where layer.features[index].type == .lineString {
            let feature = FeatureView(layer: layer, index: index)
            guard let name = roadNameProperties.lazy.compactMap({ feature.property($0)?.string }).first(where: { !$0.isEmpty })
            else { continue }
            for part in layer.features[index].parts {
                let range = layer.part(Int(part))
                guard range.count >= 2 else { continue }
                for vertex in range.dropLast() {
                    let a = layer.points[vertex]
                    let b = layer.points[vertex + 1]
                    let (ax, ay) = (Double(a.x), Double(a.y))
                    let (dx, dy) = (Double(b.x) - ax, Double(b.y) - ay)
                    let length = dx * dx + dy * dy
                    let t = length > 0 ? min(max(((point.x - ax) * dx + (point.y - ay) * dy) / length, 0), 1) : 0
                    let (x, y) = (ax + t * dx, ay + t * dy)
                    let distance = ((x - point.x) * (x - point.x) + (y - point.y) * (y - point.y)).squareRoot()
                    if distance < best?.distance ?? .infinity { best = (name, x, y, distance) }
                }
            }
        }
        return best
    }
}
