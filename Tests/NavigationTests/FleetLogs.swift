import Foundation
import Geo
import Navigation

/// Raw locations of the `update_vehicle` entries of a Fleet Engine log export, in time
/// order (keys are matched case-insensitively: the two exports spell them differently).
enum FleetLogs {
    static func rawFixes(_ file: String) throws -> [JumpFilter.Fix] {
        let root = try JSONSerialization.jsonObject(with: TestFiles.fixture("fleet-engine-logs/\(file)"))
        guard let logs = lowercased(root)["rawlogs"] as? [Any] else { return [] }
        var fixes: [JumpFilter.Fix] = []
        for entry in logs.map(lowercased) {
            guard (entry["logname"] as? String)?.hasSuffix("update_vehicle") == true,
                let payload = entry["jsonpayload"] as? [String: Any],
                let response = payload["response"] as? [String: Any],
                let last = response["lastlocation"] as? [String: Any],
                let raw = last["rawlocation"] as? [String: Any],
                let lat = (raw["latitude"] as? NSNumber)?.doubleValue,
                let lng = (raw["longitude"] as? NSNumber)?.doubleValue,
                let timeText = last["rawlocationtime"] as? String,
                let time = try? Date(timeText, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true))
            else { continue }
            fixes.append(
                JumpFilter.Fix(
                    location: LatLng(latitude: lat, longitude: lng), time: time,
                    accuracyMeters: (last["rawlocationaccuracy"] as? NSNumber)?.doubleValue))
        }
        return fixes.sorted { $0.time < $1.time }
    }

    private static func lowercased(_ value: Any) -> [String: Any] {
        guard let object = value as? [String: Any] else { return [:] }
        var out: [String: Any] = [:]
        for (k, v) in object {
            if let nested = v as? [String: Any] {
                out[k.lowercased()] = lowercased(nested)
            } else {
                out[k.lowercased()] = v
            }
        }
        return out
    }
}
