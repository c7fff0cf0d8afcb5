// Fleet Engine's methods beyond create, read, update and delete: UpdateVehicleAttributes,
// ReportBillableTrip, and the reads with GetTrip's and GetVehicle's options. Both wires call
// these (REST's routes, gRPC's services), so the rules hold the same on each.

import TripModel
import TripStore

extension Fleet {
    /// Merges `attributes` into the vehicle's by key (a key present is replaced, a new one
    /// added) and returns the vehicle's whole list; NOT_FOUND for an unknown vehicle.
    package func updateVehicleAttributes(provider: String, id: String, attributes: [Attribute]) async throws -> [Attribute] {
        try await write(readingVehicle: VehicleKey(provider: provider, id: id)) { _, tx, _ in
            guard var record = try tx.vehicleRecord(provider: provider, id: id) else { throw FleetWrites.notFound("vehicle", id) }
            try record.vehicle.mergeAttributes(attributes)
            try tx.updateVehicle(provider: provider, id: id, record)
            return record.vehicle.attributes
        }
    }

    /// Records that trip `id` is billable, once: a second report of the same trip changes
    /// nothing and succeeds (Fleet Engine's retries are safe). Returns the record kept.
    /// NOT_FOUND when no such trip exists; INVALID_ARGUMENT without a country.
    @discardableResult
    package func reportBillableTrip(provider: String, id: String, report: BillableTripReport) async throws -> BillableTripRecord {
        try report.validate()
        return try await write { _, tx, now in
            guard try tx.trip(provider: provider, id: id) != nil else { throw FleetWrites.notFound("trip", id) }
            let record = BillableTripRecord(name: ResourceName.billableTrip(provider: provider, id: id), reportTime: now, report: report)
            return try tx.recordBillableTrip(provider: provider, tripId: id, record)
        }
    }

    /// The billable trips reported at or after `since`, oldest first, a page of at most
    /// `limit` after the record `after` (the last of the previous page).
    package func billableTrips(since: Timestamp, after: BillableTripRecord? = nil, limit: Int = 1_000) async throws -> [BillableTripRecord] {
        try await store.read { reader in try reader.billableTrips(since: since, after: after, limit: limit) }
    }

    /// A vehicle as GetVehicle returns it with `options` (only what changed since the
    /// versions given); NOT_FOUND when absent.
    package func vehicle(provider: String, id: String, options: VehicleReadOptions) async throws -> Vehicle {
        try await vehicle(provider: provider, id: id).rendered(options)
    }

    /// A trip as GetTrip returns it with `options` (its view, only what changed since the
    /// versions given, routes in the format asked for); NOT_FOUND when absent.
    package func trip(provider: String, id: String, options: TripReadOptions) async throws -> Trip {
        try await trip(provider: provider, id: id).rendered(options)
    }
}
