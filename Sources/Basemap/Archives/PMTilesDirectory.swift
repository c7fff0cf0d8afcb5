// PMTiles v3 directories and tile ids. A directory is (after decompression) a varint count,
// then per entry the tile-id deltas, the run lengths, the lengths and the offsets, each as a
// column of varints; an offset of 0 after the first entry means "right after the previous
// entry", any other value v means v − 1. An entry with run length 0 points at a leaf
// directory; one with run length n covers n consecutive tile ids with the same data. Tile ids
// count all tiles of lower zooms ((4^z − 1) / 3) plus the tile's position along the Hilbert
// curve of its zoom. Contract: decoding rejects counts the bytes cannot hold, ids that do
// not increase, and columns that end early, so a damaged directory throws instead of
// allocating or looping without bound.

/// One directory entry.
struct PMTilesEntry: Hashable, Sendable {
    var tileID: UInt64
    var offset: UInt64
    var length: UInt64
    var runLength: UInt64
}

enum PMTilesDirectory {
    /// The PMTiles tile id of a tile: tiles of lower zooms, then the Hilbert index.
    static func tileID(_ tile: TileID) -> UInt64 {
        let zoom = UInt64(tile.zoom)
        let before = ((UInt64(1) << (2 * zoom)) - 1) / 3
        var x = UInt64(tile.x)
        var y = UInt64(tile.y)
        var index: UInt64 = 0
        var s = (UInt64(1) << zoom) >> 1
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            index += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so the curve stays continuous (only bits below s matter).
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return before + index
    }

    /// Decodes a decompressed directory.
    static func decode(_ bytes: [UInt8]) throws(ProtobufReader.Failure) -> [PMTilesEntry] {
        var reader = ProtobufReader(bytes)
        let count = try reader.varint()
        // Each entry takes at least four bytes (one varint per column).
        guard count <= UInt64(bytes.count) / 4 else {
            throw ProtobufReader.Failure(reason: "a directory of \(bytes.count) bytes claims \(count) entries")
        }
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var last: UInt64 = 0
        for index in entries.indices {
            let delta = try reader.varint()
            let (sum, overflow) = last.addingReportingOverflow(delta)
            guard !overflow, index == 0 || delta > 0 else {
                throw ProtobufReader.Failure(reason: "directory tile ids do not increase at entry \(index)")
            }
            last = sum
            entries[index].tileID = sum
        }
        for index in entries.indices { entries[index].runLength = try reader.varint() }
        for index in entries.indices {
            entries[index].length = try reader.varint()
            guard entries[index].length > 0, entries[index].length < UInt64(Int32.max) else {
                throw ProtobufReader.Failure(reason: "directory entry \(index) has length \(entries[index].length)")
            }
        }
        for index in entries.indices {
            let value = try reader.varint()
            if value == 0 {
                guard index > 0 else { throw ProtobufReader.Failure(reason: "the first directory entry has no offset") }
                let (next, overflow) = entries[index - 1].offset.addingReportingOverflow(entries[index - 1].length)
                guard !overflow else { throw ProtobufReader.Failure(reason: "directory offsets overflow") }
                entries[index].offset = next
            } else {
                entries[index].offset = value - 1
            }
        }
        return entries
    }

    /// The entry holding `tileID`: the last whose id is not greater; nil when there is none.
    static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0
        var high = entries.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let id = entries[middle].tileID
            if id == tileID { return entries[middle] }
            if id < tileID { low = middle + 1 } else { high = middle - 1 }
        }
        // `high` is now the last entry below tileID.
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.runLength == 0 { return entry }
        return tileID - entry.tileID < entry.runLength ? entry : nil
    }
}
