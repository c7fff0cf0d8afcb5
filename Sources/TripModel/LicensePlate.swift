/// What a rider is told of a vehicle's licence plate (Fleet Engine `LicensePlate`): its
/// country and, at most, its last character.
package struct LicensePlate: Codable, Hashable, Sendable {
    /// The CLDR region code of the plate's country ("US", "DE"); required.
    package var countryCode: String?
    /// The plate's last character, "-" when it has no alphanumeric one.
    package var lastCharacter: String?

    /// Creates a licence plate.
    package init(countryCode: String? = nil, lastCharacter: String? = nil) {
        self.countryCode = countryCode
        self.lastCharacter = lastCharacter
    }
}
