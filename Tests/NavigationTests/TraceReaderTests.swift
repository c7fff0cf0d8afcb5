import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

@Suite struct TraceReaderTests {
    /// CSV with times, headings and speeds reads every column.
    @Test func csvWithTimes() throws {
        let csv = """
            time,latitude,longitude,heading,speed
            2025-02-05T17:02:31.5Z,38.72,-9.14,90,12.5
            1738775000,38.7201,-9.1399,,
            """
        let points = try TraceReader.csv(Data(csv.utf8))
        #expect(points.count == 2)
        #expect(points[0].time == Date(timeIntervalSince1970: 1_738_774_951.5))
        #expect(points[0].heading == 90 && points[0].speedMetersPerSecond == 12.5)
        #expect(points[1].time == Date(timeIntervalSince1970: 1_738_775_000) && points[1].heading == nil)
    }

    /// The Berlin traces' layout (CRLF, track IDs, empty times) gets evenly spaced times.
    @Test func berlinLayout() throws {
        let csv = "TrackID,Latitude,Longitude,Time\r\n0,52.1887017,12.9249433,\r\n0,52.1900867,12.9240667,\r\n1,52.5,13.4,\r\n"
        let start = Date(timeIntervalSince1970: 100)
        let points = try TraceReader.csv(Data(csv.utf8), start: start, interval: 2)
        #expect(points.map(\.time) == [start, start + 2, start + 4])
        #expect(points.map(\.trackID) == ["0", "0", "1"])
        #expect(points[1].location == LatLng(latitude: 52.1900867, longitude: 12.9240667))
    }

    /// JSON Lines with either location form; blank lines are skipped.
    @Test func jsonLines() throws {
        let text = """
            {"time":"2025-02-05T17:02:31Z","latitude":38.72,"longitude":-9.14,"speed":3}

            {"time":1738774952,"location":{"latitude":38.7201,"longitude":-9.1399},"heading":45,"accuracy":4}
            """
        let points = try TraceReader.jsonl(Data(text.utf8))
        #expect(points.count == 2)
        #expect(points[0].speedMetersPerSecond == 3)
        #expect(points[1].heading == 45 && points[1].accuracyMeters == 4)
    }

    /// Bad input names its line.
    @Test func errorsNameTheLine() {
        #expect(throws: TraceReader.Error(line: 1, message: "the header needs latitude and longitude columns")) {
            try TraceReader.csv(Data("a,b\n1,2".utf8))
        }
        #expect(throws: TraceReader.Error(line: 3, message: "latitude is not a number")) {
            try TraceReader.csv(Data("lat,lng\n1,2\nx,3".utf8))
        }
        #expect(throws: TraceReader.Error(line: 2, message: "time is required (RFC 3339 or Unix seconds)")) {
            try TraceReader.jsonl(Data("{\"time\":1,\"latitude\":1,\"longitude\":2}\n{\"latitude\":1,\"longitude\":2}".utf8))
        }
    }

    /// The simulator ends exactly at the route's end, at the route's pace; a speed factor
    /// spaces the reports further apart in driving time and leaves the speeds alone.
    @Test func simulatorPace() throws {
        let route = StraightRoute.east(count: 11, trafficSpeed: 10)
        let start = Date(timeIntervalSince1970: 0)
        let drive = try DriveSimulator(route: route, start: start, interval: 10, speedFactor: 2)
        let points = Array(drive)
        let end = try route.validate()[10]
        #expect(points.last?.location == end)
        #expect(abs((points.last?.time.timeIntervalSince(start) ?? 0) - 100) < 0.1, "1 km at 10 m/s")
        #expect(points.count == 7, "0 s, 20 s, ... 100 s of driving, and the end just after")
        #expect(abs((points[1].speedMetersPerSecond ?? 0) - 10) < 0.01)
        #expect(abs(drive.replaySeconds - 50) < 0.1)
    }
}
