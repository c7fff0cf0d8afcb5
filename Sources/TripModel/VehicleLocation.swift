import Geo
import JSON

/// A vehicle's reported location and motion (Fleet Engine `VehicleLocation`), with every
/// non-deprecated field of the v1 message; the deprecated ones are read as their
/// replacements (``DeprecatedTwin``).
public struct VehicleLocation: Hashable, Sendable {
    /// Where the vehicle is.
    public var location: LatLng?
    /// Accuracy of `location` as a radius in metres.
    package var latlngAccuracy: Double?
    /// Direction of travel in whole degrees clockwise from north, 0–360 (int32 on the wire).
    public var heading: Int?
    /// Accuracy of `heading` in degrees.
    package var headingAccuracy: Double?
    /// Altitude in metres above WGS 84.
    package var altitude: Double?
    /// Accuracy of `altitude` in metres.
    package var altitudeAccuracy: Double?
    /// Speed in metres per second.
    package var speed: Double?
    /// Accuracy of `speed` in metres per second.
    package var speedAccuracy: Double?
    /// When the device took the location.
    package var updateTime: Timestamp?
    /// When the server received it (output only).
    package var serverTime: Timestamp?
    /// Where `location` came from.
    package var locationSensor: LocationSensor?
    /// Whether `location` is snapped to a road.
    package var isRoadSnapped: Bool?
    /// Whether the device's GPS is on.
    package var isGpsSensorEnabled: Bool?
    /// Seconds since this location was first sent to the server (0 on its first sending).
    package var timeSinceUpdate: Int?
    /// The raw GPS location before snapping.
    package var rawLocation: LatLng?
    /// When the raw location was taken.
    package var rawLocationTime: Timestamp?
    /// Where the raw location came from.
    package var rawLocationSensor: LocationSensor?
    /// Accuracy of `rawLocation` in metres.
    package var rawLocationAccuracy: Double?
    /// The location from Android's Fused Location Provider.
    package var flpLocation: LatLng?
    /// When `flpLocation` was taken.
    package var flpUpdateTime: Timestamp?
    /// Accuracy of `flpLocation` as a radius in metres.
    package var flpLatlngAccuracyMeters: Double?
    /// Direction of travel by the Fused Location Provider, whole degrees 0–360.
    package var flpHeadingDegrees: Int?
    /// A location the integrating app supplied besides the device's.
    package var supplementalLocation: LatLng?
    /// When `supplementalLocation` was taken.
    package var supplementalLocationTime: Timestamp?
    /// Where `supplementalLocation` came from.
    package var supplementalLocationSensor: LocationSensor?
    /// Accuracy of `supplementalLocation` as a radius in metres.
    package var supplementalLocationAccuracy: Double?

    /// Creates a location.
    public init(location: LatLng? = nil, heading: Int? = nil, speed: Double? = nil, updateTime: Timestamp? = nil) {
        self.location = location
        self.heading = heading
        self.speed = speed
        self.updateTime = updateTime
    }
}

