import ArgumentParser
import Basemap
import Foundation
import Logging
import Render

/// The basemap flags of `serve`, `demo` and `render` (DESIGN §13): the tile archive, its
/// style and the decoded-tile cache, each falling back to a `TRIPSHARE_*` variable.
struct BasemapOptions: ParsableArguments {
    @Option(
        name: .customLong("basemap"),
        help: ArgumentHelp(
            "A PMTiles or MBTiles file (vector OpenMapTiles-schema tiles, or PNG raster tiles) drawn under every picture "
                + "(env TRIPSHARE_BASEMAP).", valueName: "file"))
    var path: String?

    @Option(
        name: .customLong("basemap-style"),
        help: ArgumentHelp(
            "openmaptiles-day, openmaptiles-night, or a MapLibre style file for another schema (env TRIPSHARE_BASEMAP_STYLE; "
                + "default: the style sheet's own, day or night by lighting).", valueName: "name|path"))
    var style: String?

    @Option(
        name: .customLong("basemap-cache-mb"),
        help: ArgumentHelp(
            "Memory for decoded tiles, shared by all styles (default 64); half as much again keeps "
                + "drawn squares for pictures at whole zooms, an eighth drawn labels.", valueName: "MB"))
    var cacheMegabytes: Int?

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The archive to draw: the flag, else TRIPSHARE_BASEMAP, else `fallback`.
    func resolvedPath(fallback: String? = nil) -> String? {
        path ?? Self.environment["TRIPSHARE_BASEMAP"].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    /// The style to draw every picture with: the flag, else TRIPSHARE_BASEMAP_STYLE; nil lets style sheets choose.
    var resolvedStyle: String? {
        style ?? Self.environment["TRIPSHARE_BASEMAP_STYLE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let cacheMegabytes, !(0...65_536).contains(cacheMegabytes) {
            throw ValidationError("--basemap-cache-mb must be from 0 to 65536")
        }
        if style != nil, resolvedPath() == nil {
            throw ValidationError("--basemap-style needs a basemap: give --basemap FILE (or TRIPSHARE_BASEMAP)")
        }
    }

    /// Opens the basemap, or nil when none is configured (and none is given by `fallback`).
    /// Tiles that cannot be used and the style's "not drawn" warning go to `logger`, once each.
    /// Throws a message naming the file (or style) and what is wrong with it.
    func open(fallback: String? = nil, logger: Logger) throws -> BasemapLayer? {
        guard let path = resolvedPath(fallback: fallback) else { return nil }
        let cacheBytes = (cacheMegabytes ?? Basemap.defaultCacheBytes >> 20) << 20
        do {
            return try BasemapLayer.open(path: path, style: resolvedStyle, cacheBytes: cacheBytes) { message in
                logger.warning("basemap: \(message)")
            }
        } catch {
            throw BasemapOptionError(message: "cannot use the basemap: \(error.message)")
        }
    }
}

/// A basemap that cannot be used: printed as it is, and the command stops.
struct BasemapOptionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
