// RFC 3339 timestamps as Fleet Engine writes them ("2025-02-05T17:02:31.483Z"). Parsing and
// formatting are hand-written: they run for every field of every response, and Foundation's
// ISO 8601 formatters are an order of magnitude slower on Linux.

import Foundation

/// A point in time with microsecond resolution, coded as an RFC 3339 string in UTC.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64

    /// Creates a timestamp from microseconds since the Unix epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// Creates a timestamp from a `Date`, rounded to the microsecond.
    public init(_ date: Date) {
        microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Creates a timestamp from seconds since the Unix epoch.
    package init(secondsSince1970 seconds: Double) {
        microseconds = Int64((seconds * 1_000_000).rounded())
    }

    /// The same instant as a `Date`.
    package var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// Seconds since the Unix epoch.
    package var secondsSince1970: Double { Double(microseconds) / 1_000_000 }

    /// This instant moved by `seconds`.
    package func adding(seconds: Double) -> Timestamp {
        Timestamp(microseconds: microseconds + Int64((seconds * 1_000_000).rounded()))
    }

    /// Seconds from `other` to this instant (positive when this is later).
    package func seconds(since other: Timestamp) -> Double {
        Double(microseconds - other.microseconds) / 1_000_000
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
}

extension Timestamp {
    /// Parses RFC 3339 (`2025-02-05T17:02:31.483732Z`, `...+02:00`, 0–9 fractional digits).
    public init?(rfc3339 text: String) {
        var utf8 = Array(text.utf8)
        guard let value = Self.parse(&utf8) else { return nil }
        self = value
    }

    /// The RFC 3339 form in UTC with as many fractional digits as needed (0, 3 or 6).
    public var rfc3339: String {
        let seconds = microseconds.floorDivided(by: 1_000_000)
        let micros = Int(microseconds - seconds * 1_000_000)
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        // A year outside 0...9999 is written as it is, without padding.
        let yearText: String? = (0...9999).contains(year) ? nil : String(year)
        let count = (yearText?.utf8.count ?? 4) + 16 + (micros == 0 ? 0 : micros % 1000 == 0 ? 4 : 7)
        // Written straight into the string's storage: every location update writes a dozen
        // timestamps, and building an array first cost an allocation each.
        return String(unsafeUninitializedCapacity: count) { out in
            var index = 0
            func digits(_ value: Int, _ width: Int) {
                var v = value
                for place in stride(from: index + width - 1, through: index, by: -1) {
                    out[place] = UInt8(48 + v % 10)
                    v /= 10
                }
                index += width
            }
            func byte(_ ascii: UInt8) {
                out[index] = ascii
                index += 1
            }
            if let yearText {
                for ascii in yearText.utf8 { byte(ascii) }
            } else {
                digits(Int(year), 4)
            }
            byte(45)
            digits(month, 2)
            byte(45)
            digits(day, 2)
            byte(84)
            digits(secondOfDay / 3600, 2)
            byte(58)
            digits(secondOfDay / 60 % 60, 2)
            byte(58)
            digits(secondOfDay % 60, 2)
            if micros != 0 {
                byte(46)
                if micros % 1000 == 0 { digits(micros / 1000, 3) } else { digits(micros, 6) }
            }
            byte(90)
            return index
        }
    }

    private static func parse(_ b: inout [UInt8]) -> Timestamp? {
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for _ in 0..<count {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
                i += 1
            }
            return v
        }
        func expect(_ chars: UInt8...) -> Bool {
            guard i < b.count, chars.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            expect(84, 116, 32), let hour = number(2), expect(58), let minute = number(2), expect(58),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var micros = 0
        if i < b.count && b[i] == 46 {
            i += 1
            var digitsRead = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digitsRead < 6 { micros = micros * 10 + Int(b[i] - 48) }
                digitsRead += 1
                i += 1
            }
            guard digitsRead > 0 else { return nil }
            for _ in digitsRead..<max(digitsRead, 6) { micros *= 10 }
        }
        var offsetSeconds = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = number(2), expect(58), let om = number(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Self.days(fromCivil: Int64(year), month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offsetSeconds)
        return Timestamp(microseconds: seconds * 1_000_000 + Int64(micros))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    private static func days(fromCivil year: Int64, _ month: Int, _ day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(40))' is not an RFC 3339 timestamp")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { rfc3339 }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
