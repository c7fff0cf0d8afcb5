// ListVehicles and SearchVehicles on a random fleet of 2,000 vehicles (issue 31): every
// request field narrows the answer, and the store answers exactly what a brute force over
// the fleet, written here from the fields' documented meaning, finds, in the same order.

import Fleet
import Geo
import TestKit
import Testing
import TripModel
import TripModelTesting
import TripStore

extension StoreConformance {
    static let vehicleQueryChecks: [Check] = [
        Check("listing with every filter matches a brute force", listingMatchesBruteForce),
        Check("search with every filter matches a brute force", searchMatchesBruteForce),
    ]

    /// Each ListVehicles field alone and several together, paged 100 at a time: the same
    /// vehicles in the same order, the same totalSize, as the brute force.
    static func listingMatchesBruteForce(_ make: Factory) async throws {
        let (fleet, clock) = try await RandomFleet.fleet(on: try await make())
        let vehicles = try await RandomFleet.everyVehicle(fleet)
        let now = clock.wallClock.now
        let base = VehicleListQuery(vehicleTypeCategories: VehicleCategory.allCases)
        var cases: [(String, VehicleListQuery, (Vehicle) -> Bool)] = []
        func add(_ name: String, _ change: (inout VehicleListQuery) -> Void, matching oracle: @escaping (Vehicle) -> Bool) {
            var query = base
            change(&query)
            cases.append((name, query, oracle))
        }
        add("vehicleTypeCategories", { $0.vehicleTypeCategories = [.auto, .taxi] }, matching: { [.auto, .taxi].contains($0.vehicleType?.category) })
        add("minimumCapacity", { $0.minimumCapacity = 5 }, matching: { ($0.maximumCapacity ?? 0) >= 5 })
        add("tripTypes", { $0.tripTypes = [.shared] }, matching: { $0.supportedTripTypes.contains(.shared) })
        add(
            "maximumStaleness", { $0.maximumStaleness = ProtoDuration(seconds: 300) },
            matching: {
                guard let time = $0.lastLocation?.serverTime else { return false }
                return now.seconds(since: time) <= 300
            })
        add("vehicleState", { $0.vehicleState = .offline }, matching: { $0.vehicleState == .offline })
        add("onTripOnly", { $0.onTripOnly = true }, matching: { !$0.currentTrips.isEmpty })
        let box = Viewport(low: LatLng(latitude: 37.35, longitude: -122.15), high: LatLng(latitude: 37.42, longitude: -122.0))
        add("viewport", { $0.viewport = box }, matching: { RandomFleet.inBox($0, box) })
        // Across the 180th meridian: everything east of -121.98 and west of -122.12.
        let wrapped = Viewport(low: LatLng(latitude: 37.0, longitude: -121.98), high: LatLng(latitude: 38.0, longitude: -122.12))
        add(
            "viewport across the antimeridian", { $0.viewport = wrapped },
            matching: {
                guard let p = $0.lastLocation?.location else { return false }
                return p.longitude >= -121.98 || p.longitude <= -122.12
            })
        add(
            "requiredAttributes", { $0.requiredAttributes = ["color:black", "tier:gold"] },
            matching: {
                RandomFleet.text($0, "color") == "black" && RandomFleet.text($0, "tier") == "gold"
            })
        add(
            "requiredOneOfAttributes", { $0.requiredOneOfAttributes = ["color:black|color:red", "tier:gold|seats:6"] },
            matching: {
                ["black", "red"].contains(RandomFleet.text($0, "color"))
                    && (RandomFleet.text($0, "tier") == "gold" || RandomFleet.text($0, "seats") == "6")
            })
        add(
            "requiredOneOfAttributeSets", { $0.requiredOneOfAttributeSets = ["color:black|pet:true", "tier:silver|seats:5"] },
            matching: {
                (RandomFleet.text($0, "color") == "black" && RandomFleet.text($0, "pet") == "true")
                    || (RandomFleet.text($0, "tier") == "silver" && RandomFleet.text($0, "seats") == "5")
            })
        add(
            "filter", { $0.filter = #"attributes.color = "black" AND (attributes.tier = "gold" OR attributes.seats = "6")"# },
            matching: {
                RandomFleet.text($0, "color") == "black" && (RandomFleet.text($0, "tier") == "gold" || RandomFleet.text($0, "seats") == "6")
            })
        add(
            "filter: OR binds tighter than AND", { $0.filter = #"attributes.color = "white" attributes.pet = "true" OR attributes.tier = "bronze""# },
            matching: {
                RandomFleet.text($0, "color") == "white" && (RandomFleet.text($0, "pet") == "true" || RandomFleet.text($0, "tier") == "bronze")
            })
        add(
            "filter on awkward keys and values", { $0.filter = #"attributes.`a=b` = "c%d" OR attributes.odd = "x\#u{1F}y""# },
            matching: {
                RandomFleet.text($0, "a=b") == "c%d" || RandomFleet.text($0, "odd") == "x\u{1F}y"
            })
        add(
            "everything at once",
            {
                $0.vehicleTypeCategories = [.auto, .taxi, .truck]
                $0.minimumCapacity = 3
                $0.tripTypes = [.exclusive]
                $0.maximumStaleness = ProtoDuration(seconds: 900)
                $0.vehicleState = .online
                $0.viewport = box
                $0.filter = #"attributes.tier = "gold" OR attributes.tier = "silver""#
            },
            matching: {
                [.auto, .taxi, .truck].contains($0.vehicleType?.category) && ($0.maximumCapacity ?? 0) >= 3
                    && $0.supportedTripTypes.contains(.exclusive) && $0.vehicleState == .online && RandomFleet.inBox($0, box)
                    && $0.lastLocation?.serverTime.map { now.seconds(since: $0) <= 900 } == true
                    && ["gold", "silver"].contains(RandomFleet.text($0, "tier"))
            })

        for (name, query, oracle) in cases {
            let expected = vehicles.filter(oracle).map(\.name)
            #expect(!expected.isEmpty && expected.count < vehicles.count, "\(name) narrows the fleet: \(expected.count) of \(vehicles.count)")
            var seen: [String] = []
            var request = query
            request.pageSize = 100
            repeat {
                let page = try await fleet.listVehicles(provider: "p", query: request)
                #expect(page.totalSize == expected.count, "\(name): totalSize")
                seen += page.items.map(\.name)
                request.pageToken = page.nextPageToken
            } while request.pageToken != nil && seen.count <= vehicles.count
            #expect(seen == expected, "\(name): \(seen.count) listed, \(expected.count) expected")
        }
    }

    /// SearchVehicles with each filter (the pickup's radius, staleness, type, capacity,
    /// attributes in both forms): the same matches in the same order as the brute force.
    static func searchMatchesBruteForce(_ make: Factory) async throws {
        let (fleet, clock) = try await RandomFleet.fleet(on: try await make())
        let vehicles = try await RandomFleet.everyVehicle(fleet)
        let now = clock.wallClock.now
        let pickup = LatLng(latitude: 37.40, longitude: -122.05)
        var base = VehicleSearchQuery(
            pickupPoint: TerminalLocation(point: pickup), pickupRadiusMeters: 10_000, count: 50, minimumCapacity: 1,
            tripTypes: [.exclusive], orderBy: .pickupPointStraightDistance)
        base.maximumStaleness = ProtoDuration(seconds: 3_600)
        let eligible: (Vehicle) -> Bool = { vehicle in
            guard vehicle.vehicleState == .online, vehicle.currentTrips.isEmpty, let p = vehicle.lastLocation?.location,
                let time = vehicle.lastLocation?.serverTime
            else { return false }
            return Earth.distance(p, pickup) <= 10_000 && now.seconds(since: time) <= 3_600
        }
        var cases: [(String, VehicleSearchQuery, (Vehicle) -> Bool)] = []
        func add(_ name: String, _ change: (inout VehicleSearchQuery) -> Void, matching oracle: @escaping (Vehicle) -> Bool) {
            var query = base
            change(&query)
            cases.append((name, query, oracle))
        }
        add("radius", { $0.pickupRadiusMeters = 4_000 }, matching: { eligible($0) && Earth.distance($0.lastLocation!.location!, pickup) <= 4_000 })
        add(
            "default staleness", { $0.maximumStaleness = nil },
            matching: {
                eligible($0) && $0.lastLocation!.serverTime.map { now.seconds(since: $0) <= 300 } == true
            })
        add("vehicleTypes", { $0.vehicleTypes = [VehicleType(category: .taxi)] }, matching: { eligible($0) && $0.vehicleType?.category == .taxi })
        add("minimumCapacity", { $0.minimumCapacity = 6 }, matching: { eligible($0) && ($0.maximumCapacity ?? 0) >= 6 })
        add(
            "tripTypes",
            {
                $0.tripTypes = [.shared]
                $0.dropoffPoint = TerminalLocation(point: pickup)
                $0.currentTripsPresent = .none
            },
            matching: {
                eligible($0) && $0.supportedTripTypes.contains(.shared)
            })
        add(
            "requiredAttributes", { $0.requiredAttributes = [Attribute(key: "color", stringValue: "black")] },
            matching: {
                eligible($0) && $0.supportedTripTypes.contains(.exclusive) && RandomFleet.text($0, "color") == "black"
            })
        add(
            "requiredOneOfAttributes and sets",
            {
                var six = Attribute(key: "seats", stringValue: "")
                six.stringValue = nil
                six.numberValue = 6
                var pet = Attribute(key: "pet", stringValue: "")
                pet.stringValue = nil
                pet.boolValue = true
                $0.requiredOneOfAttributes = [.init(attributes: [Attribute(key: "tier", stringValue: "gold"), six])]
                $0.requiredOneOfAttributeSets = [
                    .init(attributes: [Attribute(key: "color", stringValue: "white"), pet]),
                    .init(attributes: [Attribute(key: "color", stringValue: "red")]),
                ]
            },
            matching: {
                eligible($0) && $0.supportedTripTypes.contains(.exclusive)
                    && (RandomFleet.text($0, "tier") == "gold" || RandomFleet.text($0, "seats") == "6")
                    && ((RandomFleet.text($0, "color") == "white" && RandomFleet.text($0, "pet") == "true") || RandomFleet.text($0, "color") == "red")
            })
        add(
            "filter", { $0.filter = #"(attributes.color = "black" OR attributes.color = "blue") AND attributes.pet = "false""# },
            matching: {
                eligible($0) && $0.supportedTripTypes.contains(.exclusive) && ["black", "blue"].contains(RandomFleet.text($0, "color"))
                    && RandomFleet.text($0, "pet") == "false"
            })
        add(
            "filter, ordered by ETA",
            {
                $0.filter = #"attributes.tier = "bronze""#
                $0.orderBy = .pickupPointETA
            },
            matching: {
                eligible($0) && $0.supportedTripTypes.contains(.exclusive) && RandomFleet.text($0, "tier") == "bronze"
            })

        for (name, query, oracle) in cases {
            let all = vehicles.filter { v in
                oracle(v) && v.supportedTripTypes.contains(query.tripTypes[0])
                    && query.vehicleTypes.contains { $0.category == v.vehicleType?.category }
                    && (v.maximumCapacity ?? 0) >= query.minimumCapacity
            }
            #expect(all.count > query.count / 2 && all.count < vehicles.count, "\(name) narrows the fleet: \(all.count)")
            // Straight-line distance, or the ETA it gives without trips; ties by name.
            func key(_ v: Vehicle) -> Double {
                let meters = Double(Int(Earth.distance(v.lastLocation!.location!, pickup).rounded()))
                guard query.orderBy == .pickupPointETA else { return meters }
                let seconds =
                    Earth.distance(v.lastLocation!.location!, pickup) * Estimation.detourFactor
                    / Estimation.freeFlowSpeed(v.vehicleType?.category)
                return now.adding(seconds: seconds).secondsSince1970
            }
            let expected = all.sorted { key($0) != key($1) ? key($0) < key($1) : $0.name < $1.name }.prefix(query.count).map(\.name)
            let matches = try await fleet.searchVehicles(provider: "p", query: query)
            #expect(matches.map(\.vehicle.name) == Array(expected), "\(name)")
            #expect(matches.allSatisfy { $0.vehicleMatchType == .exclusive && $0.requestedOrderedBy == query.orderBy })
        }
    }
}

/// A fleet of 2,000 vehicles drawn from a fixed seed: states, categories, capacities, trip
/// types, positions over 25 km, location times over 20 minutes, attributes of every kind
/// (strings, numbers, booleans, keys and values with `=`, `%` and control characters), and
/// 150 of them with a trip.
enum RandomFleet {
    static let size = 2_000

    static func fleet(on store: any TripStore) async throws -> (Fleet, ManualClock) {
        let clock = ManualClock(Inputs.time)
        let fleet = Fleet(store: store, clock: clock.wallClock)
        var random = SplitMix64(seed: 31)
        var ids = (0..<size).map { "v\($0)" }
        ids.shuffle(using: &random)
        for id in ids {
            clock.advance(by: 0.6)
            _ = try await fleet.createVehicle(provider: "p", id: id, input: vehicle(&random))
        }
        for k in 0..<150 {
            var trip = Inputs.trip(vehicle: ids[(k * 13) % size])
            trip.tripType = .exclusive
            _ = try await fleet.createTrip(provider: "p", id: "t\(k)", input: trip)
        }
        _ = try await fleet.createVehicle(provider: "elsewhere", id: ids[0], input: vehicle(&random))
        return (fleet, clock)
    }

    /// Every vehicle of provider "p", by ID.
    static func everyVehicle(_ fleet: Fleet) async throws -> [Vehicle] {
        var vehicles: [Vehicle] = []
        var token: String?
        repeat {
            let page = try await fleet.listVehicles(provider: "p", page: try PageRequest(pageSize: 1_000, pageToken: token))
            vehicles += page.items
            token = page.nextPageToken
        } while token != nil
        return vehicles
    }

    private static func vehicle(_ random: inout SplitMix64) -> Vehicle {
        var input = Vehicle(name: "")
        input.vehicleState = Double.random(in: 0..<1, using: &random) < 0.8 ? .online : .offline
        input.vehicleType = VehicleType(category: [.auto, .taxi, .truck, .twoWheeler].randomElement(using: &random)!)
        input.maximumCapacity = Int.random(in: 1...7, using: &random)
        input.supportedTripTypes = [[.exclusive], [.shared], [.exclusive, .shared]].randomElement(using: &random)!
        if Double.random(in: 0..<1, using: &random) < 0.95 {
            input.lastLocation = VehicleLocation(
                location: LatLng(
                    latitude: Double.random(in: 37.3...37.5, using: &random), longitude: Double.random(in: -122.2 ... -121.9, using: &random)))
        }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
        if chance(0.9) {
            input.attributes.append(Attribute(key: "color", stringValue: ["black", "white", "red", "blue"].randomElement(using: &random)!))
        }
        if chance(0.7) { input.attributes.append(Attribute(key: "tier", stringValue: ["gold", "silver", "bronze"].randomElement(using: &random)!)) }
        if chance(0.5) {
            var seats = Attribute(key: "seats", stringValue: "")
            seats.stringValue = nil
            seats.numberValue = Double(Int.random(in: 4...7, using: &random))
            input.attributes.append(seats)
        }
        if chance(0.4) {
            var pet = Attribute(key: "pet", stringValue: "")
            pet.stringValue = nil
            pet.boolValue = chance(0.5)
            input.attributes.append(pet)
        }
        if chance(0.05) { input.attributes.append(Attribute(key: "a=b", stringValue: "c%d")) }
        if chance(0.03) { input.attributes.append(Attribute(key: "odd", stringValue: "x\u{1F}y")) }
        // Near misses of the awkward ones: a substring search that ignored escaping would match them.
        if chance(0.05) { input.attributes.append(Attribute(key: "a", stringValue: "b=c%d")) }
        return input
    }

    /// An attribute's text as the oracle reads Fleet Engine's rule: strings as they are,
    /// booleans as true/false, these whole numbers without a fraction.
    static func text(_ vehicle: Vehicle, _ key: String) -> String? {
        guard let attribute = vehicle.attributes.first(where: { $0.key == key }) else { return nil }
        if let string = attribute.stringValue { return string }
        if let bool = attribute.boolValue { return bool ? "true" : "false" }
        return attribute.numberValue.map { String(Int($0)) }
    }

    static func inBox(_ vehicle: Vehicle, _ box: Viewport) -> Bool {
        guard let p = vehicle.lastLocation?.location else { return false }
        return p.latitude >= box.low.latitude && p.latitude <= box.high.latitude && p.longitude >= box.low.longitude
            && p.longitude <= box.high.longitude
    }
}
