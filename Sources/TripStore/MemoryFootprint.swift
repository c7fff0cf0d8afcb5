// What a cached value holds in memory, estimated, so that caches are bounded by bytes
// (``Caching/CacheBudget``) rather than by a count. The estimate is the value's inline size
// plus what its strings and arrays hold on the heap, plus a word-sized allocation header per
// heap block; it reads only counts (O(1) for native strings and arrays) and the few arrays
// that grow with a route or a trip's stops, so it costs next to nothing beside a decode.
// Strings shared between values (a composed trip holds its vehicle's route string) are
// counted by each: the caches' figures err on the side of using less memory than allowed.

import TripModel

/// A value whose memory a byte-bounded cache can account for.
package protocol MemoryFootprint {
    /// About how many bytes the value holds, inline and on the heap.
    var approximateBytes: Int { get }
}

/// The allocation header and rounding a heap block costs beside its contents.
private let blockOverhead = 48

extension String {
    /// The heap bytes of a string: none when it fits inline (15 bytes of UTF-8 or fewer).
    fileprivate var heapBytes: Int {
        let count = utf8.count
        return count <= 15 ? 0 : count + blockOverhead
    }
}

extension Optional where Wrapped == String {
    fileprivate var heapBytes: Int { self?.heapBytes ?? 0 }
}

/// The heap bytes of an array's storage of `count` elements of `Element`.
private func arrayBytes<Element>(_ array: [Element]) -> Int {
    array.isEmpty ? 0 : array.count * MemoryLayout<Element>.stride + blockOverhead
}

extension TripWaypoint {
    /// The heap bytes of a waypoint, beside its inline size (counted by its array).
    fileprivate var heapBytes: Int {
        tripId.heapBytes + encodedPathToWaypoint.heapBytes + arrayBytes(pathToWaypoint)
            + (trafficToWaypoint.map { arrayBytes($0.speedReadingInterval) + $0.encodedPathToWaypoint.heapBytes } ?? 0)
    }
}

extension [TripWaypoint] {
    fileprivate var heapBytes: Int { arrayBytes(self) + reduce(0) { $0 + $1.heapBytes } }
}

extension Vehicle: MemoryFootprint {
    package var approximateBytes: Int {
        MemoryLayout<Vehicle>.stride + name.heapBytes + arrayBytes(supportedTripTypes)
            + arrayBytes(currentTrips) + currentTrips.reduce(0) { $0 + $1.heapBytes }
            + arrayBytes(pastLocations) + arrayBytes(attributes)
            + attributes.reduce(0) { $0 + $1.key.heapBytes + $1.stringValue.heapBytes }
            + waypoints.heapBytes + currentRouteSegment.heapBytes
            + (currentRouteSegmentTraffic.map { arrayBytes($0.trafficRendering.roadStretch) } ?? 0)
            + (currentRouteSegmentEndPoint?.heapBytes ?? 0)
    }
}

extension Trip: MemoryFootprint {
    package var approximateBytes: Int {
        MemoryLayout<Trip>.stride + name.heapBytes + vehicleId.heapBytes
            + arrayBytes(intermediateDestinations) + arrayBytes(actualIntermediateDestinationArrivalPoints)
            + arrayBytes(actualIntermediateDestinations) + remainingWaypoints.heapBytes + vehicleWaypoints.heapBytes
            + arrayBytes(route) + currentRouteSegment.heapBytes
            + (currentRouteSegmentTraffic.map { arrayBytes($0.speedReadingInterval) + $0.encodedPathToWaypoint.heapBytes } ?? 0)
            + (currentRouteSegmentEndPoint?.heapBytes ?? 0)
            + arrayBytes(attributes) + attributes.reduce(0) { $0 + $1.key.heapBytes + $1.stringValue.heapBytes }
    }
}

extension RouteTracking {
    /// The estimator's state: its arrays grow with the route's turns and observed stretches.
    fileprivate var heapBytes: Int {
        guard let profile else { return 0 }
        return blockOverhead + arrayBytes(profile.turns) + arrayBytes(profile.observed)
            + (profile.roads.map { arrayBytes($0.stretches) } ?? 0)
    }
}

extension VehicleRecord: MemoryFootprint {
    package var approximateBytes: Int {
        // The record's inline size beside its vehicle's: the tracking, the navigator, the route.
        vehicle.approximateBytes + MemoryLayout<VehicleRecord>.stride - MemoryLayout<Vehicle>.stride + tracking.heapBytes
            + (navigator.state.map { $0.count + blockOverhead } ?? 0)
            + (route.map { route in
                arrayBytes(route.line.checkpoints) + arrayBytes(route.line.checkpointMeters) + route.pathBytes
                    + (route.kept == nil ? 0 : route.line.keptStretchBytes)
            } ?? 0)
    }
}

extension TripRow: MemoryFootprint {
    package var approximateBytes: Int { trip.approximateBytes + 1 }
}

extension Revisioned: MemoryFootprint where Value: MemoryFootprint {
    package var approximateBytes: Int { value.approximateBytes + MemoryLayout<Revision>.stride }
}
