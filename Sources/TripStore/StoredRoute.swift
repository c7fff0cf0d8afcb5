// A vehicle's route segment is stored apart from its row (issue 30): a location update
// rewrites the vehicle's row, and with a long route inside it (20,000 points are some 100 KB
// of polyline) every update rewrote and re-encoded the route. The route's row holds the
// polyline and its checkpoints (every 64th point's place and distance), written when the
// segment changes; the vehicle's body is stored without the segment, nor the path to its first
// waypoint where that is the rest of the segment (JourneyState+StoredPath), and reads put both
// back.

import Geo
import JSON
import TripModel

/// How the SQL stores keep a vehicle's route segment apart from its row.
package enum StoredRoute {
    /// The vehicle as its row stores it: without its route segment, nor the path to its first
    /// waypoint where that is cut from the segment.
    package static func body(of record: VehicleRecord) -> Vehicle {
        body(of: JourneyState.withoutFirstPath(record.vehicle, tracking: record.tracking))
    }

    /// The vehicle without its route segment (as rows stored it before the first waypoint's
    /// path was left out too).
    package static func body(of vehicle: Vehicle) -> Vehicle {
        guard vehicle.currentRouteSegment != nil else { return vehicle }
        var stored = vehicle
        stored.currentRouteSegment = nil
        return stored
    }

    /// Whether a write must store the route of `record`: its segment is not the one `stored`
    /// (the record as the write read it; nil when it did not) holds. Comparing the polylines
    /// costs nothing when they share storage, as an unchanged segment's do.
    package static func changed(_ record: VehicleRecord, from stored: VehicleRecord?) -> Bool {
        guard let stored else { return true }
        return stored.vehicle.currentRouteSegment != record.vehicle.currentRouteSegment
    }

    /// The cumulative distances as migration 0018 (PostgreSQL 0009) stored them: little-endian
    /// IEEE 754 doubles, one per vertex. Only that migration writes them; the next one
    /// replaces them with the route's checkpoints.
    package static func bytes(_ cumulativeMeters: [Double]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cumulativeMeters.count * 8)
        for meters in cumulativeMeters { append(meters.bitPattern, to: &bytes) }
        return bytes
    }

    /// The route's checkpoints as its row stores them (migrations 0021 and PostgreSQL 0010):
    /// little-endian 64-bit words, the point count, whether the first leg's paths are cut from
    /// the polyline (1) or not (0), the length (a double), the last point's offset and scaled
    /// latitude and longitude, then each checkpoint's offset, latitude, longitude and distance.
    /// Some 10 KB at 20,000 points, where a distance per vertex was 160 KB.
    package static func checkpointBytes(_ route: MeasuredRoute) -> [UInt8] {
        let line = route.line
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * (6 + 4 * line.checkpoints.count))
        for word in [UInt64(line.count), route.pathsCutFromPolyline ? 1 : 0, line.totalMeters.bitPattern] { append(word, to: &bytes) }
        for (index, checkpoint) in ([line.last] + line.checkpoints).enumerated() {
            append(UInt64(bitPattern: Int64(checkpoint.offset)), to: &bytes)
            append(UInt64(bitPattern: Int64(checkpoint.latitude)), to: &bytes)
            append(UInt64(bitPattern: Int64(checkpoint.longitude)), to: &bytes)
            if index > 0 { append(line.checkpointMeters[index - 1].bitPattern, to: &bytes) }
        }
        return bytes
    }

    /// The route `polyline` from its stored checkpoints, decoded no further (unless its paths
    /// are not cut from it); measured anew where the checkpoints do not fit it (nil where it
    /// does not decode).
    package static func route<Bytes: Collection<UInt8>>(polyline: String, checkpoints: Bytes?) -> MeasuredRoute? {
        guard let checkpoints,
            let read = checkpoints.withContiguousStorageIfAvailable({ line(polyline, UnsafeRawBufferPointer($0)) })
                ?? Array(checkpoints).withUnsafeBytes({ line(polyline, $0) })
        else { return MeasuredRoute(polyline: polyline) }
        return MeasuredRoute(line: read.line, pathsCutFromPolyline: read.pathsCut)
    }

    /// The line `polyline` with the checkpoints in `raw`; nil where they do not fit it.
    private static func line(_ polyline: String, _ raw: UnsafeRawBufferPointer) -> (line: MeasuredPolyline, pathsCut: Bool)? {
        guard raw.count >= 48, (raw.count - 48) % 32 == 0 else { return nil }
        let word = { (index: Int) in UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
        let integer = { (index: Int) in Int(Int64(bitPattern: word(index))) }
        let point = { (index: Int) in PolylineCheckpoint(offset: integer(index), latitude: integer(index + 1), longitude: integer(index + 2)) }
        let count = (raw.count - 48) / 32
        let checkpoints = (0..<count).map { point(6 + 4 * $0) }
        let meters = (0..<count).map { Double(bitPattern: word(9 + 4 * $0)) }
        guard word(1) <= 1,
            let line = MeasuredPolyline(
                encoded: polyline, count: integer(0), checkpoints: checkpoints, checkpointMeters: meters, last: point(3),
                totalMeters: Double(bitPattern: word(2)))
        else { return nil }
        return (line, word(1) == 1)
    }

    private static func append(_ word: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Puts a stored route back on a vehicle read from its row, measured at its stored
    /// checkpoints (measured anew when they do not fit), and the path to its first waypoint cut
    /// from it where the row left that out (`tracking` is the row's). A row without a route
    /// row keeps what its body holds (a body written before the routes were stored apart).
    /// The checkpoints are read where the driver left them (a `Data`, a `ByteBuffer`'s view).
    package static func attach<Bytes: Collection<UInt8>>(
        polyline: String?, checkpoints: Bytes?, to vehicle: inout Vehicle, tracking: RouteTracking
    ) -> MeasuredRoute? {
        guard let polyline else { return nil }
        vehicle.currentRouteSegment = polyline
        let route = route(polyline: polyline, checkpoints: checkpoints)
        JourneyState.restoreFirstPath(of: &vehicle, tracking: tracking, route: route)
        return route
    }

    /// A vehicle from its row's body and tracking and its route's row, for reads that keep no
    /// measure: the route is read only where the first waypoint's path must be cut from it.
    package static func vehicle<Bytes: Collection<UInt8>>(
        body: Vehicle, tracking: RouteTracking, polyline: String?, checkpoints: Bytes?
    ) -> Vehicle {
        var vehicle = body
        guard let polyline else { return vehicle }
        vehicle.currentRouteSegment = polyline
        if JourneyState.leavesOutFirstPath(of: vehicle, tracking: tracking) {
            JourneyState.restoreFirstPath(of: &vehicle, tracking: tracking, route: route(polyline: polyline, checkpoints: checkpoints))
        }
        return vehicle
    }

    /// The answer to an update (the vehicle as JSON) from `body`, the JSON the store encoded
    /// for `record`'s row (less any top-level members the caller does not want): the segment,
    /// and the first waypoint's path and traffic where the body leaves them out, are put back
    /// where the vehicle's encoding has them (so an update's answer and a read list the members
    /// in one order), written once into the answer and never into the row. The vehicle is not
    /// encoded a second time (that cost as much as the row's own encoding, issue 31), and the
    /// answer is written once, where it is sent from; nil when the body is not what its
    /// encoding should be.
    package static func answer(body: [UInt8], record: VehicleRecord) -> JSONObjectInsertions? {
        let vehicle = record.vehicle
        var answer = JSONObjectInsertions(into: body)
        guard let segment = vehicle.currentRouteSegment else { return answer }
        if JourneyState.leavesOutFirstPath(of: vehicle, tracking: record.tracking) {
            let first = vehicle.waypoints[0]
            var members: [(name: String, value: JSONObjectInsertions.Value, followers: Set<String>)] = []
            if let path = first.encodedPathToWaypoint {
                members.append(("encodedPathToWaypoint", .string(path), TripWaypoint.membersEncodedAfterPath))
            }
            if let traffic = first.trafficToWaypoint {
                guard let json = try? JSONStreamEncoder().encode(traffic) else { return nil }
                members.append(("trafficToWaypoint", .json(json), TripWaypoint.membersEncodedAfterTraffic))
            }
            if !members.isEmpty { answer.insert(members, inFirstElementOf: "waypoints") }
        }
        answer.insert("currentRouteSegment", .string(segment), before: Vehicle.membersEncodedAfterRouteSegment)
        return answer.isComplete ? answer : nil
    }
}