extension VehicleLocation: Codable {
    enum CodingKeys: String, CodingKey {
        case location, latlngAccuracy, heading, headingAccuracy, altitude, altitudeAccuracy, speed, speedAccuracy
        case updateTime, serverTime, locationSensor, isRoadSnapped, isGpsSensorEnabled, timeSinceUpdate
        case rawLocation, rawLocationTime, rawLocationSensor, rawLocationAccuracy
        case flpLocation, flpUpdateTime, flpLatlngAccuracyMeters, flpHeadingDegrees
        case supplementalLocation, supplementalLocationTime, supplementalLocationSensor, supplementalLocationAccuracy
        // Deprecated in Fleet Engine: read as their replacements.
        case horizontalAccuracy, bearingAccuracy, verticalAccuracy, speedKmph, roadSnapped
        // Deprecated without a replacement (staleness is judged otherwise now): accepted, not kept.
        case numStaleUpdates
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decodeIfSet(LatLng.self, forKey: .location)
        latlngAccuracy = try DeprecatedTwin.read(Double.self, c, .latlngAccuracy, deprecated: .horizontalAccuracy)
        heading = try c.decodeIfSet(Int32.self, forKey: .heading).map(Int.init)
        headingAccuracy = try DeprecatedTwin.read(Double.self, c, .headingAccuracy, deprecated: .bearingAccuracy)
        altitude = try c.decodeIfSet(Double.self, forKey: .altitude)
        altitudeAccuracy = try DeprecatedTwin.read(Double.self, c, .altitudeAccuracy, deprecated: .verticalAccuracy)
        speed = try c.decodeIfSet(Double.self, forKey: .speed)
        if let kmph = try c.decodeIfSet(Int32.self, forKey: .speedKmph) {
            // Whole km/h: the two agree when the speed rounds to it either way.
            if let speed, abs(speed * 3.6 - Double(kmph)) >= 1 {
                throw DeprecatedTwin.disagreement(c, .speed, speed, deprecated: .speedKmph, kmph)
            }
            if speed == nil { speed = Double(kmph) / 3.6 }
        }
        speedAccuracy = try c.decodeIfSet(Double.self, forKey: .speedAccuracy)
        updateTime = try c.decodeIfSet(Timestamp.self, forKey: .updateTime)
        serverTime = try c.decodeIfSet(Timestamp.self, forKey: .serverTime)
        locationSensor = try c.decodeIfSet(LocationSensor.self, forKey: .locationSensor)
        isRoadSnapped = try c.decodeIfSet(Bool.self, forKey: .isRoadSnapped)
        // A plain bool in proto3: false is its default, so only true says anything.
        if try c.decodeIfSet(Bool.self, forKey: .roadSnapped) == true {
            if isRoadSnapped == false { throw DeprecatedTwin.disagreement(c, .isRoadSnapped, false, deprecated: .roadSnapped, true) }
            isRoadSnapped = true
        }
        isGpsSensorEnabled = try c.decodeIfSet(Bool.self, forKey: .isGpsSensorEnabled)
        timeSinceUpdate = try c.decodeIfSet(Int32.self, forKey: .timeSinceUpdate).map(Int.init)
        _ = try c.decodeIfSet(Int32.self, forKey: .numStaleUpdates)
        rawLocation = try c.decodeIfSet(LatLng.self, forKey: .rawLocation)
        rawLocationTime = try c.decodeIfSet(Timestamp.self, forKey: .rawLocationTime)
        rawLocationSensor = try c.decodeIfSet(LocationSensor.self, forKey: .rawLocationSensor)
        rawLocationAccuracy = try c.decodeIfSet(Double.self, forKey: .rawLocationAccuracy)
        flpLocation = try c.decodeIfSet(LatLng.self, forKey: .flpLocation)
        flpUpdateTime = try c.decodeIfSet(Timestamp.self, forKey: .flpUpdateTime)
        flpLatlngAccuracyMeters = try c.decodeIfSet(Double.self, forKey: .flpLatlngAccuracyMeters)
        flpHeadingDegrees = try c.decodeIfSet(Int32.self, forKey: .flpHeadingDegrees).map(Int.init)
        supplementalLocation = try c.decodeIfSet(LatLng.self, forKey: .supplementalLocation)
        supplementalLocationTime = try c.decodeIfSet(Timestamp.self, forKey: .supplementalLocationTime)
        supplementalLocationSensor = try c.decodeIfSet(LocationSensor.self, forKey: .supplementalLocationSensor)
        supplementalLocationAccuracy = try c.decodeIfSet(Double.self, forKey: .supplementalLocationAccuracy)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfSet(location, forKey: .location)
        try c.encodeIfSet(latlngAccuracy, forKey: .latlngAccuracy)
        try c.encodeIfSet(heading, forKey: .heading)
        try c.encodeIfSet(headingAccuracy, forKey: .headingAccuracy)
        try c.encodeIfSet(altitude, forKey: .altitude)
        try c.encodeIfSet(altitudeAccuracy, forKey: .altitudeAccuracy)
        try c.encodeIfSet(speed, forKey: .speed)
        try c.encodeIfSet(speedAccuracy, forKey: .speedAccuracy)
        try c.encodeIfSet(updateTime, forKey: .updateTime)
        try c.encodeIfSet(serverTime, forKey: .serverTime)
        try c.encodeIfSet(locationSensor, forKey: .locationSensor)
        try c.encodeIfSet(isRoadSnapped, forKey: .isRoadSnapped)
        try c.encodeIfSet(isGpsSensorEnabled, forKey: .isGpsSensorEnabled)
        try c.encodeIfSet(timeSinceUpdate, forKey: .timeSinceUpdate)
        try c.encodeIfSet(rawLocation, forKey: .rawLocation)
        try c.encodeIfSet(rawLocationTime, forKey: .rawLocationTime)
        try c.encodeIfSet(rawLocationSensor, forKey: .rawLocationSensor)
        try c.encodeIfSet(rawLocationAccuracy, forKey: .rawLocationAccuracy)
        try c.encodeIfSet(flpLocation, forKey: .flpLocation)
        try c.encodeIfSet(flpUpdateTime, forKey: .flpUpdateTime)
        try c.encodeIfSet(flpLatlngAccuracyMeters, forKey: .flpLatlngAccuracyMeters)
        try c.encodeIfSet(flpHeadingDegrees, forKey: .flpHeadingDegrees)
        try c.encodeIfSet(supplementalLocation, forKey: .supplementalLocation)
        try c.encodeIfSet(supplementalLocationTime, forKey: .supplementalLocationTime)
        try c.encodeIfSet(supplementalLocationSensor, forKey: .supplementalLocationSensor)
        try c.encodeIfSet(supplementalLocationAccuracy, forKey: .supplementalLocationAccuracy)
    }
}
