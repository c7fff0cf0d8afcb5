// How Fleet Engine's Cloud Logging exports spell the REST fields: all-lowercase keys in some
// exports, camelCase in others, a few different names (`navStatus`, `locSensor`,
// `supportedTrips`, `state`/`status`), and prefixed enum values (`TRIP_STATUS_NEW`,
// `EXCLUSIVE_TRIP`). The schema maps them to the REST API's spellings.

/// The shape of one kind of object in a log: its fields by lowercased log name.
struct FleetLogSchema: Sendable {
    enum Value: Sendable {
        case scalar
        case enumeration(prefix: String, renames: [String: String])
        case object(Kind)
        case objects(Kind)
        case enumerations(prefix: String, renames: [String: String])
        case raw
    }

    enum Kind: Sendable { case vehicle, trip, location, latLng, vehicleType, terminal, stop, waypoint, traffic, rendering, stretch, attribute }

    struct Field: Sendable {
        var name: String
        var value: Value
    }

    static let tripTypes = ["EXCLUSIVE_TRIP": "EXCLUSIVE", "SHARED_TRIP": "SHARED"]
    static let waypointTypes = [
        "WAYPOINT_TYPE_PICKUP": "PICKUP_WAYPOINT_TYPE", "WAYPOINT_TYPE_DROP_OFF": "DROP_OFF_WAYPOINT_TYPE",
        "WAYPOINT_TYPE_INTERMEDIATE_DESTINATION": "INTERMEDIATE_DESTINATION_WAYPOINT_TYPE",
    ]

