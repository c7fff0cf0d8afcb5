/// Request bodies the API tests send, as a client's JSON text (what a client writes, not what
/// the model encodes): a vehicle, a trip, a location and a status change.
package enum Bodies {
    /// An online car of exclusive trips, four seats, at (37.39, -122.0).
    package static let vehicle = """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
         "vehicleType": {"category": "AUTO"},
         "lastLocation": {"location": {"latitude": 37.39, "longitude": -122.0}}}
        """

    /// An exclusive trip from (37.40, -122.0) to (37.42, -122.01), assigned to `vehicle` when given.
    package static func trip(vehicle: String? = nil) -> String {
        """
        {"tripType": "EXCLUSIVE", "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
         "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}\(vehicle.map { #", "vehicleId": "\#($0)""# } ?? "")}
        """
    }

    /// A vehicle update that moves it to (`lat`, `lng`).
    package static func location(_ lat: Double, _ lng: Double) -> String {
        #"{"lastLocation": {"location": {"latitude": \#(lat), "longitude": \#(lng)}}}"#
    }

    /// A trip update that sets its status (`ENROUTE_TO_PICKUP`, ...).
    package static func status(_ status: String) -> String { #"{"tripStatus": "\#(status)"}"# }
}
