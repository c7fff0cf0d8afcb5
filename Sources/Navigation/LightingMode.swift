// `GMSNavigationLightingMode`: the colour scheme suited to the light outside.

/// The colour scheme a navigation screen should use.
public enum LightingMode: String, CaseIterable, Codable, Sendable {
    /// Daylight colours.
    case normal
    /// Night colours.
    case lowLight
}
