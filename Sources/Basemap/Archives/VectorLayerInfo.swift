// What a vector tile archive says about its layers (the `vector_layers` of its metadata, as
// TileJSON 3.0 names it): which layers its tiles carry and the fields of their features, so
// a TileJSON document can describe the tiles to clients such as MapLibre. Contract: entries
// without an `id` are skipped; field types are kept as the archive words them.

import Foundation

/// One vector layer an archive's tiles carry.
public struct VectorLayerInfo: Hashable, Sendable {
    /// The layer's name in the tiles.
    package var id: String
    /// Its features' fields and their types ("String", "Number", "Boolean").
    package var fields: [String: String]
    /// What the layer holds, if the archive says.
    package var description: String?
    /// The zooms it appears at, if the archive says.
    package var minZoom: Int?
    package var maxZoom: Int?

    /// A layer description.
    package init(id: String, fields: [String: String] = [:], description: String? = nil, minZoom: Int? = nil, maxZoom: Int? = nil) {
        self.id = id
        self.fields = fields
        self.description = description
        self.minZoom = minZoom
        self.maxZoom = maxZoom
    }

    /// The layers of a metadata object's `vector_layers` array (PMTiles' metadata, or the
    /// `json` value of MBTiles, which archives converted from MBTiles keep as a string in their
    /// metadata); empty when it has none.
    static func layers(in object: [String: Any]) -> [VectorLayerInfo] {
        if object["vector_layers"] == nil, let text = object["json"] as? String,
            let inner = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        {
            return layers(in: inner)
        }
        guard let list = object["vector_layers"] as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard let id = entry["id"] as? String else { return nil }
            let fields = (entry["fields"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
            return VectorLayerInfo(
                id: id, fields: fields, description: entry["description"] as? String,
                minZoom: (entry["minzoom"] as? NSNumber)?.intValue, maxZoom: (entry["maxzoom"] as? NSNumber)?.intValue)
        }
    }
}
