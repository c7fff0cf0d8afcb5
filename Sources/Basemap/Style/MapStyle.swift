// A map style: the subset of the MapLibre style specification in DESIGN §13. Contract:
// strict about what it draws (invalid JSON, a layer without an id, a property of a drawn
// layer with a value of the wrong type, an unknown expression operator: `invalidStyle`
// naming the layer and property), tolerant of what it does not draw (icons, sprites,
// patterns, extrusions, circles, heatmaps, hillshade, GeoJSON sources ...: skipped, and
// described in ONE warning for the whole style). Every vector source binds to the
// configured archive whatever URL it names, so published styles work unchanged.

import Foundation
import JSON
import Raster

/// A parsed map style, shared by every render.
public struct MapStyle: Sendable {
    /// A name for messages: the built-in name or the file path.
    public let name: String
    /// What the style asks for that is not drawn, in one sentence; nil when everything is.
    package let warning: String?
    /// A fingerprint of the style's content, for caches and HTTP ETags.
    public let identity: String
    /// The style document as it was given.
    public let document: Data
    /// The layers in drawing order.
    let layers: [StyleLayer]

    /// Parses a style document; `name` goes into messages.
    public init(data: Data, name: String) throws(BasemapError) {
        self.name = name
        identity = "\(name)#\(Self.fingerprint(data))"
        document = data
        let json: JSONValue
        do {
            // The operator's own file, not a request body: no member limits.
            json = try JSONParser.parse(data, limits: .none)
        } catch {
            throw BasemapError(code: .invalidStyle, message: "style \(name): not valid JSON (\(Self.describe(error)))")
        }
        guard let root = json.object else {
            throw BasemapError(code: .invalidStyle, message: "style \(name): the document must be a JSON object")
        }
        var skipped = SkippedParts()
        var sourceTypes: [String: String] = [:]
        for (id, source) in root["sources"]?.object ?? [:] {
            sourceTypes[id] = source.object?["type"]?.string ?? "unknown"
        }
        if root["sprite"] != nil { skipped.note("sprites", nil) }
        for key in ["terrain", "sky", "fog"] where root[key] != nil { skipped.note(key, nil) }
        guard case .array(let layerList)? = root["layers"] else {
            throw BasemapError(code: .invalidStyle, message: "style \(name): no \"layers\" array")
        }
        var layers: [StyleLayer] = []
        var ids = Set<String>()
        for (index, layerJSON) in layerList.enumerated() {
            guard let object = layerJSON.object else {
                throw BasemapError(code: .invalidStyle, message: "style \(name): layer \(index) is not an object")
            }
            guard let id = object["id"]?.string else {
                throw BasemapError(code: .invalidStyle, message: "style \(name): layer \(index) has no \"id\" string")
            }
            guard ids.insert(id).inserted else {
                throw BasemapError(code: .invalidStyle, message: "style \(name): two layers have the id \"\(id)\"")
            }
            var reader = LayerReader(style: name, id: id, object: object)
            if let layer = try reader.read(sourceTypes: sourceTypes, skipped: &skipped) { layers.append(layer) }
        }
        self.layers = layers
        warning = skipped.sentence(style: name)
    }

    /// Names of the styles that ship with Basemap, for the OpenMapTiles schema.
    package static let builtinNames = ["openmaptiles-day", "openmaptiles-night"]

    /// A built-in style by name ("openmaptiles-day", "openmaptiles-night").
    public static func builtin(named styleName: String) throws(BasemapError) -> MapStyle {
        guard builtinNames.contains(styleName),
            let url = Bundle.module.url(forResource: styleName, withExtension: "json", subdirectory: "styles")
        else {
            throw BasemapError(
                code: .invalidStyle,
                message: "no built-in basemap style \"\(styleName)\" (built-in: \(builtinNames.joined(separator: ", ")))")
        }
        return try load(url: url, name: styleName)
    }

    /// A built-in style's name, or the path of a MapLibre style file.
    public static func named(_ nameOrPath: String) throws(BasemapError) -> MapStyle {
        if builtinNames.contains(nameOrPath) { return try builtin(named: nameOrPath) }
        return try load(url: URL(fileURLWithPath: nameOrPath), name: nameOrPath)
    }

    private static func load(url: URL, name: String) throws(BasemapError) -> MapStyle {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw BasemapError(
                code: .io,
                message: "style \(name): no such file (\(url.path)); give a MapLibre style file or a "
                    + "built-in name (\(builtinNames.joined(separator: ", ")))")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BasemapError(code: .io, message: "style \(name): cannot read \(url.path) (\(describe(error)))")
        }
        return try MapStyle(data: data, name: name)
    }

    /// The background colour drawn under everything at a style zoom (transparent without a
    /// background layer), for choosing legible attribution colours.
    func backgroundColor(atZoom zoom: Double) -> Color {
        for layer in layers.reversed() where layer.isVisible(atZoom: zoom) {
            if case .background(let properties) = layer.properties {
                return properties.color.value(zoom: zoom).withOpacity(properties.opacity.value(zoom: zoom))
            }
        }
        return .transparent
    }

    /// FNV-1a over the bytes: cheap, stable across runs, enough to tell style files apart.
    static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
}

/// What a style asks for that is not drawn, grouped for one warning.
struct SkippedParts {
    private var parts: [String: [String]] = [:]
    private var order: [String] = []

    /// Notes a feature (`what`) and the layer using it, if any.
    mutating func note(_ what: String, _ layer: String?) {
        if parts[what] == nil {
            parts[what] = []
            order.append(what)
        }
        if let layer, parts[what]?.contains(layer) == false { parts[what]?.append(layer) }
    }

    var isEmpty: Bool { order.isEmpty }

    /// One sentence naming each skipped part and up to three layers using it.
    func sentence(style: String) -> String? {
        guard !order.isEmpty else { return nil }
        let items = order.map { what -> String in
            let layers = parts[what] ?? []
            guard !layers.isEmpty else { return what }
            let shown = layers.prefix(3).joined(separator: ", ")
            return "\(what) (\(shown)\(layers.count > 3 ? " and \(layers.count - 3) more" : ""))"
        }
        return "style \(style): not drawn (outside the supported subset): " + items.joined(separator: "; ")
    }
}
