// A rider's read of a trip whose live fields come from its vehicle decodes the vehicle's row
// for those fields only: at 50,000 trips most riders' reads miss the caches and decode the
// row, and the members a trip never takes (the vehicle's type, capacity, trips, estimates'
// method, device, ...) were a fifth of decoding it (issue 30).

extension Vehicle {
    /// A vehicle decoded with only the members a trip takes from it (``Trip/withProgress(of:)``,
    /// and ``JourneyState/restoreFirstPath(of:tracking:route:)`` for its first leg's path);
    /// every other member is left unset. For reads that compose a trip and keep nothing else.
    package struct TripProgressSource: Decodable {
        package var vehicle: Vehicle

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            vehicle = Vehicle(name: try c.decodeIfSet(String.self, forKey: .name) ?? "")
            vehicle.lastLocation = try c.decodeIfSet(VehicleLocation.self, forKey: .lastLocation)
            vehicle.waypoints = try c.decodeArray(TripWaypoint.self, forKey: .waypoints)
            vehicle.currentRouteSegment = try c.decodeIfSet(String.self, forKey: .currentRouteSegment)
            vehicle.currentRouteSegmentVersion = try c.decodeIfSet(Timestamp.self, forKey: .currentRouteSegmentVersion)
            vehicle.currentRouteSegmentTraffic = try c.decodeIfSet(TrafficPolylineData.self, forKey: .currentRouteSegmentTraffic)
            vehicle.remainingDistanceMeters = try c.decodeIfSet(Int.self, forKey: .remainingDistanceMeters)
        }
    }
}
