// Styles as a service (DESIGN §6): the read-only files of styles/ as bases, and the changes
// made over the API kept in the store as a StyleCoordinator's overrides with a version. A
// change reads the style, applies one coordinator operation, and saves it against the version
// it read (retrying when another change won), so concurrent edits are not lost. Styles
// created over the API are based on the default style; deleting one removes it.

import Caching
import Foundation
import Styling
import TripModel
import TripStore

/// Reads and changes styles.
package struct StyleService: Sendable {
    let store: (any StyleStore)?
    let clock: WallClock
    /// Styles already resolved, by name, version and files: a version never changes
    /// content, so entries never go stale.
    private let resolved = BoundedCache<String, Style>(capacity: 256)
    /// Style records recently read for previews, by style name (not on a shared store).
    private let recent = BoundedCache<String, RecentRecord>(capacity: 1_024)
    /// Whether other server processes write the same store.
    private let isShared: Bool

    /// The shipped styles, loaded once per process.
    package static let shipped: Result<StyleLibrary, StyleError> = Result { () throws(StyleError) in try StyleLibrary.bundled() }

    /// How long a record read for a preview is used before the store is asked again.
    static let previewRecordLifetime = 1.0

    /// A service over a store (styles are read-only when the store cannot keep them); `clock`
    /// stamps changes and ages the records read for previews.
    init(store: any TripStore, clock: WallClock) {
        self.store = store as? any StyleStore
        self.clock = clock
        isShared = store is any SharedTripStore
    }

    /// The shipped styles; INTERNAL when they could not be loaded.
    package var library: StyleLibrary {
        get throws(StatusError) {
            switch Self.shipped {
            case .success(let library): return library
            case .failure(let error): throw StatusError(.internal, "the shipped styles cannot be loaded: \(error)")
            }
        }
    }

    /// A style as the API shows it.
    package struct Style: Sendable {
        /// The style's name.
        package var name: String
        /// The options in effect, with what was changed over the file's (or default) base.
        package var coordinator: StyleCoordinator
        /// Bumped by every change; 0 for a file style never changed.
        package var version: Int64
        /// True for a style of the styles folder.
        package var isFile: Bool
        /// Identifies exactly this content (for ETags): name, version and the files' digest.
        package var tag: String
    }

    /// Every style: the files and those created over the API.
    package func all() async throws -> [Style] {
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
    package func style(_ name: String) async throws -> Style {
        try Self.checkName(name)
        return try resolve(name, record: try await store?.styleRecord(name: name))
    }

    /// A style for drawing: like ``style(_:)``, but the store is asked at most once a
    /// second per style (previews are read far more often than styles change; a change
    /// made through this service is seen at once). On a store other server processes share,
    /// the store is asked every time, so a change made through another process is never
    /// missed (a read of one row, next to drawing a picture).
    package func styleForPreview(_ name: String) async throws -> Style {
        try Self.checkName(name)
        guard let store else { return try resolve(name, record: nil) }
        if isShared { return try resolve(name, record: try await store.styleRecord(name: name)) }
        let now = clock.now
        if let recent = recent.value(forKey: name), abs(now.seconds(since: recent.time)) < Self.previewRecordLifetime {
            return try resolve(name, record: recent.record)
        }
        let record = try await store.styleRecord(name: name)
        recent.setValue(RecentRecord(record: record, time: now), forKey: name)
        return try resolve(name, record: record)
    }

    /// Applies one change to a style and saves it; a style that does not exist yet is created
    /// only when `creates` (PUT of a whole style). INVALID_ARGUMENT names what `body` refused.
    package func change(
        _ name: String, creates: Bool = false,
        _ body: (inout StyleCoordinator) throws(StyleError) -> Void
    ) async throws -> Style {
        try Self.checkName(name)
        guard let store else { throw Self.readOnly }
        for _ in 0..<8 {
            let record = try await store.styleRecord(name: name)
            var current: Style
            do {
                current = try resolve(name, record: record)
            } catch let error as StatusError where error.code == .notFound && creates {
                current = Style(
                    name: name, coordinator: StyleCoordinator(defaults: try library.defaultStyle), version: record?.version ?? 0,
                    isFile: false, tag: "")
            }
            do {
                try body(&current.coordinator)
            } catch {
                throw StatusError(.invalidArgument, error.description)
            }
            let overrides = String(decoding: current.coordinator.storedOverrides(), as: UTF8.self)
            do {
                let saved = try await store.saveStyle(
                    name: name, overrides: overrides, expectedVersion: record?.version ?? 0,
                    time: clock.now)
                forget(name)
                return try resolve(name, record: saved)
            } catch let error as StatusError where error.code == .aborted {
                continue
            }
        }
        throw StatusError(.aborted, "style '\(name)' is changing too often; retry")
    }

    /// Deletes a style's changes: a file style reverts to its file, an API style disappears.
    package func delete(_ name: String) async throws {
        let style = try await style(name)
        guard let store else { throw Self.readOnly }
        guard style.version > 0 else { return }
        _ = try await store.saveStyle(name: name, overrides: nil, expectedVersion: style.version, time: clock.now)
        forget(name)
    }

    private static let readOnly = StatusError(.failedPrecondition, "this store cannot keep style changes")

    private func forget(_ name: String) {
        recent.removeValue(forKey: name)
    }

    /// The style (in effect) and its record as they stand.
    private func resolve(_ name: String, record: StyleRecord?) throws -> Style {
        let library = try library
        let version = record?.version ?? 0
        let base = library.style(named: name)
        guard base != nil || record?.overrides != nil else {
            throw StatusError(
                .notFound,
                "style '\(name)' does not exist; styles are \(library.names.joined(separator: ", ")) and those created with PUT")
        }
        let tag = "\(name)/\(version)/\(library.fingerprint.hex)"
        if let cached = resolved.value(forKey: tag) { return cached }
        var coordinator = StyleCoordinator(defaults: base ?? library.defaultStyle)
        if let overrides = record?.overrides {
            do {
                coordinator = try StyleCoordinator(defaults: coordinator.defaults, storedOverrides: Array(overrides.utf8), icons: library.icons)
            } catch {
                throw StatusError(.internal, "the stored changes of style '\(name)' no longer apply: \(error)")
            }
        }
        let style = Style(name: name, coordinator: coordinator, version: version, isFile: base != nil, tag: tag)
        resolved.setValue(style, forKey: tag)
        return style
    }

    /// INVALID_ARGUMENT unless `name` can name a style.
    static func checkName(_ name: String) throws(StatusError) {
        guard StyleLibrary.isValidName(name) else {
            throw .invalid("style", "'\(name.prefix(64))' is not a style name (1–64 letters, digits, '-' or '_')")
        }
    }
}

/// A style record as read for a preview, and when.
private struct RecentRecord: Sendable {
    var record: StyleRecord?
    var time: Timestamp
}
