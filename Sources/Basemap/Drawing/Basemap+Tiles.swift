// Loading tiles through the cache: read from the archive, inflate (the archive does),
// decode and prepare. A tile that fails is remembered as failed and reported once.

import Raster

extension Basemap {
    /// The content of a tile, from the cache or loaded now.
    func content(_ id: TileID) -> (content: TileContent, fresh: Bool) {
        cache.content(id) { load(id) }
    }

    private func load(_ id: TileID) -> TileContent {
        do {
            guard let data = try source.tileData(id) else { return .missing }
            if source.metadata.format == .png {
                do {
                    return .raster(try PNGCodec.decode(data))
                } catch {
                    return fail(id, error.description)
                }
            }
            return .vector(try PreparedTile(try VectorTile(decoding: data, checkingGeometry: false)))
        } catch {
            return fail(id, error.description)
        }
    }

    private func fail(_ id: TileID, _ reason: String) -> TileContent {
        let message = "basemap: tile \(id) of \(source.identity) skipped: \(reason)"
        reportOnce(message)
        return .failed(message)
    }
}

/// Collects display-list operations instead of (as well as) drawing.
struct DisplayListRecorder {
    var operations: [DisplayList.Operation] = []
}
