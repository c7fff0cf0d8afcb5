// The Navigation SDK's speed alert levels (`GMSNavigationSpeedAlertSeverity`), with the
// SDK's "unknown" and "not speeding" folded into `none`.

/// How far above the speed limit the vehicle is.
public enum SpeedAlertSeverity: String, CaseIterable, Codable, Sendable {
    /// Not speeding, or the speed or the limit is unknown.
    case none
    /// Above the minor threshold (default: more than 10 km/h over the limit).
    case minor
    /// Above the major threshold (default: more than 20 km/h over the limit).
    case major
}
