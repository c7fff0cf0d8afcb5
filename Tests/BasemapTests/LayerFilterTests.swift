import Foundation
import Geo
import Testing

@testable import Basemap

/// A filter resolved against a tile layer (LayerFilter) chooses exactly the features that
/// evaluating it feature by feature chooses.
struct LayerFilterTests {
    /// The features of `layer` that evaluating `filter` feature by feature lets through: the oracle.
    static func oracle(_ filter: StyleExpression, _ layer: PreparedLayer, zoom: Double) -> [Int] {
        layer.features.indices.filter {
            filter.evaluate(EvaluationContext(zoom: zoom, feature: FeatureView(layer: layer, index: $0))) == .bool(true)
        }
    }

    static func resolved(_ filter: StyleExpression, _ layer: PreparedLayer, zoom: Double) -> [Int] {
        var resolved = LayerFilter(filter, layer: layer, zoom: zoom)
        return layer.features.indices.filter { resolved.passes($0) }
    }

    /// Every filter of `style` over every tile, at zooms on both sides of the styles' stops;
    /// returns how many (filter, layer) pairs let some feature through, so a test can see it
    /// compared something.
    static func compare(_ style: MapStyle, _ tiles: [(name: String, tile: PreparedTile)]) -> Int {
        var nonEmpty = 0
        for (name, tile) in tiles {
            for layer in style.layers {
                guard let filter = layer.filter, let sourceLayer = layer.sourceLayer, let tileLayer = tile.layers[sourceLayer] else {
                    continue
                }
                for zoom in [3.0, 10, 12.5, 14, 15, 16.25, 18] {
                    let expected = oracle(filter, tileLayer, zoom: zoom)
                    #expect(resolved(filter, tileLayer, zoom: zoom) == expected, "\(style.name) \(layer.id) \(name) z\(zoom)")
                    if !expected.isEmpty { nonEmpty += 1 }
                }
            }
        }
        return nonEmpty
    }

    /// The San Francisco tiles with Mapbox Streets' example style: a published style's filters
    /// (legacy `in`, `!in`, `==`, `$type`, `all`, `any`, numbers and strings).
    @Test(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
    func streetsStyleOverSanFrancisco() throws {
        let folder = SharedFixtures.url("sanfrancisco-z14")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mvt") }.sorted()
        let tiles = try names.map { ($0, try PreparedTile(decoding: [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))))) }
        #expect(tiles.count >= 4)
        #expect(Self.compare(try MemoryTiles.streetsStyle(), tiles) > 100)
    }

    /// The demo archive with the built-in day and night styles (expressions: `match`,
    /// `geometry-type`, `has`, `to-number`).
    @Test func builtInStylesOverTheDemoArchive() throws {
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("data-samples/helsinki.pmtiles").path
        let source = try TileArchive.open(path: path)
        let maxZoom = source.metadata.maxZoom
        let bounds = try #require(source.metadata.bounds)
        let corners = [LatLng(latitude: bounds.north, longitude: bounds.west), LatLng(latitude: bounds.south, longitude: bounds.east)]
            .map { WebMercator.worldPoint($0, zoom: Double(maxZoom)) }
        var tiles: [(name: String, tile: PreparedTile)] = []
        for x in Int(corners[0].x / 256)...Int(corners[1].x / 256) {
            for y in Int(corners[0].y / 256)...Int(corners[1].y / 256) {
                guard let data = try source.tileData(TileID(zoom: maxZoom, x: x, y: y)) else { continue }
                tiles.append(("\(maxZoom)/\(x)/\(y)", try PreparedTile(decoding: Inflate.isCompressed(data) ? try Inflate.decompress(data) : data)))
            }
        }
        #expect(!tiles.isEmpty)
        for name in MapStyle.builtinNames {
            #expect(Self.compare(try MapStyle.builtin(named: name), tiles) > 20, "\(name)")
        }
    }

    /// Filters of every kind the resolved form treats apart, on a small layer: one property,
    /// the geometry type, a property no feature has, two properties at once and the feature
    /// id (evaluated per feature), zoom alone, and anything-but-true under `all`/`any`/`!`.
    @Test func everyKindOfPart() throws {
        let bytes = TileBuilder.tile([
            "roads": [
                .init(type: .lineString, parts: [[(0, 0), (10, 10)]], properties: ["class": "primary", "name": "Kaivokatu"]),
                .init(type: .lineString, parts: [[(0, 5), (10, 15)]], properties: ["class": "minor"]),
                .init(type: .polygon, parts: [[(0, 0), (10, 0), (10, 10), (0, 0)]], properties: ["class": "primary", "layer": "1"]),
                .init(type: .point, parts: [[(3, 3)]], properties: ["name": "Aleksanterinkatu"]),
                .init(type: .lineString, parts: [[(1, 1), (20, 2)]], properties: ["class": "Primary", "name": "Primary"]),
            ]
        ])
        let layer = try #require(try PreparedTile(decoding: bytes).layers["roads"])
        #expect(layer.features.count == 5)
        let filters: [(json: String, expected: [Int])] = [
            (#"["match", ["get", "class"], ["primary", "trunk"], true, false]"#, [0, 2]),
            (#"["==", ["geometry-type"], "LineString"]"#, [0, 1, 4]),
            (#"["all", ["==", ["geometry-type"], "LineString"], ["match", ["get", "class"], ["minor"], true, false]]"#, [1]),
            (#"["has", "name"]"#, [0, 3, 4]),
            (#"["!", ["has", "class"]]"#, [3]),
            (#"["==", ["get", "surface"], "paved"]"#, []),
            (#"["!", ["has", "surface"]]"#, [0, 1, 2, 3, 4]),
            (#"["==", ["get", "class"], ["get", "name"]]"#, [4]),
            (#"["any", ["==", ["get", "name"], "Kaivokatu"], ["==", ["downcase", ["get", "class"]], "primary"]]"#, [0, 2, 4]),
            (#"[">=", ["zoom"], 14]"#, [0, 1, 2, 3, 4]),
            (#"["all", ["get", "class"], true]"#, []),
            (#"["!", ["get", "name"]]"#, [0, 1, 2, 3, 4]),
            (#"["==", ["id"], null]"#, [0, 1, 2, 3, 4]),
            (#"["in", "class", "primary", "minor"]"#, [0, 1, 2]),
            (#"["!in", "class", "primary"]"#, [1, 3, 4]),
            (#"["all", ["==", "$type", "Polygon"], ["has", "layer"]]"#, [2]),
        ]
        for (json, expected) in filters {
            let filter = try Self.parse(json)
            #expect(Self.oracle(filter, layer, zoom: 15) == expected, "oracle: \(json)")
            #expect(Self.resolved(filter, layer, zoom: 15) == expected, "\(json)")
        }
        let zoomed = try Self.parse(#"[">=", ["zoom"], 14]"#)
        #expect(Self.resolved(zoomed, layer, zoom: 13).isEmpty)
    }

    /// A style layer's filter as the style parser reads it.
    static func parse(_ filter: String) throws -> StyleExpression {
        let style = """
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "l", "type": "line", "source": "s", "source-layer": "roads", "filter": \(filter)}]}
            """
        let parsed = try MapStyle(data: Data(style.utf8), name: "filter")
        return try #require(parsed.layers.first?.filter)
    }
}
