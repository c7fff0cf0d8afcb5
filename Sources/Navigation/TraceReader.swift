// Reads recorded drives for `tripshare navigate --trace`: CSV with a header naming
// `time,latitude,longitude[,heading,speed,accuracy]` (also OSRM's Berlin traces,
// `TrackID,Latitude,Longitude,Time`), and JSON Lines with one point per line. Times are
// RFC 3339 or Unix seconds; where a file leaves them empty (the Berlin traces do), points
// get `start`, `start + interval`, ... in file order.

import Foundation
import Geo
import TripModel

/// Reads location traces from CSV and JSON Lines.
package enum TraceReader {
    /// Why a trace could not be read: the line (from 1) and what was wrong.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// Line number, from 1.
        public var line: Int
        /// What was wrong.
        package var message: String

        /// Creates an error.
        package init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// "line N: message".
        public var description: String { "line \(line): \(message)" }
    }

    /// Reads a CSV trace with a header line; column names are matched case-insensitively
    /// (`time`, `latitude`/`lat`, `longitude`/`lng`/`lon`, `heading`, `speed` in m/s,
    /// `accuracy`, `trackid`).
    package static func csv(
        _ data: Data, start: Date = Date(timeIntervalSince1970: 0), interval: TimeInterval = 1
    ) throws(Error) -> [TracePoint] {
        let lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false) {
            $0 == "\n" || $0 == "\r\n" || $0 == "\r"
        }
        guard let header = lines.first else { throw Error(line: 1, message: "empty file") }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        func column(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let latColumn = column(["latitude", "lat"]), let lngColumn = column(["longitude", "lng", "lon"]) else {
            throw Error(line: 1, message: "the header needs latitude and longitude columns")
        }
        let timeColumn = column(["time", "timestamp"])
        let headingColumn = column(["heading", "bearing"])
        let speedColumn = column(["speed"])
        let accuracyColumn = column(["accuracy"])
        let trackColumn = column(["trackid", "track"])
        var points: [TracePoint] = []
        var previous: Date?
        for (n, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            func field(_ c: Int?) -> String? {
                guard let c, c < fields.count, !fields[c].isEmpty else { return nil }
                return fields[c]
            }
            func number(_ c: Int?, _ name: String) throws(Error) -> Double? {
                guard let text = field(c) else { return nil }
                guard let v = Double(text), v.isFinite else { throw Error(line: n + 1, message: "\(name) is not a number") }
                return v
            }
            guard let lat = try number(latColumn, "latitude"), let lng = try number(lngColumn, "longitude") else {
                throw Error(line: n + 1, message: "latitude and longitude are required")
            }
            let time: Date
            if let text = field(timeColumn) {
                guard let t = parseTime(text) else { throw Error(line: n + 1, message: "time is not RFC 3339 or Unix seconds") }
                time = t
            } else {
                time = previous.map { $0.addingTimeInterval(interval) } ?? start
            }
            previous = time
            let location = LatLng(latitude: lat, longitude: lng)
            guard location.isValid else { throw Error(line: n + 1, message: "not a valid latitude/longitude") }
            points.append(
                TracePoint(
                    time: time, location: location, heading: try number(headingColumn, "heading"),
                    speedMetersPerSecond: try number(speedColumn, "speed"),
                    accuracyMeters: try number(accuracyColumn, "accuracy"), trackID: field(trackColumn)))
        }
        return points
    }

    /// Reads JSON Lines: each non-blank line an object with `time` (RFC 3339 or Unix
    /// seconds), `latitude` and `longitude` (or `location: {latitude, longitude}`), and
    /// optional `heading`, `speed` (m/s), `accuracy`.
    package static func jsonl(_ data: Data) throws(Error) -> [TracePoint] {
        var points: [TracePoint] = []
        for (n, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { continue }
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: Data(line))
            } catch {
                throw Error(line: n + 1, message: "not JSON")
            }
            guard let o = object as? [String: Any] else { throw Error(line: n + 1, message: "not a JSON object") }
            let place = (o["location"] as? [String: Any]) ?? o
            guard let lat = (place["latitude"] as? NSNumber)?.doubleValue,
                let lng = (place["longitude"] as? NSNumber)?.doubleValue
            else { throw Error(line: n + 1, message: "latitude and longitude are required") }
            let time: Date?
            if let text = o["time"] as? String {
                time = parseTime(text)
            } else if let seconds = (o["time"] as? NSNumber)?.doubleValue {
                time = Date(timeIntervalSince1970: seconds)
            } else {
                time = nil
            }
            guard let time else { throw Error(line: n + 1, message: "time is required (RFC 3339 or Unix seconds)") }
            let location = LatLng(latitude: lat, longitude: lng)
            guard location.isValid else { throw Error(line: n + 1, message: "not a valid latitude/longitude") }
            points.append(
                TracePoint(
                    time: time, location: location, heading: (o["heading"] as? NSNumber)?.doubleValue,
                    speedMetersPerSecond: (o["speed"] as? NSNumber)?.doubleValue,
                    accuracyMeters: (o["accuracy"] as? NSNumber)?.doubleValue,
                    trackID: (o["trackId"] as? String) ?? (o["trackID"] as? String)))
        }
        return points
    }

    private static func parseTime(_ text: String) -> Date? {
        if let seconds = Double(text), seconds.isFinite { return Date(timeIntervalSince1970: seconds) }
        return Timestamp(rfc3339: text)?.date
    }
}
