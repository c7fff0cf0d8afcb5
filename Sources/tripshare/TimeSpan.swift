import ArgumentParser
import Foundation

/// A duration given on the command line or in the environment: a number with a unit,
/// `500ms`, `90s`, `30m`, `24h` (a bare number is seconds).
struct TimeSpan: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// The length in seconds.
    let seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        guard let value = Double(unit.map { String(text.dropLast($0.suffix.count)) } ?? text), value.isFinite, value >= 0 else {
            return nil
        }
        seconds = value * (unit?.seconds ?? 1)
    }

    /// As Swift's `Duration`.
    var duration: Duration { .milliseconds(Int64((seconds * 1_000).rounded())) }

    var description: String { seconds < 1 ? "\(Int((seconds * 1_000).rounded()))ms" : "\(seconds.formatted())s" }
}

extension Double {
    /// Whole numbers without a fraction.
    fileprivate func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
