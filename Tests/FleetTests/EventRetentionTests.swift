import Fleet
import Testing

/// `--event-retention` durations (DESIGN §11).
@Suite struct EventRetentionTests {
    /// Durations in seconds, minutes, hours and days, alone or combined, read as written
    /// and print in the largest exact unit.
    @Test func parsesDurations() {
        let cases: [(String, Int64, String)] = [
            ("90s", 90, "90s"), ("30m", 1_800, "30m"), ("24h", 86_400, "1d"), ("7d", 604_800, "7d"),
            ("1h30m", 5_400, "90m"), (" 45s ", 45, "45s"), ("3650d", 315_360_000, "3650d"),
        ]
        for (text, seconds, printed) in cases {
            let retention = EventRetention(text)
            #expect(retention?.duration == .seconds(seconds), "\(text)")
            #expect(retention?.description == printed, "\(text)")
        }
        #expect(EventRetention.standard.duration == .seconds(86_400))
    }

    /// Anything else is refused: no unit, an unknown unit, zero, a sign, more than ten years,
    /// or a number too large for the arithmetic.
    @Test func refusesOtherText() {
        for text in ["", "90", "s", "10x", "0s", "-5m", "1.5h", "3651d", "99999999999999999999h", "1h 30m", "２h"] {
            #expect(EventRetention(text) == nil, "\(text)")
        }
    }

    /// Passes run a twentieth of the retention apart, at least a second and at most a minute.
    @Test func passInterval() {
        #expect(EventRetention(duration: .seconds(10)).passInterval == .seconds(1))
        #expect(EventRetention(duration: .seconds(600)).passInterval == .seconds(30))
        #expect(EventRetention.standard.passInterval == .seconds(60))
    }
}
