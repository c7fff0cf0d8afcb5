// Decoded tiles shared by every render, bounded by an estimate of the memory they hold.
// Contract: at most `capacity` bytes of decoded tiles are kept; the least recently used go
// first; tiles the archive lacks and tiles that failed to decode are remembered too (cheap
// entries), so a missing tile costs one archive read and a corrupt one is reported once.
// Loading happens outside the lock, so one slow tile does not hold up other renders (two
// renders may then decode the same tile once each; the second result is dropped).

import Raster
import Synchronization

/// What a tile address holds, once loaded.
enum TileContent: Sendable {
    case vector(PreparedTile)
    case raster(Image)
    /// The archive has no tile here.
    case missing
    /// The tile could not be read or decoded; the message says why.
    case failed(String)

    /// Approximate memory held, in bytes.
    var byteCount: Int {
        switch self {
        case .vector(let tile): tile.byteCount
        case .raster(let image): 64 + image.width * image.height * 4
        case .missing: 64
        case .failed(let message): 64 + message.utf8.count
        }
    }
}

/// A bounded, thread-safe cache of decoded tiles.
final class TileCache: Sendable {
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [TileID: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private struct Entry {
        let content: TileContent
        let bytes: Int
        var lastUse: UInt64
    }

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    /// The cached content of a tile, loading (and caching) it on a miss; `fresh` says
    /// whether it was loaded now.
    func content(_ id: TileID, load: () -> TileContent) -> (content: TileContent, fresh: Bool) {
        let cached = state.withLock { state -> TileContent? in
            state.clock += 1
            guard var entry = state.entries[id] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            entry.lastUse = state.clock
            state.entries[id] = entry
            return entry.content
        }
        if let cached { return (cached, false) }
        let loaded = load()
        store(loaded, for: id)
        return (loaded, true)
    }

    private func store(_ content: TileContent, for id: TileID) {
        let bytes = content.byteCount
        state.withLock { state in
            guard state.entries[id] == nil, bytes <= capacity else { return }
            state.clock += 1
            state.entries[id] = Entry(content: content, bytes: bytes, lastUse: state.clock)
            state.bytes += bytes
            while state.bytes > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.bytes
            }
        }
    }

    /// Whether a tile is held (without counting as a use).
    func contains(_ id: TileID) -> Bool { state.withLock { $0.entries[id] != nil } }

    /// Bytes held now.
    var byteCount: Int { state.withLock { $0.bytes } }
    /// Entries held now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Drops everything (for cold measurements).
    func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.bytes = 0
        }
    }
}
