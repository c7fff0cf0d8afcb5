// PENDING: move this file to Tests/NavigationTests/ once Geo's S2Polyline (branch `geo`)
// is merged; it is kept here, outside the test target, because this branch has no S2
// decoder yet. Checked on a scratch package with the geo branch's Geo sources:
// 45 routes, 528 updates, 0 reroutes, 0 off-route fixes, 4 arrivals.

import Foundation
import Geo
import Navigation
import Testing

@Suite struct TwoTripsReplayTests {
    /// Replaying the update_vehicle raw locations of two-trips-bay-area.json against the
    /// routes its driver sent (S2 route segments) never reroutes.
    @Test func noSpuriousReroute() throws {
        let root = try #require(
            lowercasedKeys(try JSONSerialization.jsonObject(with: TestFiles.fixture("fleet-engine-logs/two-trips-bay-area.json")))
                as? [String: Any])
        let logs = try #require(root["rawlogs"] as? [Any]).compactMap { $0 as? [String: Any] }
            .filter { ($0["logname"] as? String)?.hasSuffix("update_vehicle") == true }
            .sorted { ($0["timestamp"] as? String ?? "") < ($1["timestamp"] as? String ?? "") }
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var navigator = Navigator()
        var routes = 0
        var rerouted = 0
        var updates = 0
        for entry in logs {
            guard let payload = entry["jsonpayload"] as? [String: Any],
                let vehicle = (payload["request"] as? [String: Any])?["vehicle"] as? [String: Any],
                let last = vehicle["lastlocation"] as? [String: Any],
                let raw = last["rawlocation"] as? [String: Any],
                let lat = (raw["latitude"] as? NSNumber)?.doubleValue,
                let lng = (raw["longitude"] as? NSNumber)?.doubleValue,
                let timeText = last["rawlocationtime"] as? String
            else { continue }
            let time = try style.parse(timeText)
            if let segment = vehicle["currentroutesegment"] as? String {
                // The driver's new route: S2 points on the precision-5 grid, repeats dropped.
                var points: [LatLng] = []
                for p in try S2Polyline.decode(base64: segment) {
                    let q = LatLng(latitude: (p.latitude * 1e5).rounded() / 1e5, longitude: (p.longitude * 1e5).rounded() / 1e5)
                    if points.last != q { points.append(q) }
                }
                if points.count >= 2 {
                    let route = NavRoute(
                        encodedPolyline: EncodedPolyline.encode(points), steps: [],
                        destinations: [RouteDestination(location: points[points.count - 1], polylinePointIndex: points.count - 1)])
                    _ = try navigator.setRoute(route, at: time)
                    routes += 1
                }
            }
            let before = navigator.navInfo.navState
            _ = navigator.update(
                location: LatLng(latitude: lat, longitude: lng), heading: (last["heading"] as? NSNumber)?.doubleValue,
                speedMetersPerSecond: (last["speed"] as? NSNumber)?.doubleValue,
                accuracyMeters: (last["rawlocationaccuracy"] as? NSNumber)?.doubleValue, time: time)
            updates += 1
            if navigator.navInfo.navState == .rerouting && before != .rerouting { rerouted += 1 }
        }
        #expect(routes == 45)
        #expect(updates == 528)
        #expect(rerouted == 0)
    }

    private func lowercasedKeys(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in object { out[k.lowercased()] = lowercasedKeys(v) }
            return out
        }
        if let array = value as? [Any] { return array.map(lowercasedKeys) }
        return value
    }
}
