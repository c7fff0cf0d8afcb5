// The Navigation SDK's `GMSNavigationLaneShape`, with the SDK's angle classes.

/// The shape of one direction painted on a lane (`GMSNavigationLaneShape`).
package enum LaneShape: String, CaseIterable, Codable, Sendable {
    /// No marking, or one we cannot name.
    case unknown
    /// Continue straight (under 10°).
    case straight
    /// Slight left turn (10–45°).
    case slightLeft
    /// Slight right turn (10–45°).
    case slightRight
    /// Normal left turn (45–135°).
    case normalLeft
    /// Normal right turn (45–135°).
    case normalRight
    /// Sharp left turn (135–175°).
    case sharpLeft
    /// Sharp right turn (135–175°).
    case sharpRight
    /// A left turn onto the opposite side of the same street (175–180°).
    case uTurnLeft
    /// A right turn onto the opposite side of the same street (175–180°).
    case uTurnRight
}
