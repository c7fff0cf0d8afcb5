// The words and numbers of the navigation screen and the turn-by-turn card: distances rounded
// as a driver reads them ("250 m", "1.2 km", "500 ft", "0.3 mi"), durations ("12 min",
// "1 hr 5 min"), speeds, and the arrival clock time in the viewer's time zone (24-hour for
// metric, 12-hour for imperial). Plain functions of their inputs: no locale is consulted.

import Foundation
import TripModel

/// Formatting for the driver's screens.
package enum NavigationText {
    /// A distance as a number and a unit: "250" "m", "1.2" "km", "13,444" "km"; imperial
    /// "500" "ft" below a tenth of a mile, then "0.3" "mi".
    package static func distance(_ meters: Double, units: NavigationScreenOptions.Units) -> (value: String, unit: String) {
        let m = max(0, meters.isFinite ? meters : 0)
        switch units {
        case .metric:
            if m < 100 { return (String(Int((m / 10).rounded()) * 10), "m") }
            if m < 975 { return (String(Int((m / 50).rounded()) * 50), "m") }
            if m < 9_950 { return (oneDecimal(m / 1000), "km") }
            return (grouped(Int((m / 1000).rounded())), "km")
        case .imperial:
            let feet = m / 0.3048
            let miles = m / 1609.344
            if miles < 0.1 { return (String(max(0, Int((feet / 50).rounded()) * 50)), "ft") }
            if miles < 9.95 { return (oneDecimal(miles), "mi") }
            return (grouped(Int(miles.rounded())), "mi")
        }
    }

    /// A distance as one string: "1.2 km".
    package static func distanceText(_ meters: Double, units: NavigationScreenOptions.Units) -> String {
        let parts = distance(meters, units: units)
        return "\(parts.value) \(parts.unit)"
    }

    /// A duration rounded to the minute: "1 min" (at least, while there is any), "12 min",
    /// "1 hr", "2 hr 5 min", "3 d 4 hr".
    package static func duration(_ seconds: Double) -> String {
        let s = max(0, seconds.isFinite ? seconds : 0)
        let minutes = s == 0 ? 0 : max(1, Int((s / 60).rounded()))
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 24 {
            let rest = minutes % 60
            return rest == 0 ? "\(hours) hr" : "\(hours) hr \(rest) min"
        }
        let days = hours / 24
        let restHours = hours % 24
        return restHours == 0 ? "\(days) d" : "\(days) d \(restHours) hr"
    }

    /// The clock time `seconds` after `at` in `zone`: "14:32" (metric) or "2:32 PM" (imperial).
    package static func clock(_ at: Timestamp, plus seconds: Double, zone: TimeZone, units: NavigationScreenOptions.Units) -> String {
        let offset = seconds.isFinite ? max(0, min(seconds, 1e9)) : 0
        let date = at.date.addingTimeInterval(offset)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        let minuteText = minute < 10 ? "0\(minute)" : "\(minute)"
        switch units {
        case .metric:
            return "\(hour < 10 ? "0" : "")\(hour):\(minuteText)"
        case .imperial:
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            return "\(twelve):\(minuteText) \(hour < 12 ? "AM" : "PM")"
        }
    }

    /// A speed in the screen's unit, rounded: km/h or mph.
    package static func speed(metersPerSecond: Double, units: NavigationScreenOptions.Units) -> Int {
        Int((metersPerSecond * (units == .metric ? 3.6 : 2.236_936_3)).rounded())
    }

    /// A limit in km/h in the screen's unit: as posted for metric, the nearest 5 mph for
    /// imperial (limits in mph are signed in fives).
    package static func speedLimit(kph: Double, units: NavigationScreenOptions.Units) -> Int {
        units == .metric ? Int(kph.rounded()) : Int((kph / 1.609_344 / 5).rounded()) * 5
    }

    /// The speed unit's name.
    package static func speedUnit(_ units: NavigationScreenOptions.Units) -> String { units == .metric ? "km/h" : "mph" }

    /// The time difference of an alternate route: "+4 min", "2 min faster", "same time".
    package static func difference(seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes == 0 { return "same time" }
        return minutes > 0 ? "+\(duration(Double(minutes) * 60))" : "\(duration(Double(-minutes) * 60)) faster"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
