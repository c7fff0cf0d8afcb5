/// Bounds on every input, so no request can make the server do unbounded work or store
/// unbounded data. Exceeding one is INVALID_ARGUMENT naming the field and the bound.
public enum Limits {
    /// Vertices in a route segment or any path a client sends (a long cross-country
    /// route at road resolution fits; a runaway client does not).
    package static let maximumPolylinePoints = 25_000
    /// Characters in an encoded polyline (about 6 per vertex at worst).
    package static let maximumEncodedPolylineLength = 200_000
    /// Intermediate destinations of a trip.
    package static let maximumIntermediateDestinations = 25
    /// Waypoints a provider may set on a vehicle.
    package static let maximumVehicleWaypoints = 100
    /// Attributes on a vehicle or trip.
    package static let maximumAttributes = 100
    /// Characters in an attribute key or string value.
    package static let maximumAttributeLength = 256
    /// UTF-8 bytes in an attribute key or string value: 256 characters of up to 4 bytes.
    /// Characters alone do not bound the size (a character may carry any number of
    /// combining scalars: a 256-character value of 512,512 bytes was accepted).
    package static let maximumAttributeBytes = 1_024
    /// Unfinished trips one vehicle may carry at once. Each puts at least its pickup and
    /// dropoff into the vehicle's waypoints, so 50 fill the waypoints a provider may set on a
    /// vehicle (``maximumVehicleWaypoints``); a 16-seat shared van with every seat booked and
    /// a second rider queued for each needs 32. Every location update re-derives every one of
    /// them (with 400, an update took 99 ms and answered 200 KB).
    package static let maximumTripsPerVehicle = 50
    /// Road stretches in a traffic report.
    package static let maximumRoadStretches = 2_000
    /// Passengers on a trip and capacity of a vehicle.
    public static let maximumCapacity = 1_000
    /// Trip types and other short lists.
    package static let maximumShortList = 16
    /// Default and maximum page sizes of list and search calls.
    package static let defaultPageSize = 100
    package static let maximumPageSize = 1_000
}
