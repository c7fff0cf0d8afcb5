// The Navigation SDK's traffic delay on the way to the next destination.

/// How much traffic slows the trip to the next destination.
public enum DelayCategory: String, CaseIterable, Codable, Sendable {
    /// The route has no traffic-aware and free-flow durations to compare.
    case noData
    /// More than 1.4 times the free-flow time.
    case heavy
    /// Over 1.1 and up to 1.4 times the free-flow time.
    case medium
    /// Up to 1.1 times the free-flow time.
    case light

    /// Classifies a traffic-aware over free-flow duration ratio.
    package init(ratio: Double) {
        if !ratio.isFinite {
            self = .noData
        } else if ratio <= 1.1 {
            self = .light
        } else if ratio <= 1.4 {
            self = .medium
        } else {
            self = .heavy
        }
    }
}
