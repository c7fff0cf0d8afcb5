// Every field of Fleet Engine's v1 request messages (googleapis' maps/fleetengine/v1
// vehicle_api.proto and trip_api.proto, with the resources and messages they carry), written
// out once: one request that sends the field and what reading the resource back must show.
// FleetEngineFieldCoverageTests holds it to Protos/: every field of every message a vehicle or
// a trip holds is sent by some row (a field added to the protos fails there, named), and no
// row sends a field the protos lack. ListVehicles and SearchVehicles are not here: their fields are the search engineer's table
// (VehicleSearch tests). FleetEngineConformanceTests runs each row on every store. The
// request-level fields are sent by tests of their own: every method's `header`
// (FleetEngineConformanceTests.headerOnEveryMethod), GetVehicle's and GetTrip's versions, view
// and routeFormatType, UpdateVehicleAttributes, ReportBillableTrip and SearchTrips
// (FleetEngineMethodsTests); names, parents and IDs by every row here.

/// One field of a request message and the request that exercises it.
struct FieldCase: Sendable, CustomStringConvertible {
    /// The field's path in the request message: `UpdateVehicleRequest.vehicle.lastLocation.heading`.
    var field: String
    var action: Action

    var description: String { field }

    enum Action: Sendable {
        /// Sends `body` as a vehicle update with `mask` (or, with no mask, as the body of a
        /// create), then reads the vehicle and expects `expected` (a JSON subset, `body` when
        /// nil, where "<present>" and "<absent>" stand for any value and none) in it. `withTrip` first assigns a trip to the vehicle (`{trip}` in bodies
        /// is its ID).
        case vehicle(mask: String?, body: String, expected: String? = nil, withTrip: Bool = false)
        /// The same for a trip (created assigned to a vehicle with a location).
        case trip(mask: String?, body: String, expected: String? = nil)
    }
}

extension FieldCase {
    static func v(_ field: String, mask: String? = nil, _ body: String, expect: String? = nil, withTrip: Bool = false) -> FieldCase {
        FieldCase(field: field, action: .vehicle(mask: mask, body: body, expected: expect, withTrip: withTrip))
    }

    static func t(_ field: String, mask: String? = nil, _ body: String, expect: String? = nil) -> FieldCase {
        FieldCase(field: field, action: .trip(mask: mask, body: body, expected: expect))
    }

