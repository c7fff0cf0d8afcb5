import JSON

/// A key–value attribute on a vehicle (Fleet Engine `VehicleAttribute`) or a trip
/// (`TripAttribute`); exactly one value is set.
public struct Attribute: Hashable, Sendable {
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

    /// Creates an attribute with any one of the values.
    public init(key: String, stringValue: String? = nil, boolValue: Bool? = nil, numberValue: Double? = nil) {
        self.key = key
        self.stringValue = stringValue
        self.boolValue = boolValue
        self.numberValue = numberValue
    }
}

extension Attribute: Codable {
    enum CodingKeys: String, CodingKey { case key, value, stringValue, boolValue, numberValue }

    /// Decodes a `VehicleAttribute`: `value` is Fleet Engine's deprecated spelling of
    /// `stringValue`.
    public init(from decoder: any Decoder) throws {
        try self.init(decoder, allowingValue: true)
    }

    /// Decodes an attribute; `allowingValue` is false for a `TripAttribute`, which never had
    /// the deprecated `value`.
    init(_ decoder: any Decoder, allowingValue: Bool) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        // The values are a oneof, whose members have presence: `""` is a value here.
        if c.contains(.stringValue), try !c.decodeNil(forKey: .stringValue) {
            stringValue = try c.decode(String.self, forKey: .stringValue)
        }
        if allowingValue, let old = try c.decodeIfSet(String.self, forKey: .value) {
            if let stringValue, stringValue != old {
                throw DeprecatedTwin.disagreement(c, .stringValue, stringValue, deprecated: .value, old)
            }
            stringValue = old
        }
        boolValue = try c.decodeIfSet(Bool.self, forKey: .boolValue)
        numberValue = try c.decodeIfSet(Double.self, forKey: .numberValue)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encodeIfSet(stringValue, forKey: .stringValue)
        try c.encodeIfSet(boolValue, forKey: .boolValue)
        try c.encodeIfSet(numberValue, forKey: .numberValue)
    }
}

/// A trip's attribute as the wire has it (`TripAttribute`: no deprecated `value`).
struct TripAttributeInput: Decodable {
    var attribute: Attribute

    init(from decoder: any Decoder) throws { attribute = try Attribute(decoder, allowingValue: false) }
}
