/// Versions are the times their content last changed (as Fleet Engine's `...Version`
/// fields). Two changes within the same microsecond still get distinct, increasing
/// versions, so a client comparing versions never misses a change.
enum Versioning {
    /// A version after `previous`, at `now` when the clock allows.
    static func next(after previous: Timestamp?, now: Timestamp) -> Timestamp {
        guard let previous, previous >= now else { return now }
        return Timestamp(microseconds: previous.microseconds + 1)
    }

    /// Sets `version` to a new value when `changed`.
    static func bump(_ version: inout Timestamp?, if changed: Bool, now: Timestamp) {
        if changed || version == nil { version = next(after: version, now: now) }
    }
}
