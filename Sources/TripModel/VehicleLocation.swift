import Geo

/// A vehicle's reported location and motion (Fleet Engine `VehicleLocation`).
public struct VehicleLocation: Codable, Hashable, Sendable {
    /// Where the vehicle is.
    public var location: LatLng?
    /// Accuracy of `location` as a radius in metres.
    public var latlngAccuracy: Double?
    /// Direction of travel in degrees clockwise from north, 0..<360.
    public var heading: Double?
    /// Accuracy of `heading` in degrees.
    public var headingAccuracy: Double?
    /// Altitude in metres above WGS 84.
    public var altitude: Double?
    /// Accuracy of `altitude` in metres.
    public var altitudeAccuracy: Double?
    /// Speed in metres per second.
    public var speed: Double?
    /// Accuracy of `speed` in metres per second.
    public var speedAccuracy: Double?
    /// When the device took the location.
    public var updateTime: Timestamp?
    /// When the server received it (output only).
    public var serverTime: Timestamp?
    /// Where `location` came from.
    public var locationSensor: LocationSensor?
    /// Whether `location` is snapped to a road.
    public var isRoadSnapped: Bool?
    /// Whether the device's GPS is on.
    public var isGpsSensorEnabled: Bool?
    /// The raw GPS location before snapping.
    public var rawLocation: LatLng?
    /// When the raw location was taken.
    public var rawLocationTime: Timestamp?
    /// Where the raw location came from.
    public var rawLocationSensor: LocationSensor?
    /// Accuracy of `rawLocation` in metres.
    public var rawLocationAccuracy: Double?

    /// Creates a location.
    public init(location: LatLng? = nil, heading: Double? = nil, speed: Double? = nil, updateTime: Timestamp? = nil) {
        self.location = location
        self.heading = heading
        self.speed = speed
        self.updateTime = updateTime
    }

    enum CodingKeys: String, CodingKey {
        case location, latlngAccuracy, heading, headingAccuracy, altitude, altitudeAccuracy, speed, speedAccuracy
        case updateTime, serverTime, locationSensor, isRoadSnapped, isGpsSensorEnabled
        case rawLocation, rawLocationTime, rawLocationSensor, rawLocationAccuracy
        // Accepted for compatibility with Driver SDK payloads, not kept.
        case horizontalAccuracy, bearingAccuracy, verticalAccuracy, speedKmph, supplementalLocationAccuracy
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decodeIfPresent(LatLng.self, forKey: .location)
        latlngAccuracy =
            try c.decodeIfPresent(Double.self, forKey: .latlngAccuracy)
            ?? c.decodeIfPresent(Double.self, forKey: .horizontalAccuracy)
        heading = try c.decodeIfPresent(Double.self, forKey: .heading)
        headingAccuracy =
            try c.decodeIfPresent(Double.self, forKey: .headingAccuracy)
            ?? c.decodeIfPresent(Double.self, forKey: .bearingAccuracy)
        altitude = try c.decodeIfPresent(Double.self, forKey: .altitude)
        altitudeAccuracy =
            try c.decodeIfPresent(Double.self, forKey: .altitudeAccuracy)
            ?? c.decodeIfPresent(Double.self, forKey: .verticalAccuracy)
        speed = try c.decodeIfPresent(Double.self, forKey: .speed)
        if speed == nil, let kmph = try c.decodeIfPresent(Double.self, forKey: .speedKmph) { speed = kmph / 3.6 }
        speedAccuracy = try c.decodeIfPresent(Double.self, forKey: .speedAccuracy)
        updateTime = try c.decodeIfPresent(Timestamp.self, forKey: .updateTime)
        serverTime = try c.decodeIfPresent(Timestamp.self, forKey: .serverTime)
        locationSensor = try c.decodeIfPresent(LocationSensor.self, forKey: .locationSensor)
        isRoadSnapped = try c.decodeIfPresent(Bool.self, forKey: .isRoadSnapped)
        isGpsSensorEnabled = try c.decodeIfPresent(Bool.self, forKey: .isGpsSensorEnabled)
        rawLocation = try c.decodeIfPresent(LatLng.self, forKey: .rawLocation)
        rawLocationTime = try c.decodeIfPresent(Timestamp.self, forKey: .rawLocationTime)
        rawLocationSensor = try c.decodeIfPresent(LocationSensor.self, forKey: .rawLocationSensor)
        rawLocationAccuracy = try c.decodeIfPresent(Double.self, forKey: .rawLocationAccuracy)
        _ = try c.decodeIfPresent(Double.self, forKey: .supplementalLocationAccuracy)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(latlngAccuracy, forKey: .latlngAccuracy)
        try c.encodeIfPresent(heading, forKey: .heading)
        try c.encodeIfPresent(headingAccuracy, forKey: .headingAccuracy)
        try c.encodeIfPresent(altitude, forKey: .altitude)
        try c.encodeIfPresent(altitudeAccuracy, forKey: .altitudeAccuracy)
        try c.encodeIfPresent(speed, forKey: .speed)
        try c.encodeIfPresent(speedAccuracy, forKey: .speedAccuracy)
        try c.encodeIfPresent(updateTime, forKey: .updateTime)
        try c.encodeIfPresent(serverTime, forKey: .serverTime)
        try c.encodeIfPresent(locationSensor, forKey: .locationSensor)
        try c.encodeIfPresent(isRoadSnapped, forKey: .isRoadSnapped)
        try c.encodeIfPresent(isGpsSensorEnabled, forKey: .isGpsSensorEnabled)
        try c.encodeIfPresent(rawLocation, forKey: .rawLocation)
        try c.encodeIfPresent(rawLocationTime, forKey: .rawLocationTime)
        try c.encodeIfPresent(rawLocationSensor, forKey: .rawLocationSensor)
        try c.encodeIfPresent(rawLocationAccuracy, forKey: .rawLocationAccuracy)
    }
}

/// A key–value attribute on a vehicle or trip; exactly one value is set.
public struct Attribute: Codable, Hashable, Sendable {
    /// The key; no colons, at most 256 characters.
    public var key: String
    /// A string value.
    public var stringValue: String?
    /// A boolean value.
    public var boolValue: Bool?
    /// A number value.
    public var numberValue: Double?

    /// Creates a string attribute.
    public init(key: String, stringValue: String) {
        self.key = key
        self.stringValue = stringValue
    }

    enum CodingKeys: String, CodingKey { case key, value, stringValue, boolValue, numberValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        // `value` is Fleet Engine's deprecated spelling of `stringValue`.
        stringValue = try c.decodeIfPresent(String.self, forKey: .stringValue) ?? c.decodeIfPresent(String.self, forKey: .value)
        boolValue = try c.decodeIfPresent(Bool.self, forKey: .boolValue)
        numberValue = try c.decodeIfPresent(Double.self, forKey: .numberValue)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encodeIfPresent(stringValue, forKey: .stringValue)
        try c.encodeIfPresent(boolValue, forKey: .boolValue)
        try c.encodeIfPresent(numberValue, forKey: .numberValue)
    }
}
