// Expected against actual JSON, field by field: numbers within an absolute tolerance,
// RFC 3339 times and "12.5s" durations within a number of seconds, everything else exact.
// Each difference names its path, so a failed fixture says which field moved and by how much.

import JSON
import TripModel

/// Compares two JSON documents with tolerances.
struct JSONComparison {
    let tolerances: Scenario.Tolerances
    /// Differences reported before the rest are only counted.
    static let reportLimit = 20

    private(set) var differences: [String] = []
    private(set) var count = 0

    init(tolerances: Scenario.Tolerances) { self.tolerances = tolerances }

    /// The differences of `actual` from `expected`, path first ("trip.remainingDistanceMeters: expected 120, got 131").
    static func differences(expected: JSONValue, actual: JSONValue, tolerances: Scenario.Tolerances, root: String) -> [String] {
        var comparison = JSONComparison(tolerances: tolerances)
        comparison.compare(expected, actual, root)
        if comparison.count > comparison.differences.count {
            comparison.differences.append("… and \(comparison.count - comparison.differences.count) more differences")
        }
        return comparison.differences
    }

    private mutating func report(_ text: String) {
        count += 1
        if differences.count < Self.reportLimit { differences.append(text) }
    }

    private mutating func compare(_ expected: JSONValue, _ actual: JSONValue, _ path: String) {
        switch (expected, actual) {
        case (.number(let e, _), .number(let a, _)):
            if abs(e - a) > tolerances.number { report("\(path): expected \(Self.text(expected)), got \(Self.text(actual))") }
        case (.string(let e), .string(let a)) where e != a:
            if let seconds = Self.seconds(e, a) {
                if abs(seconds) > tolerances.seconds { report("\(path): expected \(e), got \(a) (\(seconds) s apart)") }
            } else {
                report("\(path): expected \(Self.text(expected)), got \(Self.text(actual))")
            }
        case (.array(let e), .array(let a)):
            if e.count != a.count { report("\(path): expected \(e.count) elements, got \(a.count)") }
            for index in 0..<min(e.count, a.count) { compare(e[index], a[index], "\(path)[\(index)]") }
        case (.object(let e), .object(let a)):
            let actualMembers = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            for member in e {
                guard let other = actualMembers[member.key] else {
                    report("\(path).\(member.key): expected \(Self.text(member.value)), missing")
                    continue
                }
                compare(member.value, other, "\(path).\(member.key)")
            }
            let expectedKeys = Set(e.map(\.key))
            for member in a where !expectedKeys.contains(member.key) {
                report("\(path).\(member.key): not expected, got \(Self.text(member.value))")
            }
        default:
            if expected != actual { report("\(path): expected \(Self.text(expected)), got \(Self.text(actual))") }
        }
    }

    /// Seconds between two timestamps or two durations; nil when they are neither.
    static func seconds(_ expected: String, _ actual: String) -> Double? {
        if let e = Timestamp(rfc3339: expected), let a = Timestamp(rfc3339: actual) { return a.seconds(since: e) }
        if let e = ProtoDuration(text: expected), let a = ProtoDuration(text: actual) { return a.seconds - e.seconds }
        return nil
    }

    /// A value in short JSON, for messages.
    static func text(_ value: JSONValue) -> String {
        let full = (try? JSONCoding.encodeText(value)) ?? "?"
        return full.count > 80 ? String(full.prefix(77)) + "..." : full
    }
}
