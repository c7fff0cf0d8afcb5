// Styles as the API sees them (DESIGN §6): the read-only files of styles/ as bases, and the
// changes made over HTTP kept in the store as a StyleCoordinator's overrides with a version.
// A change reads the style, applies one coordinator operation, and saves it against the
// version it read (retrying when another change won), so concurrent edits are not lost.
// Styles created over HTTP are based on the default style; deleting one removes it.

import Foundation
import Raster
import Styling
import Synchronization
import TripModel
import TripStore

/// Reads and changes styles for the routes.
struct StyleService: Sendable {
    let store: (any StyleStore)?
    private let cache = ResolvedStyles()

    /// The shipped styles, loaded once per process.
    static let shipped: Result<StyleLibrary, StyleError> = Result { () throws(StyleError) in try StyleLibrary.bundled() }

    /// A service over a store (styles are read-only when the store cannot keep them).
    init(store: any TripStore) {
        self.store = store as? any StyleStore
    }

    /// The shipped styles; INTERNAL when they could not be loaded.
    var library: StyleLibrary {
        get throws(APIError) {
            switch Self.shipped {
            case .success(let library): return library
            case .failure(let error): throw APIError(.internalServerError, "INTERNAL", "the shipped styles cannot be loaded: \(error)")
            }
        }
    }

    /// A style as the API shows it.
    struct Style: Sendable {
        var name: String
        var coordinator: StyleCoordinator
        var version: Int64
        /// True for a style of the styles folder.
        var isFile: Bool
        /// Identifies exactly this content (for ETags): name, version and the files' digest.
        var tag: String
    }

    /// Every style: the files and those created over the API.
    func all() async throws -> [Style] {
        let records = try await store?.styleRecords() ?? []
        var names = Set(try library.names)
        for record in records where record.overrides != nil { names.insert(record.name) }
        var styles: [Style] = []
        for name in names.sorted() {
            styles.append(try resolve(name, record: records.first { $0.name == name }))
        }
        return styles
    }

    /// A style by name; NOT_FOUND when there is none.
    func style(_ name: String) async throws -> Style {
        try Self.checkName(name)
        return try resolve(name, record: try await store?.styleRecord(name: name))
    }

    /// A style for drawing: like ``style(_:)``, but the store is asked at most once a
    /// second per style (previews are read far more often than styles change; a change
    /// made through this process is seen at once, one made by another server process
    /// within a second).
    func styleForPreview(_ name: String) async throws -> Style {
        try Self.checkName(name)
        guard let store else { return try resolve(name, record: nil) }
        let key = RecentRecords.Key(store: ObjectIdentifier(store as AnyObject), name: name)
        let now = ContinuousClock.now
        if let recent = RecentRecords.shared.entries.withLock({ $0[key] }), (recent.owner as AnyObject) === (store as AnyObject),
           now - recent.time < RecentRecords.lifetime {
            return try resolve(name, record: recent.record)
        }
        let record = try await store.styleRecord(name: name)
        RecentRecords.shared.entries.withLock { entries in
            if entries.count > 1024 { entries.removeAll() }
            entries[key] = RecentRecords.Entry(owner: store, record: record, time: now)
        }
        return try resolve(name, record: record)
    }

    /// Applies one change to a style and saves it; a style that does not exist yet is created
    /// only when `creates` (PUT of a whole style).
    func change(_ name: String, creates: Bool = false,
                _ body: (inout StyleCoordinator) throws(StyleError) -> Void) async throws -> Style {
        try Self.checkName(name)
        guard let store else { throw APIError(.badRequest, "FAILED_PRECONDITION", "this store cannot keep style changes") }
        for _ in 0..<8 {
            let record = try await store.styleRecord(name: name)
            var current: Style
            do {
                current = try resolve(name, record: record)
            } catch let error as APIError where error.status == .notFound && creates {
                current = Style(name: name, coordinator: StyleCoordinator(defaults: try library.defaultStyle), version: record?.version ?? 0,
                                isFile: false, tag: "")
            }
            do {
                try body(&current.coordinator)
            } catch {
                throw APIError.invalid(error.description)
            }
            let overrides = String(decoding: current.coordinator.storedOverrides(), as: UTF8.self)
            do {
                let saved = try await store.saveStyle(name: name, overrides: overrides, expectedVersion: record?.version ?? 0)
                RecentRecords.shared.forget(store, name)
                return try resolve(name, record: saved)
            } catch let error as FleetError where error.code == .aborted {
                continue
            }
        }
        throw APIError(.conflict, "ABORTED", "style '\(name)' is changing too often; retry")
    }

    /// Deletes a style's changes: a file style reverts to its file, an API style disappears.
    func delete(_ name: String) async throws {
        let style = try await style(name)
        guard let store else { throw APIError(.badRequest, "FAILED_PRECONDITION", "this store cannot keep style changes") }
        guard style.version > 0 else { return }
        _ = try await store.saveStyle(name: name, overrides: nil, expectedVersion: style.version)
        RecentRecords.shared.forget(store, name)
    }

    /// The style (in effect) and its record as they stand.
    private func resolve(_ name: String, record: StyleRecord?) throws -> Style {
        let library = try library
        let version = record?.version ?? 0
        let base = library.style(named: name)
        guard base != nil || record?.overrides != nil else {
            throw APIError.notFound("style '\(name)' does not exist; styles are \(library.names.joined(separator: ", ")) and those created with PUT")
        }
        let tag = "\(name)/\(version)/\(library.fingerprint.hex)"
        if let cached = cache.entries.withLock({ $0[tag] }) { return cached }
        var coordinator = StyleCoordinator(defaults: base ?? library.defaultStyle)
        if let overrides = record?.overrides {
            do {
                coordinator = try StyleCoordinator(defaults: coordinator.defaults, storedOverrides: Array(overrides.utf8), icons: library.icons)
            } catch {
                throw APIError(.internalServerError, "INTERNAL", "the stored changes of style '\(name)' no longer apply: \(error)")
            }
        }
        let style = Style(name: name, coordinator: coordinator, version: version, isFile: base != nil, tag: tag)
        cache.entries.withLock { entries in
            if entries.count > 256 { entries.removeAll() }
            entries[tag] = style
        }
        return style
    }

    static func checkName(_ name: String) throws(APIError) {
        guard StyleLibrary.isValidName(name) else {
            throw .invalid("style: '\(name.prefix(64))' is not a style name (1–64 letters, digits, '-' or '_')")
        }
    }
}

/// Styles already resolved, by name, version and files: a version never changes content,
/// so entries never go stale.
private final class ResolvedStyles: Sendable {
    let entries = Mutex([String: StyleService.Style]())
}

/// Style records recently read for previews, per store and name.
private final class RecentRecords: Sendable {
    struct Key: Hashable {
        var store: ObjectIdentifier
        var name: String
    }

    /// A record as read; holding the store keeps its identifier from being reused.
    struct Entry: Sendable {
        var owner: any StyleStore
        var record: StyleRecord?
        var time: ContinuousClock.Instant
    }

    static let shared = RecentRecords()
    static let lifetime = Duration.seconds(1)
    let entries = Mutex([Key: Entry]())

    func forget(_ store: any StyleStore, _ name: String) {
        let key = Key(store: ObjectIdentifier(store as AnyObject), name: name)
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
