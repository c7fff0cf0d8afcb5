import Foundation
import JSON
import Raster
import Testing

@testable import Basemap

/// The style subset: expressions, legacy filters and functions, colours, strictness about
/// what is drawn and one warning for what is not.
@Suite struct MapStyleTests {
    static func style(_ layers: String, extra: String = "") throws(BasemapError) -> MapStyle {
        let json = """
            {"version": 8, "sources": {"omt": {"type": "vector", "url": "https://example.com/tiles.json"}}\(extra),
             "layers": \(layers)}
            """
        return try MapStyle(data: Data(json.utf8), name: "test")
    }

    static func expression(_ json: String) throws -> StyleExpression {
        try ExpressionParser(place: "test").parse(try JSONParser.parse(Array(json.utf8)))
    }

    static func filter(_ json: String) throws -> StyleExpression {
        try ExpressionParser(place: "test").parseFilter(try JSONParser.parse(Array(json.utf8)))
    }

    /// A feature with string and number properties, through the real prepared-tile path.
    static func feature(_ properties: [String: String], type: VectorTile.GeometryType = .lineString) throws -> FeatureView {
        let parts: [[(Int, Int)]] = type == .polygon ? [[(0, 0), (10, 0), (10, 10)]] : type == .point ? [[(5, 5)]] : [[(0, 0), (10, 0)]]
        let bytes = TileBuilder.tile(["roads": [TileBuilder.Feature(type: type, parts: parts, properties: properties)]])
        let tile = try PreparedTile(try VectorTile(decoding: bytes))
        guard let layer = tile.layers["roads"] else { throw BasemapError(code: .corruptTile, message: "no layer") }
        return FeatureView(layer: layer, index: 0)
    }

    static func evaluate(
        _ json: String, zoom: Double = 14, _ properties: [String: String] = [:],
        type: VectorTile.GeometryType = .lineString
    ) throws -> StyleValue {
        try expression(json).evaluate(EvaluationContext(zoom: zoom, feature: try feature(properties, type: type)))
    }

    // MARK: - Expressions