    /// A location update carrying one more field of `VehicleLocation`.
    static func location(_ name: String, _ value: String, expect: String? = nil) -> FieldCase {
        let body = #"{"lastLocation": {"location": {"latitude": 37.39, "longitude": -122.0}, "\#(name)": \#(value)}}"#
        return v(
            "UpdateVehicleRequest.vehicle.lastLocation.\(name)", mask: "lastLocation", body,
            expect: expect.map { #"{"lastLocation": \#($0)}"# })
    }

    static let all: [FieldCase] = vehicleFields + locationFields + tripFields

    static let vehicleFields: [FieldCase] = [
        v("CreateVehicleRequest.vehicle.name", #"{"name": "providers/other/vehicles/x"}"#, expect: #"{"name": "providers/p/vehicles/{id}"}"#),
        v("UpdateVehicleRequest.vehicle.vehicleState", mask: "vehicleState", #"{"vehicleState": "OFFLINE"}"#),
        v("UpdateVehicleRequest.vehicle.supportedTripTypes", mask: "supportedTripTypes", #"{"supportedTripTypes": ["EXCLUSIVE", "SHARED"]}"#),
        v("CreateVehicleRequest.vehicle.currentTrips", #"{"currentTrips": ["elsewhere"]}"#, expect: #"{"currentTrips": "<absent>"}"#),
        v("UpdateVehicleRequest.vehicle.lastLocation", mask: "lastLocation", #"{"lastLocation": {"location": {"latitude": 1.5, "longitude": 2.5}}}"#),
        v(
            "UpdateVehicleRequest.vehicle.pastLocations", mask: "pastLocations",
            #"{"pastLocations": [{"location": {"latitude": 1.25, "longitude": 2.25}, "updateTime": "2025-02-05T17:00:00Z"}]}"#,
            expect: #"{"pastLocations": "<absent>"}"#),
        v("UpdateVehicleRequest.vehicle.maximumCapacity", mask: "maximumCapacity", #"{"maximumCapacity": 7}"#),
        v(
            "UpdateVehicleRequest.vehicle.attributes", mask: "attributes",
            #"{"attributes": [{"key": "a", "stringValue": "x"}, {"key": "b", "boolValue": true}, {"key": "c", "numberValue": 2.5}]}"#),
        v(
            "UpdateVehicleRequest.vehicle.attributes.value", mask: "attributes", #"{"attributes": [{"key": "a", "value": "old"}]}"#,
            expect: #"{"attributes": [{"key": "a", "stringValue": "old"}]}"#),
        v("UpdateVehicleRequest.vehicle.vehicleType", mask: "vehicleType", #"{"vehicleType": {"category": "TRUCK"}}"#),
        v("UpdateVehicleRequest.vehicle.licensePlate", mask: "licensePlate", #"{"licensePlate": {"countryCode": "DE", "lastCharacter": "7"}}"#),
        v(
            "UpdateVehicleRequest.vehicle.route", mask: "route",
            #"{"route": [{"point": {"latitude": 37.40, "longitude": -122.0}, "tripId": "{trip}", "terminalLocationType": "PICKUP_WAYPOINT_TYPE"}, {"point": {"latitude": 37.42, "longitude": -122.01}, "tripId": "{trip}", "terminalLocationType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            expect:
                #"{"waypoints": [{"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{trip}", "waypointType": "PICKUP_WAYPOINT_TYPE"}, {"location": {"point": {"latitude": 37.42, "longitude": -122.01}}, "tripId": "{trip}", "waypointType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            withTrip: true),
        v(
            "UpdateVehicleRequest.vehicle.currentRouteSegment", mask: "currentRouteSegment",
            #"{"currentRouteSegment": "_p~iF~ps|U_ulLnnqC_mqNvxq`@"}"#),
        v(
            "UpdateVehicleRequest.vehicle.currentRouteSegmentTraffic", mask: "currentRouteSegmentTraffic",
            #"{"currentRouteSegmentTraffic": {"trafficRendering": {"roadStretch": [{"style": "SLOWER_TRAFFIC", "offsetMeters": 10, "lengthMeters": 100}]}}}"#
        ),
        v(
            "CreateVehicleRequest.vehicle.currentRouteSegmentVersion", #"{"currentRouteSegmentVersion": "2020-01-01T00:00:00Z"}"#,
            expect: "{}"),
        v(
            "UpdateVehicleRequest.vehicle.currentRouteSegmentEndPoint", mask: "currentRouteSegmentEndPoint",
            #"{"currentRouteSegmentEndPoint": {"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{trip}", "waypointType": "PICKUP_WAYPOINT_TYPE"}}"#,
            withTrip: true),
        v("UpdateVehicleRequest.vehicle.remainingDistanceMeters", mask: "remainingDistanceMeters", #"{"remainingDistanceMeters": 1234}"#),
        v(
            "UpdateVehicleRequest.vehicle.etaToFirstWaypoint", mask: "etaToFirstWaypoint", #"{"etaToFirstWaypoint": "2025-02-05T17:10:00Z"}"#,
            expect: #"{"etaToFirstWaypoint": "<present>"}"#, withTrip: true),
        v("UpdateVehicleRequest.vehicle.remainingTimeSeconds", mask: "remainingTimeSeconds", #"{"remainingTimeSeconds": 321}"#),
        v(
            "UpdateVehicleRequest.vehicle.waypoints", mask: "waypoints",
            #"{"waypoints": [{"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{trip}", "waypointType": "PICKUP_WAYPOINT_TYPE"}, {"location": {"point": {"latitude": 37.42, "longitude": -122.01}}, "tripId": "{trip}", "waypointType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            withTrip: true),
        v(
            "UpdateVehicleRequest.vehicle.waypoints.pathToWaypoint", mask: "waypoints",
            #"{"waypoints": [{"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{trip}", "waypointType": "PICKUP_WAYPOINT_TYPE", "pathToWaypoint": [{"latitude": 38.5, "longitude": -120.2}, {"latitude": 40.7, "longitude": -120.95}], "encodedPathToWaypoint": "_p~iF~ps|U_ulLnnqC", "trafficToWaypoint": {"speedReadingInterval": [{"startPolylinePointIndex": 0, "endPolylinePointIndex": 1, "speed": "NORMAL"}], "encodedPathToWaypoint": "_p~iF~ps|U"}, "distanceMeters": 1200, "eta": "2025-02-05T17:10:00Z", "duration": "60s"}, {"location": {"point": {"latitude": 37.42, "longitude": -122.01}}, "tripId": "{trip}", "waypointType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            expect:
                #"{"waypoints": [{"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{trip}", "waypointType": "PICKUP_WAYPOINT_TYPE"}, {"location": {"point": {"latitude": 37.42, "longitude": -122.01}}, "tripId": "{trip}", "waypointType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            withTrip: true),
        v("CreateVehicleRequest.vehicle.waypointsVersion", #"{"waypointsVersion": "2020-01-01T00:00:00Z"}"#, expect: "{}"),
        v("UpdateVehicleRequest.vehicle.backToBackEnabled", mask: "backToBackEnabled", #"{"backToBackEnabled": true}"#),
        v("UpdateVehicleRequest.vehicle.navigationStatus", mask: "navigationStatus", #"{"navigationStatus": "ENROUTE_TO_DESTINATION"}"#),
        v(
            "UpdateVehicleRequest.vehicle.deviceSettings", mask: "deviceSettings",
            #"{"deviceSettings": {"locationPowerSaveMode": "LOCATION_MODE_FOREGROUND_ONLY", "isPowerSaveMode": true, "isInteractive": true, "batteryInfo": {"batteryStatus": "BATTERY_STATUS_CHARGING", "powerSource": "POWER_SOURCE_USB", "batteryPercentage": 42.5}}}"#
        ),
    ]

    static let locationFields: [FieldCase] = [
        location("latlngAccuracy", "3.5"), location("heading", "271"), location("headingAccuracy", "4.5"),
        location("altitude", "12.25"), location("altitudeAccuracy", "2.5"), location("speed", "8.75"), location("speedAccuracy", "0.5"),
        location("updateTime", #""2025-02-05T17:02:31.483Z""#), location("serverTime", #""2000-01-01T00:00:00Z""#, expect: "{}"),
        location("locationSensor", #""GPS""#), location("isRoadSnapped", "true"), location("isGpsSensorEnabled", "true"),
        location("timeSinceUpdate", "12"), location("rawLocation", #"{"latitude": 1.25, "longitude": 2.75}"#),
        location("rawLocationTime", #""2025-02-05T17:02:30Z""#), location("rawLocationSensor", #""NETWORK""#),
        location("rawLocationAccuracy", "6.5"), location("flpLocation", #"{"latitude": 1.5, "longitude": 2.5}"#),
        location("flpUpdateTime", #""2025-02-05T17:02:29Z""#), location("flpLatlngAccuracyMeters", "7.5"),
        location("flpHeadingDegrees", "90"), location("supplementalLocation", #"{"latitude": 1.75, "longitude": 2.25}"#),
        location("supplementalLocationTime", #""2025-02-05T17:02:28Z""#), location("supplementalLocationSensor", #""CUSTOMER_SUPPLIED_LOCATION""#),
        location("supplementalLocationAccuracy", "8.5"),
        location("horizontalAccuracy", "3.5", expect: #"{"latlngAccuracy": 3.5}"#),
        location("bearingAccuracy", "4.5", expect: #"{"headingAccuracy": 4.5}"#),
        location("verticalAccuracy", "2.5", expect: #"{"altitudeAccuracy": 2.5}"#),
        location("speedKmph", "36", expect: #"{"speed": 10}"#), location("numStaleUpdates", "3", expect: "{}"),
        location("roadSnapped", "true", expect: #"{"isRoadSnapped": true}"#),
    ]

    static let tripFields: [FieldCase] = [
        t("CreateTripRequest.trip.name", #"{"name": "providers/other/trips/x"}"#, expect: #"{"name": "providers/p/trips/{id}"}"#),
        t("CreateTripRequest.trip.vehicleId", #"{}"#, expect: #"{"vehicleId": "{vehicle}"}"#),
        t("UpdateTripRequest.trip.tripStatus", mask: "tripStatus", #"{"tripStatus": "ENROUTE_TO_PICKUP"}"#),
        t("CreateTripRequest.trip.tripType", #"{}"#, expect: #"{"tripType": "EXCLUSIVE"}"#),
        t("UpdateTripRequest.trip.tripType", mask: "tripType", #"{"tripType": "SHARED"}"#),
        t(
            "UpdateTripRequest.trip.pickupPoint.terminalPointId", mask: "pickupPoint",
            #"{"pickupPoint": {"point": {"latitude": 37.41, "longitude": -122.02}, "terminalPointId": {"placeId": "ChIJ", "value": "old"}, "accessPointId": "ap1", "tripId": "{id}", "terminalLocationType": "PICKUP_WAYPOINT_TYPE"}}"#,
            expect:
                #"{"pickupPoint": {"point": {"latitude": 37.41, "longitude": -122.02}, "terminalPointId": "<absent>", "accessPointId": "<absent>"}}"#),
        t(
            "UpdateTripRequest.trip.dropoffPoint.terminalPointId.generatedId", mask: "dropoffPoint",
            #"{"dropoffPoint": {"point": {"latitude": 37.43, "longitude": -122.02}, "terminalPointId": {"generatedId": "g1"}}}"#,
            expect: #"{"dropoffPoint": {"point": {"latitude": 37.43, "longitude": -122.02}, "terminalPointId": "<absent>"}}"#),
        t(
            "UpdateTripRequest.trip.vehicleWaypoints", mask: "vehicleWaypoints",
            #"{"vehicleWaypoints": [{"location": {"point": {"latitude": 37.40, "longitude": -122.0}}, "tripId": "{id}", "waypointType": "PICKUP_WAYPOINT_TYPE"}, {"location": {"point": {"latitude": 37.41, "longitude": -122.005}}, "tripId": "{id}", "waypointType": "INTERMEDIATE_DESTINATION_WAYPOINT_TYPE"}, {"location": {"point": {"latitude": 37.42, "longitude": -122.01}}, "tripId": "{id}", "waypointType": "DROP_OFF_WAYPOINT_TYPE"}]}"#,
            expect: #"{"vehicleWaypoints": "<absent>", "remainingWaypoints": "<present>"}"#),
        t("UpdateTripRequest.trip.pickupPoint", mask: "pickupPoint", #"{"pickupPoint": {"point": {"latitude": 37.41, "longitude": -122.02}}}"#),
        t(
            "UpdateTripRequest.trip.actualPickupPoint", mask: "actualPickupPoint",
            #"{"actualPickupPoint": {"point": {"latitude": 37.4, "longitude": -122.0}, "timestamp": "2025-02-05T17:00:00Z"}}"#),
        t(
            "UpdateTripRequest.trip.actualPickupPoint.stopTime", mask: "actualPickupPoint",
            #"{"actualPickupPoint": {"point": {"latitude": 37.4, "longitude": -122.0}, "stopTime": "2025-02-05T17:00:00Z"}}"#,
            expect: #"{"actualPickupPoint": {"point": {"latitude": 37.4, "longitude": -122.0}, "timestamp": "2025-02-05T17:00:00Z"}}"#),
        t(
            "UpdateTripRequest.trip.actualPickupArrivalPoint", mask: "actualPickupArrivalPoint",
            #"{"actualPickupArrivalPoint": {"point": {"latitude": 37.4, "longitude": -122.0}, "timestamp": "2025-02-05T16:59:00Z"}}"#),
        t("CreateTripRequest.trip.pickupTime", #"{"pickupTime": "2000-01-01T00:00:00Z"}"#, expect: "{}"),
        t(
            "UpdateTripRequest.trip.intermediateDestinations", mask: "intermediateDestinations",
            #"{"intermediateDestinations": [{"point": {"latitude": 37.41, "longitude": -122.005}}]}"#),
        t(
            "UpdateTripRequest.trip.intermediateDestinationsVersion", mask: "intermediateDestinationIndex",
            #"{"intermediateDestinationIndex": 0, "intermediateDestinationsVersion": "{intermediateDestinationsVersion}"}"#,
            expect: #"{"intermediateDestinationsVersion": "{intermediateDestinationsVersion}"}"#),
        t("UpdateTripRequest.trip.intermediateDestinationIndex", mask: "intermediateDestinationIndex", #"{"intermediateDestinationIndex": 0}"#),
        t(
            "UpdateTripRequest.trip.actualIntermediateDestinationArrivalPoints", mask: "actualIntermediateDestinationArrivalPoints",
            #"{"actualIntermediateDestinationArrivalPoints": [{"point": {"latitude": 37.41, "longitude": -122.005}, "timestamp": "2025-02-05T17:05:00Z"}]}"#
        ),
        t(
            "UpdateTripRequest.trip.actualIntermediateDestinations", mask: "actualIntermediateDestinations",
            #"{"actualIntermediateDestinations": [{"point": {"latitude": 37.41, "longitude": -122.005}, "timestamp": "2025-02-05T17:06:00Z"}]}"#
        ),
        t("UpdateTripRequest.trip.dropoffPoint", mask: "dropoffPoint", #"{"dropoffPoint": {"point": {"latitude": 37.43, "longitude": -122.02}}}"#),
        t(
            "UpdateTripRequest.trip.actualDropoffPoint", mask: "actualDropoffPoint",
            #"{"actualDropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}, "timestamp": "2025-02-05T17:20:00Z"}}"#),
        t("CreateTripRequest.trip.dropoffTime", #"{"dropoffTime": "2000-01-01T00:00:00Z"}"#, expect: "{}"),
        t("CreateTripRequest.trip.remainingWaypoints", #"{"remainingWaypoints": []}"#, expect: #"{"remainingWaypoints": "<present>"}"#),
        t("CreateTripRequest.trip.route", #"{"route": [{"latitude": 1, "longitude": 2}]}"#, expect: #"{"route": "<present>"}"#),
        t("CreateTripRequest.trip.currentRouteSegment", #"{"currentRouteSegment": ""}"#, expect: "{}"),
        t("CreateTripRequest.trip.currentRouteSegmentVersion", #"{"currentRouteSegmentVersion": "2000-01-01T00:00:00Z"}"#, expect: "{}"),
        t(
            "CreateTripRequest.trip.currentRouteSegmentTraffic",
            #"{"currentRouteSegmentTraffic": {"speedReadingInterval": [{"startPolylinePointIndex": 0, "endPolylinePointIndex": 1, "speed": "SLOW"}], "encodedPathToWaypoint": "_p~iF~ps|U"}}"#,
            expect: #"{"currentRouteSegmentTraffic": "<absent>"}"#),
        t(
            "CreateTripRequest.trip.currentRouteSegmentTrafficVersion", #"{"currentRouteSegmentTrafficVersion": "2000-01-01T00:00:00Z"}"#,
            expect: "{}"),
        t("CreateTripRequest.trip.currentRouteSegmentEndPoint", #"{"currentRouteSegmentEndPoint": {}}"#, expect: "{}"),
        t(
            "CreateTripRequest.trip.remainingDistanceMeters", #"{"remainingDistanceMeters": 5}"#,
            expect: #"{"remainingDistanceMeters": "<present>"}"#),
        t(
            "CreateTripRequest.trip.etaToFirstWaypoint", #"{"etaToFirstWaypoint": "2000-01-01T00:00:00Z"}"#,
            expect: #"{"etaToFirstWaypoint": "<present>"}"#),
        t(
            "CreateTripRequest.trip.remainingTimeToFirstWaypoint", #"{"remainingTimeToFirstWaypoint": "1s"}"#,
            expect: #"{"remainingTimeToFirstWaypoint": "<present>"}"#),
        t(
            "CreateTripRequest.trip.remainingWaypointsVersion", #"{"remainingWaypointsVersion": "2000-01-01T00:00:00Z"}"#,
            expect: #"{"remainingWaypointsVersion": "<present>"}"#),
        t(
            "CreateTripRequest.trip.remainingWaypointsRouteVersion", #"{"remainingWaypointsRouteVersion": "2000-01-01T00:00:00Z"}"#,
            expect: #"{"remainingWaypointsRouteVersion": "<present>"}"#),
        t("CreateTripRequest.trip.numberOfPassengers", #"{"numberOfPassengers": 3}"#),
        t(
            "CreateTripRequest.trip.lastLocation", #"{"lastLocation": {"location": {"latitude": 1, "longitude": 1}}}"#,
            expect: #"{"lastLocation": "<present>"}"#),
        t("CreateTripRequest.trip.lastLocationSnappable", #"{"lastLocationSnappable": true}"#, expect: "{}"),
        t("CreateTripRequest.trip.view", #"{"view": "JOURNEY_SHARING_V1S"}"#, expect: #"{"view": "SDK"}"#),
        t(
            "UpdateTripRequest.trip.attributes", mask: "attributes",
            #"{"attributes": [{"key": "a", "stringValue": "x"}, {"key": "b", "boolValue": false}, {"key": "c", "numberValue": -1}]}"#),
    ]
}
