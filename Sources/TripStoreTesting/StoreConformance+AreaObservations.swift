// What the fleet's legs showed per area (StoreTransaction.addAreaObservation /
// StoreReader.areaObservations): the store's own arithmetic, kept per provider, kind and area.

import Geo
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let areaObservationChecks: [Check] = [
        Check("area observations add up within their memory", areaObservationsAddUp),
        Check("a write reads the sums it has added to", writesReadTheirOwnAdditions),
    ]

    /// Legs add their amounts and weights per kind and area; beyond the memory, the stored sums
    /// are scaled down first (the area follows its newer legs); areas are kept per provider and
    /// kind, never-observed areas are left out, and a write that throws adds nothing.
    static func areaObservationsAddUp(_ make: Factory) async throws {
        struct Refused: Error {}
        let store = try await make()
        let area = AreaObservation.area(of: LatLng(latitude: 37.4005, longitude: -121.9995))
        let other = AreaObservation.area(of: LatLng(latitude: 37.5005, longitude: -121.9995))
        let third = AreaObservation.area(of: LatLng(latitude: 37.4005, longitude: -121.9895))
        let later = Inputs.time.adding(seconds: 60)
        @Sendable func detour(_ driven: Double, _ straight: Double, _ time: Timestamp) -> AreaObservation {
            AreaObservation(kind: .detour, area: area, amount: driven, weight: straight, updated: time)
        }
        try await store.write { tx in
            try tx.addAreaObservation(provider: "p", detour(1_500, 1_000, Inputs.time), memory: 10_000)
            try tx.addAreaObservation(provider: "p", detour(1_300, 1_000, later), memory: 10_000)
            try tx.addAreaObservation(
                provider: "p", AreaObservation(kind: .detour, area: third, amount: 600, weight: 500, updated: later), memory: 10_000)
            try tx.addAreaObservation(provider: "q", detour(3_000, 1_000, Inputs.time), memory: 10_000)
        }
        var observed = try await store.read { reader in
            try reader.areaObservations(provider: "p", areas: [area, other, third])
        }.sorted { $0.area < $1.area }
        #expect(
            observed == [
                AreaObservation(kind: .detour, area: area, amount: 2_800, weight: 2_000, updated: later),
                AreaObservation(kind: .detour, area: third, amount: 600, weight: 500, updated: later),
            ])
        #expect(try await store.read { reader in try reader.areaObservations(provider: "q", areas: [area]) }.map(\.amount) == [3_000])
        #expect(try await store.read { reader in try reader.areaObservations(provider: "p", areas: []) }.isEmpty)

        // 2 km of straight line stored, memory 1 km: the sums are halved (1,400 m over 1,000 m),
        // then the leg added; an older leg does not move the area's time back.
        try await store.write { tx in try tx.addAreaObservation(provider: "p", detour(2_000, 1_000, Inputs.time), memory: 1_000) }
        observed = try await store.read { reader in try reader.areaObservations(provider: "p", areas: [area]) }
        let sums = try #require(observed.first)
        #expect(observed.count == 1 && abs(sums.amount - 3_400) < 1e-9 && abs(sums.weight - 2_000) < 1e-9 && sums.updated == later)

        await #expect(throws: Refused.self) {
            try await store.write { tx in
                try tx.addAreaObservation(
                    provider: "p", AreaObservation(kind: .detour, area: other, amount: 1, weight: 1, updated: later), memory: 10)
                throw Refused()
            }
        }
        #expect(try await store.read { reader in try reader.areaObservations(provider: "p", areas: [other]) }.isEmpty)
    }

    /// Within a write, a read of road-cell paces and area observations includes what the
    /// write added before it, scaled as the stored sums are (a store may make its additions
    /// at the end of the transaction, but what the write reads must not show it).
    static func writesReadTheirOwnAdditions(_ make: Factory) async throws {
        let store = try await make()
        let cell = RoadCell(LatLng(latitude: 37.4, longitude: -122.0), headingDegrees: 90)
        let area = AreaObservation.area(of: LatLng(latitude: 37.4005, longitude: -121.9995))
        let later = Inputs.time.adding(seconds: 60)
        try await store.write { tx in
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 400, seconds: 40, updated: Inputs.time), memoryMeters: 1_000)
            try tx.addAreaObservation(
                provider: "p", AreaObservation(kind: .detour, area: area, amount: 1_500, weight: 1_000, updated: Inputs.time), memory: 1_000)
        }
        let (paces, observations) = try await store.write { tx in
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 800, seconds: 100, updated: later), memoryMeters: 1_000)
            try tx.addRoadCellPace(provider: "p", RoadCellPace(cell: cell, meters: 100, seconds: 10, updated: later), memoryMeters: 1_000)
            try tx.addAreaObservation(
                provider: "p", AreaObservation(kind: .detour, area: area, amount: 1_200, weight: 1_000, updated: later), memory: 1_000)
            try tx.addRoadCellPace(provider: "q", RoadCellPace(cell: cell, meters: 5, seconds: 5, updated: later), memoryMeters: 1_000)
            return (
                try tx.roadCellPaces(provider: "p", cells: [cell]),
                try tx.areaObservations(provider: "p", areas: [area])
            )
        }
        // 400 m + 800 m (nothing scaled: 400 m is within the memory), then 1,200 m scaled to
        // 1,000 m before the last 100 m; the area's 1,000 m of weight is within the memory.
        let pace = try #require(paces.first)
        #expect(paces.count == 1 && abs(pace.meters - 1_100) < 1e-9 && abs(pace.seconds - (140.0 * 1_000 / 1_200 + 10)) < 1e-9)
        #expect(pace.updated == later)
        #expect(observations == [AreaObservation(kind: .detour, area: area, amount: 2_700, weight: 2_000, updated: later)])
        // What the write read is what it stored.
        #expect(try await store.read { try $0.roadCellPaces(provider: "p", cells: [cell]) } == paces)
        #expect(try await store.read { try $0.areaObservations(provider: "p", areas: [area]) } == observations)
    }
}
