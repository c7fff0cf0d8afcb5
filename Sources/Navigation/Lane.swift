// Lane guidance at the end of a step, as `GMSNavigationLane` / `GMSNavigationLaneDirection`.

/// One lane at the maneuver of a step; a step's lanes are ordered left to right.
public struct Lane: Hashable, Codable, Sendable {
    /// The directions painted on this lane.
    package var laneDirections: [LaneDirection]

    /// Creates a lane from its directions.
    package init(laneDirections: [LaneDirection]) {
        self.laneDirections = laneDirections
    }
}

/// One direction a lane allows, and whether it follows the route.
package struct LaneDirection: Hashable, Codable, Sendable {
    /// The shape of the direction.
    package var laneShape: LaneShape
    /// True when taking this direction from this lane follows the route.
    package var recommended: Bool

    /// Creates a lane direction.
    package init(laneShape: LaneShape, recommended: Bool) {
        self.laneShape = laneShape
        self.recommended = recommended
    }
}
