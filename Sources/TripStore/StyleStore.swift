import TripModel

/// Persistence of style changes: per style name, the overrides set over its base style (as
/// JSON the Styling module writes) and a version every change bumps. Writes are
/// compare-and-swap on the version, so concurrent edits of one style never lose each other.
package protocol StyleStore: Sendable {
    /// Every style ever stored, by name (deleted ones with nil overrides).
    func styleRecords() async throws -> [StyleRecord]
    /// A style's record; nil when it was never stored.
    func styleRecord(name: String) async throws -> StyleRecord?
    /// Stores `overrides` (nil: the changes are deleted) as version `expectedVersion + 1`,
    /// changed at `time`; ABORTED when the stored version is no longer `expectedVersion` (0
    /// for none).
    func saveStyle(name: String, overrides: String?, expectedVersion: Int64, time: Timestamp) async throws -> StyleRecord
}

/// A style's stored changes.
package struct StyleRecord: Hashable, Sendable {
    /// The style's name.
    package var name: String
    /// What was set over the base, as JSON; nil when the changes were deleted.
    package var overrides: String?
    /// Bumped by every change, starting at 1.
    package var version: Int64
    /// When the last change was stored.
    package var updateTime: Timestamp

    /// A record from its parts.
    package init(name: String, overrides: String?, version: Int64, updateTime: Timestamp) {
        self.name = name
        self.overrides = overrides
        self.version = version
        self.updateTime = updateTime
    }

    /// The ABORTED error of a lost compare-and-swap.
    package static func conflict(_ name: String, expected: Int64, found: Int64) -> StatusError {
        StatusError(.aborted, "style '\(name)' changed meanwhile (version \(found), expected \(expected)); read it again and retry")
    }
}
