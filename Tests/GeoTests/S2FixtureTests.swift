import Foundation
import Geo
import Testing

/// The S2 decoder against real Fleet Engine logs (shared/fixtures/fleet-engine-logs).
@Suite struct S2FixtureTests {
    /// One `update_vehicle` response: its route segment and road-snapped location.
    struct Update {
        var segment: String
        var location: LatLng
    }

    /// Every string under a key named `currentroutesegment` / `encodedpathtowaypoint` (any
    /// case) anywhere in the file, and the responses carrying a segment and a location.
    static func load(_ name: String) throws -> (strings: Set<String>, updates: [Update], handles: [String]) {
        let data = try Data(contentsOf: TestSupport.fixtureURL("fleet-engine-logs/\(name)"))
        let root = try JSONSerialization.jsonObject(with: data)
        var strings = Set<String>()
        var handles: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    let lower = key.lowercased()
                    if lower == "currentroutesegment" || lower == "encodedpathtowaypoint", let s = child as? String {
                        strings.insert(s)
                    } else if lower == "currentroutesegmenthandle", let s = child as? String {
                        handles.append(s)
                    } else {
                        walk(child)
                    }
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(root)

        var updates: [Update] = []
        let logs = (root as? [String: Any])?["rawLogs"] as? [[String: Any]] ?? []
        for entry in logs {
            let payload = (entry["jsonpayload"] ?? entry["jsonPayload"]) as? [String: Any]
            guard let response = payload?["response"] as? [String: Any],
                let segment = (response["currentroutesegment"] ?? response["currentRouteSegment"]) as? String,
                let last = (response["lastlocation"] ?? response["lastLocation"]) as? [String: Any],
                let location = last["location"] as? [String: Any],
                let lat = location["latitude"] as? Double, let lng = location["longitude"] as? Double
            else { continue }
            updates.append(Update(segment: segment, location: LatLng(latitude: lat, longitude: lng)))
        }
        return (strings, updates, handles)
    }

    /// Every route segment and path to a waypoint in the Bay Area log decodes (86 distinct
    /// strings, level-22 compressed, up to 69 vertices), to valid points in the Bay Area.
    @Test func everySegmentDecodes() throws {
        let (strings, _, _) = try Self.load("two-trips-bay-area.json")
        #expect(strings.count == 86)
        var longest = 0
        for s in strings {
            let points = try S2Polyline.decode(base64: s)
            #expect(!points.isEmpty)
            longest = max(longest, points.count)
            for p in points {
                #expect(p.isValid && (37...38).contains(p.latitude) && (-122.5 ... -121.5).contains(p.longitude), "\(p) in \(s)")
            }
        }
        #expect(longest == 69)
    }

    /// The vehicle's road-snapped location lies on its current route segment: over the 478
    /// responses that carry both, the median distance to the decoded line is under 1 m, 95%
    /// are under 3 m, and none is over 30 m (segments are sent less often than locations,
    /// so the vehicle is somewhere along the segment, not only at its start).
    @Test func snappedLocationsLieOnTheirSegments() throws {
        let (_, updates, _) = try Self.load("two-trips-bay-area.json")
        #expect(updates.count == 478)
        var distances: [Double] = []
        for update in updates {
            let points = try S2Polyline.decode(base64: update.segment)
            let measure = try #require(PolylineMeasure(points))
            distances.append(measure.project(update.location).crossTrackMeters)
        }
        distances.sort()
        #expect(distances[distances.count / 2] < 1)
        #expect(distances[distances.count * 95 / 100] < 3)
        #expect(distances[distances.count - 1] < 30)
    }

    /// The second log (camelCase keys) carries no S2 segments: only opaque
    /// `currentRouteSegmentHandle` tokens, which the decoder refuses with an error instead of
    /// inventing points.
    @Test func jumpDemoHasOnlyOpaqueHandles() throws {
        let (strings, _, handles) = try Self.load("jump-demo.json")
        #expect(strings.isEmpty)
        #expect(handles.count > 1_000)
        for handle in Set(handles) {
            #expect(throws: S2Polyline.DecodingError.self) { try S2Polyline.decode(base64: handle) }
        }
    }
}
