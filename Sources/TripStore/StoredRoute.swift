// A vehicle's route segment is stored apart from its row (issue 30): a location update
// rewrites the vehicle's row, and with a long route inside it (20,000 points are some 100 KB
// of polyline) every update rewrote and re-encoded the route. The route's row holds the
// polyline and its cumulative distances, written when the segment changes; the vehicle's
// body is stored without the segment, nor the path to its first waypoint where that is the
// rest of the segment (JourneyState+StoredPath), and reads put both back.

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

    /// The cumulative distances as stored: little-endian IEEE 754 doubles, one per vertex.
    package static func bytes(_ cumulativeMeters: [Double]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cumulativeMeters.count * 8)
        for meters in cumulativeMeters {
            withUnsafeBytes(of: meters.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The cumulative distances from their stored bytes; nil when the length is not a whole
    /// number of doubles.
    package static func cumulativeMeters(_ bytes: some Collection<UInt8>) -> [Double]? {
        guard bytes.count % 8 == 0 else { return nil }
        let count = bytes.count / 8
        // Read eight bytes at a time: a cache miss reads every vertex of a long route here.
        let read = { (raw: UnsafeRawBufferPointer) in
            (0..<count).map { Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))) }
        }
        return bytes.withContiguousStorageIfAvailable { read(UnsafeRawBufferPointer($0)) } ?? Array(bytes).withUnsafeBytes(read)
    }

    /// Puts a stored route back on a vehicle read from its row, measured from the stored
    /// distances (measured anew when they do not fit), and the path to its first waypoint cut
    /// from it where the row left that out (`tracking` is the row's). A row without a route
    /// row keeps what its body holds (a body written before the routes were stored apart).
    /// The distances are read where the driver left them (a `Data`, a `ByteBuffer`'s view):
    /// copying them into an array first cost a cache miss another 160 KB at 20,000 points.
    package static func attach<Bytes: Collection<UInt8>>(
        polyline: String?, cumulative: Bytes?, to vehicle: inout Vehicle, tracking: RouteTracking
    ) -> MeasuredRoute? {
        guard let polyline else { return nil }
        vehicle.currentRouteSegment = polyline
        let route = measured(polyline, cumulative: cumulative)
        JourneyState.restoreFirstPath(of: &vehicle, tracking: tracking, route: route)
        return route
    }

    /// A vehicle from its row's body and tracking and its route's row, for reads that keep no
    /// measure: the route is decoded only where the first waypoint's path must be cut from it.
    package static func vehicle<Bytes: Collection<UInt8>>(
        body: Vehicle, tracking: RouteTracking, polyline: String?, cumulative: Bytes?
    ) -> Vehicle {
        var vehicle = body
        guard let polyline else { return vehicle }
        vehicle.currentRouteSegment = polyline
        if JourneyState.leavesOutFirstPath(of: vehicle, tracking: tracking) {
            JourneyState.restoreFirstPath(of: &vehicle, tracking: tracking, route: measured(polyline, cumulative: cumulative))
        }
        return vehicle
    }

    /// The route measured from its stored distances, or anew where they do not fit it.
    private static func measured(_ polyline: String, cumulative: (some Collection<UInt8>)?) -> MeasuredRoute? {
        cumulative.flatMap { cumulativeMeters($0) }.flatMap { MeasuredRoute(polyline: polyline, cumulativeMeters: $0) }
            ?? MeasuredRoute(polyline: polyline)
    }

    /// The answer to an update (the vehicle as JSON) from the body the store encoded for
    /// `record`'s row: the segment, and the first waypoint's path and traffic where the body
    /// leaves them out, are put back where the vehicle's encoding has them (so an update's
    /// answer and a read list the members in one order). The route and the path are encoded
    /// once, for the answer, and never for the row; the vehicle is not encoded a second time
    /// (that cost as much as the row's own encoding, issue 31) unless the body is not what
    /// its encoding should be.
    package static func answer(body: [UInt8], record: VehicleRecord) throws -> [UInt8] {
        let vehicle = record.vehicle
        guard let segment = vehicle.currentRouteSegment else { return body }
        var answer: [UInt8]? = body
        if JourneyState.leavesOutFirstPath(of: vehicle, tracking: record.tracking) {
            answer = try withFirstPath(of: vehicle.waypoints[0], in: body)
        }
        let segmentJSON = try JSONStreamEncoder().encode(segment)
        answer = answer.flatMap {
            JSONObjectMembers.inserting("currentRouteSegment", valueJSON: segmentJSON, before: Vehicle.membersEncodedAfterRouteSegment, in: $0)
        }
        return try answer ?? JSONStreamEncoder().encode(vehicle)
    }

    /// `body` with the path to `waypoint` (the vehicle's first) and its traffic put back into
    /// the first of its waypoints.
    private static func withFirstPath(of waypoint: TripWaypoint, in body: [UInt8]) throws -> [UInt8]? {
        let path = try waypoint.encodedPathToWaypoint.map { try JSONStreamEncoder().encode($0) }
        let traffic = try waypoint.trafficToWaypoint.map { try JSONStreamEncoder().encode($0) }
        return JSONObjectMembers.editingFirstElement(of: "waypoints", in: body) { stop in
            var edited: [UInt8]? = stop
            if let traffic {
                edited = edited.flatMap {
                    JSONObjectMembers.inserting("trafficToWaypoint", valueJSON: traffic, before: TripWaypoint.membersEncodedAfterTraffic, in: $0)
                }
            }
            if let path {
                edited = edited.flatMap {
                    JSONObjectMembers.inserting("encodedPathToWaypoint", valueJSON: path, before: TripWaypoint.membersEncodedAfterPath, in: $0)
                }
            }
            return edited
        }
    }
}
