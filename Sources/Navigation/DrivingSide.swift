// `GMSNavigationDrivingSide`, spelled as DESIGN §8 writes it on the wire.

/// The side of the road traffic keeps to on a step.
public enum DrivingSide: String, CaseIterable, Codable, Sendable {
    /// Not known.
    case none = "NONE"
    /// Traffic drives on the left (UK, Japan, ...): roundabouts turn clockwise.
    case left = "LEFT"
    /// Traffic drives on the right: roundabouts turn counter-clockwise.
    case right = "RIGHT"
}
