// The rules for creating and updating vehicles (Fleet Engine's CreateVehicle and
// UpdateVehicle), as pure functions of the current value, the input and the time.

extension Vehicle {
    /// Fields a client may name in an `updateMask`.
    package static let writableFields: Set<String> = [
        "vehicleState", "supportedTripTypes", "lastLocation", "pastLocations", "maximumCapacity", "attributes", "vehicleType",
        "licensePlate", "backToBackEnabled", "waypoints", "route", "currentRouteSegment", "currentRouteSegmentEndPoint",
        "currentRouteSegmentTraffic", "remainingDistanceMeters", "remainingTimeSeconds", "etaToFirstWaypoint",
        "navigationStatus", "deviceSettings",
    ]
    /// The most `pastLocations` one update may bring (a driver's phone offline for a while).
    package static let maximumPastLocations = 500
    /// Fields only the server writes.
    package static let outputOnlyFields: Set<String> = [
        "name", "currentTrips", "waypointsVersion", "currentRouteSegmentVersion", "estimateMethod", "estimateBasis",
    ]

    /// A new vehicle from a create request: output-only fields of `input` are ignored;
    /// `maximumCapacity` and `vehicleType` are required, as in Fleet Engine.
    ///
    /// Fleet Engine's reference also lists `vehicleState` and `supportedTripTypes`, but a proto3
    /// client cannot send their zero values (`UNKNOWN_VEHICLE_STATE`, no trip types): they are
    /// absent on the wire, and Fleet Engine takes them as that default, so we do too.
    package static func created(from input: Vehicle, provider: String, id: String, now: Timestamp) throws(StatusError) -> Vehicle {
        try ResourceName.validateID(provider, field: "provider")
        try ResourceName.validateID(id, field: "vehicleId")
        var vehicle = Vehicle(name: ResourceName.vehicle(provider: provider, id: id))
        guard input.maximumCapacity != nil else { throw .invalid("vehicle.maximumCapacity", "required field is missing") }
        guard input.vehicleType != nil else { throw .invalid("vehicle.vehicleType", "required field is missing") }
        let mask = FieldMask(
            fields: writableFields.filter { $0 != "waypoints" && $0 != "route" && ($0 != "lastLocation" || input.lastLocation != nil) }.sorted())
        try vehicle.apply(input, mask: mask, now: now)
        return vehicle
    }

    /// Applies the masked fields of `input`; a masked field absent from `input` is cleared.
    /// Versions move only when their content changes. `pastLocations` are checked, not kept:
    /// they belong to the location history (Fleet logs them). `route` is the deprecated
    /// name of `waypoints`.
    package mutating func apply(_ input: Vehicle, mask: FieldMask, now: Timestamp) throws(StatusError) {
        try mask.validate(writable: Self.writableFields, outputOnly: Self.outputOnlyFields)
        for named in mask.fields {
            let field = named == "route" ? "waypoints" : named
            let path = "vehicle.\(named)"
            switch field {
            case "vehicleState": vehicleState = input.vehicleState
            case "supportedTripTypes":
                // None is proto3's default (an empty repeated field is absent): the vehicle
                // then matches no trip type, as in Fleet Engine.
                try Check.count(input.supportedTripTypes, path, max: Limits.maximumShortList)
                supportedTripTypes = Array(Set(input.supportedTripTypes)).sorted { $0.rawValue < $1.rawValue }
            case "lastLocation":
                guard var location = input.lastLocation else { throw .invalid(path, "cannot be cleared") }
                try Check.location(location, path)
                location.serverTime = now
                if location.updateTime == nil { location.updateTime = now }
                lastLocation = location
            case "pastLocations":
                try Check.count(input.pastLocations, path, max: Self.maximumPastLocations)
                for (i, location) in input.pastLocations.enumerated() { try Check.location(location, "\(path)[\(i)]") }
            case "licensePlate":
                if let plate = input.licensePlate { try Check.licensePlate(plate, path) }
                licensePlate = input.licensePlate
            case "deviceSettings":
                try Check.finite(
                    input.deviceSettings?.batteryInfo?.batteryPercentage.map(Double.init), "\(path).batteryInfo.batteryPercentage",
                    range: 0...100)
                deviceSettings = input.deviceSettings
            case "maximumCapacity":
                try Check.integer(input.maximumCapacity, path, 1...Limits.maximumCapacity)
                maximumCapacity = input.maximumCapacity
            case "attributes":
                try Check.attributes(input.attributes, path)
                attributes = input.attributes
            case "vehicleType": vehicleType = input.vehicleType
            case "backToBackEnabled": backToBackEnabled = input.backToBackEnabled
            case "waypoints":
                try Check.stopOrder(input.waypoints, path)
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
            default: break
            }
        }
    }
}