    /// Zoom curves: interpolate (linear, exponential), step, and legacy stops with a base.
    @Test func zoomCurves() throws {
        #expect(try Self.evaluate(#"["interpolate", ["linear"], ["zoom"], 10, 2, 14, 10]"#, zoom: 12) == .number(6))
        #expect(try Self.evaluate(#"["interpolate", ["linear"], ["zoom"], 10, 2, 14, 10]"#, zoom: 20) == .number(10))
        let exponential = try Self.evaluate(#"["interpolate", ["exponential", 2], ["zoom"], 10, 0, 12, 30]"#, zoom: 11)
        #expect(exponential == .number(10), "(2^1 − 1) / (2^2 − 1) · 30 = 10")
        #expect(try Self.evaluate(#"["step", ["zoom"], 1, 12, 2, 15, 3]"#, zoom: 11.9) == .number(1))
        #expect(try Self.evaluate(#"["step", ["zoom"], 1, 12, 2, 15, 3]"#, zoom: 12) == .number(2))
        #expect(try Self.evaluate(#"["step", ["zoom"], 1, 12, 2, 15, 3]"#, zoom: 16) == .number(3))
        let legacy = try ExpressionParser(place: "t").propertyExpression(
            try JSONParser.parse(Array(#"{"base": 2, "stops": [[10, 0], [12, 30]]}"#.utf8)), kind: .number)
        #expect(legacy.evaluate(EvaluationContext(zoom: 11)) == .number(10))
        let colors = try Self.evaluate(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#FF0000"]"##, zoom: 5)
        #expect(colors == .color(Color(red: 128, green: 0, blue: 0)))
    }

    /// Data expressions: get, has, match, case, coalesce, comparisons, conversions.
    @Test func dataExpressions() throws {
        let props = ["class": "primary", "name:latin": "Mannerheimintie", "rank": "7"]
        #expect(try Self.evaluate(#"["get", "class"]"#, props) == .string("primary"))
        #expect(try Self.evaluate(#"["get", "missing"]"#, props) == .null)
        #expect(try Self.evaluate(#"["has", "rank"]"#, props) == .bool(true))
        #expect(try Self.evaluate(#"["coalesce", ["get", "name"], ["get", "name:latin"]]"#, props) == .string("Mannerheimintie"))
        #expect(try Self.evaluate(#"["match", ["get", "class"], ["primary", "trunk"], 8, "minor", 3, 1]"#, props) == .number(8))
        #expect(try Self.evaluate(#"["match", ["get", "class"], "minor", 3, 1]"#, props) == .number(1))
        #expect(
            try Self.evaluate(#"["case", ["==", ["get", "class"], "minor"], "a", ["has", "rank"], "b", "c"]"#, props)
                == .string("b"))
        #expect(try Self.evaluate(#"["<", ["to-number", ["get", "rank"]], 10]"#, props) == .bool(true))
        let mixed = try Self.evaluate(#"["<", ["get", "rank"], 10]"#, props)
        #expect(mixed == .bool(false), "a string never orders against a number")
        #expect(try Self.evaluate(#"["to-string", ["*", 2, 21]]"#) == .string("42"))
        #expect(try Self.evaluate(#"["concat", ["upcase", "a"], "-", ["literal", "b"]]"#) == .string("A-b"))
        #expect(try Self.evaluate(#"["all", true, ["!", false], ["any", false, true]]"#) == .bool(true))
        #expect(try Self.evaluate(#"["geometry-type"]"#, type: .polygon) == .string("Polygon"))
        #expect(try Self.evaluate(#"["in", "b", ["literal", ["a", "b"]]]"#) == .bool(true))
        #expect(try Self.evaluate(#"["let", "w", 3, ["*", ["var", "w"], 2]]"#) == .number(6))
    }

    /// Legacy filters read as MapLibre reads them, including $type and in/!in.
    @Test func legacyFilters() throws {
        let props = ["class": "park", "admin_level": "4"]
        func test(_ json: String, type: VectorTile.GeometryType = .polygon) throws -> Bool {
            try Self.filter(json).evaluate(EvaluationContext(zoom: 14, feature: try Self.feature(props, type: type))) == .bool(true)
        }
        #expect(try test(#"["==", "class", "park"]"#))
        #expect(try test(#"["!=", "class", "wood"]"#))
        #expect(try test(#"["in", "class", "wood", "park"]"#))
        #expect(try !test(#"["!in", "class", "wood", "park"]"#))
        #expect(try test(#"["==", "$type", "Polygon"]"#))
        #expect(try !test(#"["==", "$type", "Polygon"]"#, type: .lineString))
        #expect(try test(#"["all", ["has", "class"], ["!has", "name"]]"#))
        #expect(try test(#"["none", ["==", "class", "wood"]]"#))
        #expect(try !test(#"["==", "admin_level", 4]"#), "legacy equality is strict about types")
        #expect(ExpressionParser.isExpressionFilter(try JSONParser.parse(Array(#"["==", ["get", "class"], "park"]"#.utf8))))
        #expect(!ExpressionParser.isExpressionFilter(try JSONParser.parse(Array(#"["==", "class", "park"]"#.utf8))))
    }

    /// CSS colours: hex forms, rgb(a), hsl(a) and names; nonsense is nil.
    @Test func colours() {
        #expect(CSSColor.parse("#abc") == Color(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(CSSColor.parse("#abcd") == Color(red: 0xAA, green: 0xBB, blue: 0xCC, alpha: 0xDD))
        #expect(CSSColor.parse("#A1B2C3") == Color(red: 0xA1, green: 0xB2, blue: 0xC3))
        #expect(CSSColor.parse("#A1B2C380") == Color(red: 0xA1, green: 0xB2, blue: 0xC3, alpha: 0x80))
        #expect(CSSColor.parse("rgb(255, 0, 128)") == Color(red: 255, green: 0, blue: 128))
        #expect(CSSColor.parse("rgba(0,0,0,0.5)") == Color(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(CSSColor.parse("hsl(120, 100%, 25%)") == Color(red: 0, green: 128, blue: 0))
        #expect(CSSColor.parse("hsla(0, 0%, 100%, 0.2)") == Color(red: 255, green: 255, blue: 255, alpha: 51))
        #expect(CSSColor.parse("SteelBlue") == Color(red: 70, green: 130, blue: 180))
        #expect(CSSColor.parse("transparent") == .transparent)
        #expect(CSSColor.parse("#12") == nil)
        #expect(CSSColor.parse("blurple") == nil)
        #expect(CSSColor.parse("rgb(1,2)") == nil)
    }

    // MARK: - Strict and tolerant reading

    /// A wrong type in a property that is drawn is an error naming the layer and property.
    @Test func wrongTypesAreErrors() throws {
        func message(_ layers: String) -> String? {
            do {
                _ = try Self.style(layers)
                return nil
            } catch {
                return error.message
            }
        }
        let width = message(
            #"[{"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation","#
                + #" "paint": {"line-width": "wide"}}]"#)
        #expect(width?.contains("layer \"roads\", paint.line-width") == true, "\(width ?? "no error")")
        #expect(width?.contains("expected a number") == true)
        let color = message(
            #"[{"id": "water", "type": "fill", "source": "omt", "source-layer": "water","#
                + #" "paint": {"fill-color": "bluish"}}]"#)
        #expect(color?.contains("layer \"water\", paint.fill-color") == true, "\(color ?? "no error")")
        let op = message(#"[{"id": "w", "type": "fill", "source": "omt", "source-layer": "water", "filter": ["frobnicate", 1]}]"#)
        #expect(op?.contains("unknown expression operator \"frobnicate\"") == true, "\(op ?? "no error")")
        let cap = message(#"[{"id": "r", "type": "line", "source": "omt", "source-layer": "t", "layout": {"line-cap": "pointy"}}]"#)
        #expect(cap?.contains("layout.line-cap") == true, "\(cap ?? "no error")")
        #expect(message(#"[{"type": "background"}]"#)?.contains("no \"id\"") == true)
        #expect(message("{}") != nil)
        let broken = Data("{\"layers\": [".utf8)
        do {
            _ = try MapStyle(data: broken, name: "broken.json")
            Issue.record("broken JSON was accepted")
        } catch {
            #expect(error.message.contains("broken.json"))
            #expect(error.message.contains("not valid JSON"))
        }
    }

    /// Icons, sprites, extrusions, patterns: skipped, described in ONE warning.
    @Test func unsupportedPartsMakeOneWarning() throws {
        let style = try Self.style(
            """
            [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},
             {"id": "b3d", "type": "fill-extrusion", "source": "omt", "source-layer": "building"},
             {"id": "shops", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": "shop"}},
             {"id": "labels", "type": "symbol", "source": "omt", "source-layer": "poi",
              "layout": {"text-field": "{name}", "icon-image": "x", "icon-size": 2}},
             {"id": "paths", "type": "line", "source": "omt", "source-layer": "t", "paint": {"line-pattern": "dots", "line-blur": 1}},
             {"id": "dots", "type": "circle", "source": "omt", "source-layer": "poi"}]
            """, extra: #", "sprite": "https://example.com/sprite""#)
        let warning = try #require(style.warning)
        for part in [
            "sprites", "fill-extrusion layers (b3d)", "icons (shops, labels)", "line-pattern (paths)", "line-blur (paths)",
            "circle layers (dots)",
        ] {
            #expect(warning.contains(part), "\(warning) lacks \(part)")
        }
        #expect(style.layers.map(\.id) == ["bg", "labels", "paths"])
        let reports = Reports()
        _ = Basemap(
            source: MemoryTiles(metadata: TileArchiveMetadata(format: .mvt, minZoom: 0, maxZoom: 14), tiles: [:]),
            style: style, report: reports.add)
        #expect(reports.messages == [warning])
    }

    /// Hidden layers and zoom ranges.
    @Test func visibilityAndZoomRange() throws {
        let style = try Self.style(
            """
            [{"id": "hidden", "type": "fill", "source": "omt", "source-layer": "w", "layout": {"visibility": "none"}},
             {"id": "ranged", "type": "fill", "source": "omt", "source-layer": "w", "minzoom": 12, "maxzoom": 15}]
            """)
        #expect(style.layers.map(\.id) == ["ranged"])
        let layer = try #require(style.layers.first)
        #expect(
            !layer.isVisible(atZoom: 11.9) && layer.isVisible(atZoom: 12) && layer.isVisible(atZoom: 14.99)
                && !layer.isVisible(atZoom: 15))
    }

    /// text-field tokens read properties; missing ones become empty.
    @Test func textFieldTokens() throws {
        let expression = LayerReader.tokens("{name} ({ref})")
        let feature = try Self.feature(["name": "Kaivokatu"])
        #expect(expression.evaluate(EvaluationContext(zoom: 14, feature: feature)) == .string("Kaivokatu ()"))
    }

    /// The built-in styles load without a warning, and differ between day and night.
    @Test func builtinStyles() throws {
        let day = try MapStyle.builtin(named: "openmaptiles-day")
        let night = try MapStyle.named("openmaptiles-night")
        #expect(day.warning == nil)
        #expect(night.warning == nil)
        #expect(day.layers.count == night.layers.count)
        #expect(!day.backgroundColor(atZoom: 14).isDark)
        #expect(night.backgroundColor(atZoom: 14).isDark)
        #expect(day.identity != night.identity)
        #expect(throws: BasemapError.self) { try MapStyle.builtin(named: "openmaptiles-dusk") }
        #expect(throws: BasemapError.self) { try MapStyle.named("/nonexistent/style.json") }
    }

    /// The attribution text: HTML stripped, entities decoded, OpenStreetMap's by default.
    @Test func attributionText() {
        let html = #"<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a> <a>&#169; OpenMapTiles</a>"#
        #expect(Attribution.text(from: html) == "© OpenStreetMap contributors © OpenMapTiles")
        #expect(Attribution.text(from: nil) == "© OpenStreetMap contributors")
        #expect(Attribution.text(from: "<p></p>") == "© OpenStreetMap contributors")
    }
}
