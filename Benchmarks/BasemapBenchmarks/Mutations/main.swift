// A deterministic mutation loop over real vector tiles and a real PMTiles archive: random
// byte flips, overwrites, truncations, insertions, deletions and duplicated ranges of the
// shared fixture tiles (mvt-fixtures, San Francisco, the gzip'd tiles) fed to the MVT
// decoder and geometry decoder, and of the Helsinki PMTiles archive's header, directories
// and metadata fed to the PMTiles reader (then every tile read). Any crash, trap or hang is
// a bug; a clean refusal (BasemapError) is the expected outcome for most cases.
// Usage: swift run -c release BasemapMutations [CASES] [SEED]   (default 1,000,000, seed 14)
// Run from Benchmarks/; needs ../shared/fixtures/basemap.

import Basemap
import Foundation
import TestKit

/// The inputs, the generator and the tally of one run.
struct MutationRun {
    var generator: SplitMix64
    var counts: [String: Int] = [:]
    let smallTiles: [[UInt8]]
    let bigTiles: [[UInt8]]
    let gzipTiles: [[UInt8]]
    let archive: [UInt8]
    /// Every tile the Helsinki archive holds (z0–z12 one each, z13 two, z14 four).
    let tileIDs: [TileID] =
        (0...12).map { zoom in TileID(zoom: zoom, x: Int(Double(1 << zoom) * (24.94 + 180) / 360), y: 0) }
        + [TileID(zoom: 13, x: 4663, y: 2370), TileID(zoom: 14, x: 9326, y: 4740), TileID(zoom: 14, x: 9327, y: 4741)]
    /// Header, root directory and metadata: what the reader parses on opening.
    let archiveHead = 1_000

    /// One random mutation of `bytes`, touching only `range` when given.
    mutating func mutate(_ bytes: [UInt8], within range: Range<Int>? = nil) -> [UInt8] {
        var out = bytes
        let span = range ?? 0..<max(bytes.count, 1)
        let edits = Int.random(in: 1...4, using: &generator)
        for _ in 0..<edits {
            guard !out.isEmpty else {
                out = [UInt8.random(in: 0...255, using: &generator)]
                continue
            }
            let at = min(Int.random(in: span, using: &generator), out.count - 1)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: // flip a bit
                out[at] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            case 1: // an interesting value: 0, 1, varint edges, protobuf keys
                out[at] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x08, 0x12, 0x1A, 0x22, 0x78].randomElement(using: &generator) ?? 0
            case 2: // a random byte
                out[at] = UInt8.random(in: 0...255, using: &generator)
            case 3: // truncate
                out.removeSubrange(at...)
            case 4: // insert random bytes
                let count = Int.random(in: 1...8, using: &generator)
                var inserted: [UInt8] = []
                for _ in 0..<count { inserted.append(UInt8.random(in: 0...255, using: &generator)) }
                out.insert(contentsOf: inserted, at: at)
            case 5: // delete a range
                out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...16, using: &generator)))
            default: // duplicate a range somewhere
                let end = min(out.count, at + Int.random(in: 1...32, using: &generator))
                let target = min(Int.random(in: span, using: &generator), out.count)
                out.insert(contentsOf: out[at..<end], at: target)
            }
        }
        return out
    }

    mutating func count(_ key: String) { counts[key, default: 0] += 1 }

    /// Decodes a tile and every feature's geometry; nothing may trap.
    mutating func decode(_ bytes: [UInt8], _ kind: String) {
        do {
            let tile = try VectorTile(decoding: bytes)
            for layer in tile.layers {
                for feature in layer.features { _ = try? FeatureGeometry(decoding: feature) }
            }
            count("\(kind) decoded")
        } catch {
            count("\(kind) refused")
        }
    }

    /// Case `index`: every 20th an archive, every 20th a gzip'd tile, one in a hundred a
    /// large San Francisco tile, the rest small mvt-fixtures tiles.
    mutating func run(_ index: Int) {
        switch index % 20 {
        case 0:
            let bytes = mutate(archive, within: 0..<archiveHead)
            do {
                let reader = try PMTilesArchive(bytes: bytes)
                for id in tileIDs {
                    if let data = try? reader.tileData(id) { decode(data, "archive tile") }
                }
                count("archive opened")
            } catch {
                count("archive refused")
            }
        case 1:
            let bytes = mutate(gzipTiles[index % gzipTiles.count])
            if let inflated = try? Inflate.decompress(bytes, limit: 4 << 20) {
                decode(inflated, "gzip tile")
            } else {
                count("gzip refused")
            }
        case 2 where index % 100 == 2:
            decode(mutate(bigTiles[index % bigTiles.count]), "big tile")
        default:
            decode(mutate(smallTiles[index % smallTiles.count]), "small tile")
        }
    }
}

func files(_ folder: URL, suffix: String) -> [[UInt8]] {
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(suffix) }.sorted().compactMap { try? [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }
}

let arguments = CommandLine.arguments
let totalCases = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 14 : 14
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let shared = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/basemap")
guard let archive = try? [UInt8](Data(contentsOf: shared.appendingPathComponent("helsinki/helsinki.pmtiles"))) else {
    print("\(shared.path) is absent or unreadable: nothing to mutate")
    exit(1)
}
var mutations = MutationRun(
    generator: SplitMix64(seed: seed),
    smallTiles: files(shared.appendingPathComponent("mvt-fixtures/fixtures"), suffix: "tile.mvt"),
    bigTiles: files(shared.appendingPathComponent("sanfrancisco"), suffix: ".mvt"),
    gzipTiles: files(shared.appendingPathComponent("compressed"), suffix: ".mvt.gz"),
    archive: archive)
print(
    "mutating \(mutations.smallTiles.count) + \(mutations.bigTiles.count) + \(mutations.gzipTiles.count) tiles and one archive, "
        + "seed \(seed)")
let start = Date()
for index in 0..<totalCases {
    mutations.run(index)
    if index % 100_000 == 99_999 { print("\(index + 1) cases, \(Int(Date().timeIntervalSince(start))) s") }
}
print("\(totalCases) cases in \(String(format: "%.1f", Date().timeIntervalSince(start))) s, no crash")
for key in mutations.counts.keys.sorted() { print("  \(key): \(mutations.counts[key] ?? 0)") }
