import Access
import ArgumentParser
import Foundation
import Logging
import Render
import TripServer

/// The map tile flags of `serve` and `demo` (DESIGN §15): where drawn tiles are kept, how much
/// memory holds them, and each client address's budget on the public map data routes; each
/// falls back to a `TRIPSHARE_*` variable.
struct TileOptions: ParsableArguments {
    @Option(
        name: .customLong("tile-cache"),
        help: ArgumentHelp(
            "A directory that keeps every map tile drawn, across restarts (env TRIPSHARE_TILE_CACHE; default: memory only). "
                + "Tiles of another archive or style go to another folder in it; delete it to free the space.",
            valueName: "dir"))
    var directory: String?

    @Option(
        name: .customLong("tile-cache-mb"),
        help: ArgumentHelp("Memory for drawn map tiles (PNG) (env TRIPSHARE_TILE_CACHE_MB; default 32).", valueName: "MB"))
    var memoryMegabytes: Int?

    @Option(
        name: .customLong("tile-rate-limit"),
        help: ArgumentHelp(
            "Requests a second each client address may make to the map tiles, TileJSON, styles and road names, which need "
                + "no token, with bursts of ten times as many (env TRIPSHARE_TILE_RATE_LIMIT; default 50; 0: no limit).",
            valueName: "n"))
    var rateLimit: Double?

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    var resolvedDirectory: String? { directory ?? Self.environment["TRIPSHARE_TILE_CACHE"].flatMap { $0.isEmpty ? nil : $0 } }

    func resolvedMemoryBytes() throws -> Int {
        let text = memoryMegabytes.map(String.init) ?? Self.environment["TRIPSHARE_TILE_CACHE_MB"] ?? "32"
        guard let megabytes = Int(text), (0...65_536).contains(megabytes) else {
            throw ValidationError("--tile-cache-mb (TRIPSHARE_TILE_CACHE_MB) must be from 0 to 65536, got '\(text)'")
        }
        return megabytes << 20
    }

    /// The budget of each address; nil for none.
    func resolvedRate() throws -> TokenRateLimiter.Rate? {
        let standard = TripServerApp.defaultMapDataRate
        let text = rateLimit.map { String($0) } ?? Self.environment["TRIPSHARE_TILE_RATE_LIMIT"] ?? String(standard.requestsPerSecond)
        guard let rate = Double(text), rate.isFinite, rate >= 0 else {
            throw ValidationError("--tile-rate-limit (TRIPSHARE_TILE_RATE_LIMIT) must be a number of at least 0, got '\(text)'")
        }
        return rate > 0 ? TokenRateLimiter.Rate(requestsPerSecond: rate, burst: rate * 10) : nil
    }

    func validate() throws {
        _ = try resolvedMemoryBytes()
        _ = try resolvedRate()
    }

    /// The tiles of `basemap`, kept as these options say; nil without a basemap. A tile
    /// directory that cannot be written to is reported through `logger` once.
    func open(_ basemap: BasemapLayer?, logger: Logger) throws -> MapTiles? {
        guard let basemap else { return nil }
        return MapTiles(layer: basemap, memoryBytes: try resolvedMemoryBytes(), directory: resolvedDirectory) { message in
            logger.warning("\(message)")
        }
    }
}