    static func fields(_ kind: Kind) -> [String: Field] {
        func f(_ name: String, _ value: Value = .scalar) -> Field { Field(name: name, value: value) }
        var table: [String: Field]
        switch kind {
        case .vehicle:
            table = [
                "name": f("name"), "state": f("vehicleState", .enumeration(prefix: "VEHICLE_STATE_", renames: [:])),
                "vehiclestate": f("vehicleState", .enumeration(prefix: "VEHICLE_STATE_", renames: [:])),
                "supportedtrips": f("supportedTripTypes", .enumerations(prefix: "", renames: tripTypes)),
                "supportedtriptypes": f("supportedTripTypes", .enumerations(prefix: "", renames: tripTypes)),
                "currenttrips": f("currentTrips"), "lastlocation": f("lastLocation", .object(.location)),
                "maximumcapacity": f("maximumCapacity"), "attributes": f("attributes", .objects(.attribute)),
                "vehicletype": f("vehicleType", .object(.vehicleType)), "backtobackenabled": f("backToBackEnabled"),
                "waypoints": f("waypoints", .objects(.waypoint)), "waypointsversion": f("waypointsVersion"),
                "currentroutesegment": f("currentRouteSegment"), "currentroutesegmentversion": f("currentRouteSegmentVersion"),
                "currentroutesegmenttraffic": f("currentRouteSegmentTraffic", .object(.traffic)),
                "currentroutesegmentendpoint": f("currentRouteSegmentEndPoint", .object(.waypoint)),
                "remainingdistancemeters": f("remainingDistanceMeters"), "remainingtimeseconds": f("remainingTimeSeconds"),
                "etatofirstwaypoint": f("etaToFirstWaypoint"),
                "navstatus": f("navigationStatus", .enumeration(prefix: "NAVIGATION_STATUS_", renames: [:])),
                "navigationstatus": f("navigationStatus", .enumeration(prefix: "NAVIGATION_STATUS_", renames: [:])),
                "devicesettings": f("deviceSettings", .raw),
            ]
        case .trip:
            table = [
                "name": f("name"), "vehicleid": f("vehicleId"),
                "status": f("tripStatus", .enumeration(prefix: "TRIP_STATUS_", renames: [:])),
                "tripstatus": f("tripStatus", .enumeration(prefix: "TRIP_STATUS_", renames: [:])),
                "triptype": f("tripType", .enumeration(prefix: "", renames: tripTypes)),
                "numberofpassengers": f("numberOfPassengers"), "pickuppoint": f("pickupPoint", .object(.terminal)),
                "actualpickuppoint": f("actualPickupPoint", .object(.stop)), "pickuptime": f("pickupTime"),
                "intermediatedestinations": f("intermediateDestinations", .objects(.terminal)),
                "intermediatedestinationindex": f("intermediateDestinationIndex"),
                "intermediatedestinationsversion": f("intermediateDestinationsVersion"),
                "dropoffpoint": f("dropoffPoint", .object(.terminal)), "actualdropoffpoint": f("actualDropoffPoint", .object(.stop)),
                "dropofftime": f("dropoffTime"), "remainingwaypoints": f("remainingWaypoints", .objects(.waypoint)),
                "remainingdistancemeters": f("remainingDistanceMeters"), "etatofirstwaypoint": f("etaToFirstWaypoint"),
                "remainingtimetofirstwaypoint": f("remainingTimeToFirstWaypoint"), "attributes": f("attributes", .objects(.attribute)),
                "lastlocation": f("lastLocation", .object(.location)), "currentroutesegment": f("currentRouteSegment"),
            ]
        case .location:
            let sensor = Value.enumeration(prefix: "LOCATION_SENSOR_", renames: [:])
            table = [
                "location": f("location", .object(.latLng)), "latlngaccuracy": f("latlngAccuracy"), "heading": f("heading"),
                "headingaccuracy": f("headingAccuracy"), "bearingaccuracy": f("bearingAccuracy"), "altitude": f("altitude"),
                "altitudeaccuracy": f("altitudeAccuracy"), "verticalaccuracy": f("verticalAccuracy"), "speed": f("speed"),
                "speedaccuracy": f("speedAccuracy"), "updatetime": f("updateTime"), "servertime": f("serverTime"),
                "locsensor": f("locationSensor", sensor), "locationsensor": f("locationSensor", sensor),
                "isroadsnapped": f("isRoadSnapped"), "isgpssensorenabled": f("isGpsSensorEnabled"),
                "rawlocation": f("rawLocation", .object(.latLng)), "rawlocationtime": f("rawLocationTime"),
                "rawlocationsensor": f("rawLocationSensor", sensor), "rawlocationaccuracy": f("rawLocationAccuracy"),
                "supplementallocationaccuracy": f("supplementalLocationAccuracy"),
            ]
        case .latLng: table = ["latitude": f("latitude"), "longitude": f("longitude")]
        case .vehicleType: table = ["vehiclecategory": f("category"), "category": f("category")]
        case .terminal: table = ["point": f("point", .object(.latLng))]
        case .stop: table = ["point": f("point", .object(.latLng)), "timestamp": f("timestamp"), "stoptime": f("stopTime")]
        case .waypoint:
            let type = Value.enumeration(prefix: "", renames: waypointTypes)
            table = [
                "location": f("location", .object(.terminal)), "tripid": f("tripId"), "type": f("waypointType", type),
                "waypointtype": f("waypointType", type), "encodedpathtowaypoint": f("encodedPathToWaypoint"),
                "distancemeters": f("distanceMeters"), "eta": f("eta"), "duration": f("duration"),
            ]
        case .traffic: table = ["trafficrendering": f("trafficRendering", .object(.rendering))]
        case .rendering: table = ["roadstretch": f("roadStretch", .objects(.stretch))]
        case .stretch:
            table = [
                "style": f("style", .enumeration(prefix: "STYLE_", renames: [:])), "offsetmeters": f("offsetMeters"),
                "lengthmeters": f("lengthMeters"),
            ]
        case .attribute:
            table = [
                "key": f("key"), "value": f("stringValue"), "stringvalue": f("stringValue"), "boolvalue": f("boolValue"),
                "numbervalue": f("numberValue"),
            ]
        }
        return table
    }
}
