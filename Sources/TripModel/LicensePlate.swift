/// What a rider is told of a vehicle's licence plate (Fleet Engine `LicensePlate`): its
/// country and, at most, its last character.
public struct LicensePlate: Codable, Hashable, Sendable {
    /// The CLDR region code of the plate's country ("US", "DE"); required.
    public var countryCode: String?
    /// The plate's last character, "-" when it has no alphanumeric one.
    public var lastCharacter: String?

    /// Creates a licence plate.
    public init(countryCode: String? = nil, lastCharacter: String? = nil) {
        self.countryCode = countryCode
        self.lastCharacter = lastCharacter
    }
}
