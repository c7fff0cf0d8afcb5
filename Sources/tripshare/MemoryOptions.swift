import ArgumentParser
import Caching
import Foundation

/// The memory flag of `serve` and `demo`: one budget for the caches of trips, vehicles, views,
/// tokens and database pages (docs/operations.md, "Memory"), falling back to
/// `TRIPSHARE_CACHE_MB`.
struct MemoryOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-mb"),
        help: ArgumentHelp(
            "Memory for the server's caches: SQLite's page cache takes 15%; decoded vehicles and trips, encoded trip "
                + "views and verified tokens share the rest, what was read least recently leaving first (env TRIPSHARE_CACHE_MB; default "
                + "\(CacheBudget.standard.bytes >> 20); docs/operations.md "
                + "says how to size it). Map tiles have their own, --tile-cache-mb.",
            valueName: "MB"))
    var cacheMegabytes: Int?

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The budget the flag or the environment gives, else the default.
    func resolvedBudget() throws -> CacheBudget {
        let text = cacheMegabytes.map(String.init) ?? Self.environment["TRIPSHARE_CACHE_MB"] ?? String(CacheBudget.standard.bytes >> 20)
        guard let megabytes = Int(text), (0...CacheBudget.maximumMegabytes).contains(megabytes) else {
            throw ValidationError(
                "--cache-mb (TRIPSHARE_CACHE_MB) must be from 0 to \(CacheBudget.maximumMegabytes), got '\(text)'")
        }
        return CacheBudget(megabytes: megabytes)
    }

    func validate() throws { _ = try resolvedBudget() }
}
