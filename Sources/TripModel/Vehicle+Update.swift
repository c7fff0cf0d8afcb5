// The rules for creating and updating vehicles (Fleet Engine's CreateVehicle and
// UpdateVehicle), as pure functions of the current value, the input and the time.

extension Vehicle {
    /// Fields a client may name in an `updateMask`.
    public static let writableFields: Set<String> = [
        "vehicleState", "supportedTripTypes", "lastLocation", "maximumCapacity", "attributes", "vehicleType",
        "backToBackEnabled", "waypoints", "currentRouteSegment", "currentRouteSegmentEndPoint",
        "currentRouteSegmentTraffic", "remainingDistanceMeters", "remainingTimeSeconds", "etaToFirstWaypoint",
        "navigationStatus", "deviceSettings",
    ]
    /// Fields only the server writes.
    public static let outputOnlyFields: Set<String> = ["name", "currentTrips", "waypointsVersion", "currentRouteSegmentVersion"]

    /// A new vehicle from a create request: output-only fields of `input` are ignored;
    /// `vehicleState`, `supportedTripTypes`, `maximumCapacity` and `vehicleType` are required
    /// as in Fleet Engine.
    public static func created(from input: Vehicle, provider: String, id: String, now: Timestamp) throws(StatusError) -> Vehicle {
        try ResourceName.validateID(provider, field: "provider")
        try ResourceName.validateID(id, field: "vehicleId")
        var vehicle = Vehicle(name: ResourceName.vehicle(provider: provider, id: id))
        guard input.vehicleState != nil else { throw .invalid("vehicle.vehicleState", "required field is missing") }
        guard !input.supportedTripTypes.isEmpty else { throw .invalid("vehicle.supportedTripTypes", "required field is missing") }
        guard input.maximumCapacity != nil else { throw .invalid("vehicle.maximumCapacity", "required field is missing") }
        guard input.vehicleType != nil else { throw .invalid("vehicle.vehicleType", "required field is missing") }
        let mask = FieldMask(fields: writableFields.filter { $0 != "waypoints" && ($0 != "lastLocation" || input.lastLocation != nil) }.sorted())
        try vehicle.apply(input, mask: mask, now: now)
        return vehicle
    }

    /// Applies the masked fields of `input`; a masked field absent from `input` is cleared.
    /// Versions move only when their content changes.
    public mutating func apply(_ input: Vehicle, mask: FieldMask, now: Timestamp) throws(StatusError) {
        try mask.validate(writable: Self.writableFields, outputOnly: Self.outputOnlyFields)
        for field in mask.fields {
            let path = "vehicle.\(field)"
            switch field {
            case "vehicleState": vehicleState = input.vehicleState
            case "supportedTripTypes":
                try Check.count(input.supportedTripTypes, path, max: Limits.maximumShortList)
                if input.supportedTripTypes.isEmpty { throw .invalid(path, "must name at least one trip type") }
                supportedTripTypes = Array(Set(input.supportedTripTypes)).sorted { $0.rawValue < $1.rawValue }
            case "lastLocation":
                guard var location = input.lastLocation else { throw .invalid(path, "cannot be cleared") }
                try Check.location(location, path)
                location.serverTime = now
                if location.updateTime == nil { location.updateTime = now }
                lastLocation = location
            case "maximumCapacity":
                try Check.integer(input.maximumCapacity, path, 1...Limits.maximumCapacity)
                maximumCapacity = input.maximumCapacity
            case "attributes":
                try Check.attributes(input.attributes, path)
                attributes = input.attributes
            case "vehicleType": vehicleType = input.vehicleType
            case "backToBackEnabled": backToBackEnabled = input.backToBackEnabled
            case "waypoints":
                try Check.count(input.waypoints, path, max: Limits.maximumVehicleWaypoints)
                for (i, waypoint) in input.waypoints.enumerated() {
                    let here = "\(path)[\(i)]"
                    try Check.waypoint(waypoint, here)
                    if waypoint.tripId == nil { throw .invalid("\(here).tripId", "required field is missing") }
                    if waypoint.waypointType == nil { throw .invalid("\(here).waypointType", "required field is missing") }
                }
                // Only the order of the stops is taken; paths and estimates are ours.
                waypoints = input.waypoints.map(\.stop)
            case "currentRouteSegment":
                let segment = try input.currentRouteSegment.map { text throws(StatusError) in
                    try RouteGeometry.normalized(text, path: path)
                }
                if segment != currentRouteSegment {
                    currentRouteSegment = segment
                    currentRouteSegmentVersion = Versioning.next(after: currentRouteSegmentVersion, now: now)
                }
            case "currentRouteSegmentEndPoint":
                if let endPoint = input.currentRouteSegmentEndPoint { try Check.waypoint(endPoint, path) }
                currentRouteSegmentEndPoint = input.currentRouteSegmentEndPoint?.stop
            case "currentRouteSegmentTraffic":
                try Check.traffic(input.currentRouteSegmentTraffic, path)
                currentRouteSegmentTraffic = input.currentRouteSegmentTraffic
            case "remainingDistanceMeters":
                try Check.integer(input.remainingDistanceMeters, path, 0...100_000_000)
                remainingDistanceMeters = input.remainingDistanceMeters
            case "remainingTimeSeconds":
                try Check.integer(input.remainingTimeSeconds, path, 0...100_000_000)
                remainingTimeSeconds = input.remainingTimeSeconds
            case "etaToFirstWaypoint": etaToFirstWaypoint = input.etaToFirstWaypoint
            case "navigationStatus": navigationStatus = input.navigationStatus
            default: break // deviceSettings: input only, validated when decoded
            }
        }
    }
}
