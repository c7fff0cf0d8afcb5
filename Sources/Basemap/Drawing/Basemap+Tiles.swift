// Loading tiles through the cache: read from the archive, inflate (the archive does),
// decode and prepare. A tile that fails is remembered as failed and reported once.

import Dispatch
import Raster
import Synchronization

extension Basemap {
    /// The content of a tile, from the cache or loaded now.
    func content(_ id: TileID) -> (content: TileContent, fresh: Bool) {
        cache.content(id) { load(id) }
    }

    /// Loads the tiles among `ids` that the cache lacks, several at once: a cold picture needs
    /// about a dozen, each read, inflated, decoded and prepared on its own. Returns what it
    /// loaded now (also cached, as far as the cache's bound allows); nothing when at most one
    /// tile is missing, which the caller's own lookup loads.
    func loadMissing(_ ids: [TileID]) -> [TileID: TileContent] {
        let missing = Array(Set(ids).filter { !cache.contains($0) })
        guard missing.count > 1 else { return [:] }
        let loaded = Mutex<[TileID: TileContent]>([:])
        DispatchQueue.concurrentPerform(iterations: missing.count) { index in
            let id = missing[index]
            let (content, fresh) = content(id)
            if fresh { loaded.withLock { $0[id] = content } }
        }
        return loaded.withLock { $0 }
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
            return .vector(try PreparedTile(decoding: data))
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
