/// What a vehicle's own estimate to its next stop rested on (docs/estimates.md), shown on the
/// vehicle as `estimateBasis` (our extension of Fleet Engine's resource, beside
/// ``EstimateMethod``) when the estimate is ours (``EstimateMethod/routeSegment`` or
/// ``EstimateMethod/straightLine``): whether the operator's map covered the way, which detour a
/// straight line took and where it came from.
package struct EstimateBasis: Codable, Hashable, Sendable {
    /// Where a straight line's detour factor came from.
    package enum DetourSource: String, WireEnum {
        /// The fleet's own legs in the areas the line crosses (``AreaObservation/Kind/detour``).
        case fleet = "FLEET"
        /// ``Estimation/detourFactor``: the fleet has shown none there.
        case constant = "CONSTANT"
    }

    /// The share (0–1) of the way whose road class the basemap gave: along a route segment,
    /// of its metres; on a straight line, 1 when the map's roads near the line set the pace
    /// (``Estimation/roadMixMinimumMeters``) and 0 when it has too few there (no tile, open
    /// country). Absent without a basemap.
    package var roadClassCoverage: Double?
    /// On a straight line: road distance over straight-line distance.
    package var detourFactor: Double?
    /// On a straight line: where ``detourFactor`` came from.
    package var detourSource: DetourSource?

    /// Creates a basis.
    package init(roadClassCoverage: Double? = nil, detourFactor: Double? = nil, detourSource: DetourSource? = nil) {
        self.roadClassCoverage = roadClassCoverage
        self.detourFactor = detourFactor
        self.detourSource = detourSource
    }
}
