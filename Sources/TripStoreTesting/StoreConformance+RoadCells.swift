// The fleet's road-cell paces (StoreTransaction.addRoadCellPace / StoreReader.roadCellPaces):
// the store's own arithmetic, and the paces vehicles leave through Fleet's location updates.

import Fleet
import Geo
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let roadCellChecks: [Check] = [
        Check("road-cell paces add up within their memory", roadCellPacesAddUp),
        Check("simultaneous passes through a road cell all count", simultaneousRoadCellPasses),
        Check("vehicles under way leave road-cell paces", vehiclesLeaveRoadCellPaces),
    ]

    /// Passes through a cell add their metres and seconds; beyond the memory, the stored sums
    /// are scaled down first (the pace follows the newer passes); cells are kept per provider,
    /// never-observed cells are left out, and a write that throws adds nothing.
    static func roadCellPacesAddUp(_ make: Factory) async throws {
        struct Refused: Error {}
        let store = try await make()
        let cell = RoadCell(LatLng(latitude: 37.4, longitude: -122.0), headingDegrees: 90)
        let other = RoadCell(LatLng(latitude: 37.4, longitude: -122.0), headingDegrees: 270)
        let later = Inputs.time.adding(seconds: 60)
        try await store.write { tx in
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 100, seconds: 10, updated: Inputs.time), memoryMeters: 1_000)
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 100, seconds: 20, updated: later), memoryMeters: 1_000)
            try tx.addRoadCellPace(provider: "q", RoadCellPace(cell: cell, meters: 50, seconds: 50, updated: Inputs.time), memoryMeters: 1_000)
        }
        var paces = try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [cell, other]) }
        #expect(paces == [RoadCellPace(cell: cell, meters: 200, seconds: 30, updated: later)])
        #expect(try await store.read { reader in try reader.roadCellPaces(provider: "q", cells: [cell]) }.map(\.seconds) == [50])
        #expect(try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: []) }.isEmpty)

        // 200 m stored, memory 100 m: the sums are halved (100 m, 15 s), then the pass added;
        // an older pass does not move the cell's time back.
        try await store.write { tx in
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 100, seconds: 100, updated: Inputs.time), memoryMeters: 100)
        }
        paces = try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [cell]) }
        let pace = try #require(paces.first)
        #expect(abs(pace.meters - 200) < 1e-9 && abs(pace.seconds - 115) < 1e-9 && pace.updated == later)

        await #expect(throws: Refused.self) {
            try await store.write { tx in
                try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: other, meters: 100, seconds: 10, updated: later), memoryMeters: 1_000)
                throw Refused()
            }
        }
        #expect(try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [other]) }.isEmpty)
    }

    /// Many writes adding to one cell at once (several vehicles on one road): none is lost.
    static func simultaneousRoadCellPasses(_ make: Factory) async throws {
        let store = try await make()
        let cell = RoadCell(LatLng(latitude: 52.5, longitude: 13.4), headingDegrees: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await store.write { tx in
                        try tx.addRoadCellPace(
                            provider: "p", RoadCellPace(cell: cell, meters: 10, seconds: 2, updated: Inputs.time), memoryMeters: 1_000_000)
                    }
                }
            }
            try await group.waitForAll()
        }
        let pace = try #require(try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [cell]) }.first)
        #expect(abs(pace.meters - 400) < 1e-9 && abs(pace.seconds - 80) < 1e-9)
    }

    /// A vehicle driving to its pickup along its route segment leaves the time it took in the
    /// road cells it drove through (once it left each); a vehicle waiting at its pickup leaves
    /// nothing.
    static func vehiclesLeaveRoadCellPaces(_ make: Factory) async throws {
        let store = try await make()
        let fleet = Inputs.fleet(store)
        let start = LatLng(latitude: 37.39, longitude: -122.0)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle(at: start))
        // Due north, 10 m/s, a fix every 5 s: 50 m per fix, for 2 km; the pickup at the end.
        let pickup = LatLng(latitude: 37.39 + 2_000 / 111_195, longitude: -122.0)
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1", pickup: pickup))
        var segment = Vehicle(name: "")
        segment.currentRouteSegment = EncodedPolyline.encode([start, pickup])
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: segment, mask: FieldMask("currentRouteSegment"))
        var cells: [RoadCell] = []
        for step in 1...30 {
            let here = LatLng(latitude: 37.39 + Double(step) * 50 / 111_195, longitude: -122.0)
            var input = Vehicle(name: "")
            input.lastLocation = VehicleLocation(location: here, heading: 0, speed: 10, updateTime: Inputs.time.adding(seconds: Double(step) * 5))
            _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: FieldMask("lastLocation"))
            cells.append(RoadCell(here, headingDegrees: 0))
        }
        let driven = Array(Set(cells))
        let paces = try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: driven) }
        #expect(paces.count >= 10)
        let meters = paces.reduce(0) { $0 + $1.meters }
        let seconds = paces.reduce(0) { $0 + $1.seconds }
        #expect(meters > 1_000 && abs(meters / seconds - 10) < 0.2, "\(meters) m in \(seconds) s")
        #expect(paces.allSatisfy { $0.cell.id & 3 == 0 }) // heading north

        // Waiting at the pickup (within 100 m of it): nothing more is observed.
        let before = try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [RoadCell(pickup, headingDegrees: 0)]) }
        for step in 1...6 {
            var input = Vehicle(name: "")
            input.lastLocation = VehicleLocation(
                location: pickup, heading: 0, speed: 0, updateTime: Inputs.time.adding(seconds: 200 + Double(step) * 5))
            _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: FieldMask("lastLocation"))
        }
        let after = try await store.read { reader in try reader.roadCellPaces(provider: "p", cells: [RoadCell(pickup, headingDegrees: 0)]) }
        #expect(after == before)
    }
}
