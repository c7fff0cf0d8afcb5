/// What the event log keeps (DESIGN §11): every event for ``duration``, and each vehicle's
/// location history (its newest ``locationsKept`` locations) however old. Everything else is
/// deleted by ``EventLogTrimmer``.
package struct EventRetention: Hashable, Sendable, CustomStringConvertible {
    /// How long every event is kept.
    package var duration: Duration

    /// Locations each vehicle keeps beyond ``duration``: its whole readable history, so that
    /// retention never changes what a history read returns.
    package static let locationsKept = LocationHistory.maximumLength

    /// A day: an SSE client offline for less resumes without losing an event.
    package static let standard = EventRetention(duration: .seconds(86_400))

    /// The longest retention accepted (ten years): longer is a typing mistake.
    static let longest = Duration.seconds(315_360_000)

    /// Keeps events for `duration`.
    package init(duration: Duration) {
        self.duration = duration
    }

    /// Parses a duration such as `90s`, `30m`, `24h`, `7d` or `1h30m` (units `s`, `m`, `h`,
    /// `d`); nil when `text` is not one, or is zero or more than ten years.
    package init?(_ text: String) {
        var total: Int64 = 0
        var number: Int64?
        for character in text.trimmingSpaces {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (shifted, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, shifted <= Int64.max - Int64(digit) else { return nil }
                number = shifted + Int64(digit)
                continue
            }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default: return nil
            }
            guard let value = number, value <= Self.longest.components.seconds / unit else { return nil }
            total += value * unit
            number = nil
        }
        let duration = Duration.seconds(total)
        guard number == nil, total > 0, duration <= Self.longest else { return nil }
        self.duration = duration
    }

    /// The duration in the largest unit that states it exactly: `90s`, `30m`, `24h`, `7d`.
    package var description: String {
        let seconds = duration.components.seconds
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60)] where seconds % size == 0 && seconds >= size {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// Time between two trimming passes: a twentieth of the retention, between 1 s and a
    /// minute, so the log overshoots its window by about 5% at most.
    package var passInterval: Duration {
        min(max(duration / 20, .seconds(1)), .seconds(60))
    }
}
