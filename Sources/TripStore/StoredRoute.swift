// A vehicle's route segment is stored apart from its row (issue 30): a location update
// rewrites the vehicle's row, and with a long route inside it (20,000 points are some 100 KB
// of polyline) every update rewrote and re-encoded the route. The route's row holds the
// polyline and its cumulative distances, written when the segment changes; the vehicle's
// body is stored without the segment, and reads put it back.

import JSON
import TripModel

/// How the SQL stores keep a vehicle's route segment apart from its row.
package enum StoredRoute {
    /// The vehicle as its row stores it: without its route segment.
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
    /// distances (measured anew when they do not fit). A row without a route row keeps what
    /// its body holds (a body written before the routes were stored apart).
    package static func attach(polyline: String?, cumulative: [UInt8]?, to vehicle: inout Vehicle) -> MeasuredRoute? {
        guard let polyline else { return nil }
        vehicle.currentRouteSegment = polyline
        if let meters = cumulative.flatMap({ cumulativeMeters($0) }), let route = MeasuredRoute(polyline: polyline, cumulativeMeters: meters) {
            return route
        }
        return MeasuredRoute(polyline: polyline)
    }

    /// The answer to an update (the vehicle as JSON) from the body the store encoded without
    /// the route segment: the segment is put back where the vehicle's encoding has it (so an
    /// update's answer and a read list the members in one order), and the route is encoded once
    /// for the answer and never for the row.
    package static func answer(body: [UInt8], vehicle: Vehicle) throws -> [UInt8] {
        guard let segment = vehicle.currentRouteSegment else { return body }
        let answer = JSONObjectMembers.inserting(
            "currentRouteSegment", valueJSON: try JSONStreamEncoder().encode(segment),
            before: Vehicle.membersEncodedAfterRouteSegment, in: body)
        return try answer ?? JSONStreamEncoder().encode(vehicle)
    }
}
