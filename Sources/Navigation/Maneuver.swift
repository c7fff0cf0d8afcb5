// The Navigation SDK's `GMSNavigationManeuver`, case for case (values 0...65 of the SDK's
// header), spelled in lowerCamel without the prefix so JSON and URLs read the same as the
// SDK's Swift names.

/// What the driver does at the end of a step: the 66 `GMSNavigationManeuver` cases.
public enum Maneuver: String, CaseIterable, Codable, Sendable {
    case unknown
    case depart
    case destination
    case destinationLeft
    case destinationRight
    case straight
    case turnLeft
    case turnRight
    case turnKeepLeft
    case turnKeepRight
    case turnSlightLeft
    case turnSlightRight
    case turnSharpLeft
    case turnSharpRight
    case turnUTurnClockwise
    case turnUTurnCounterClockwise
    case mergeUnspecified
    case mergeLeft
    case mergeRight
    case forkLeft
    case forkRight
    case onRampUnspecified
    case onRampLeft
    case onRampRight
    case onRampKeepLeft
    case onRampKeepRight
    case onRampSlightLeft
    case onRampSlightRight
    case onRampSharpLeft
    case onRampSharpRight
    case onRampUTurnClockwise
    case onRampUTurnCounterClockwise
    case offRampUnspecified
    case offRampLeft
    case offRampRight
    case offRampKeepLeft
    case offRampKeepRight
    case offRampSlightLeft
    case offRampSlightRight
    case offRampSharpLeft
    case offRampSharpRight
    case offRampUTurnClockwise
    case offRampUTurnCounterClockwise
    case roundaboutClockwise
    case roundaboutCounterClockwise
    case roundaboutStraightClockwise
    case roundaboutStraightCounterClockwise
    case roundaboutLeftClockwise
    case roundaboutLeftCounterClockwise
    case roundaboutRightClockwise
    case roundaboutRightCounterClockwise
    case roundaboutSlightLeftClockwise
    case roundaboutSlightLeftCounterClockwise
    case roundaboutSlightRightClockwise
    case roundaboutSlightRightCounterClockwise
    case roundaboutSharpLeftClockwise
    case roundaboutSharpLeftCounterClockwise
    case roundaboutSharpRightClockwise
    case roundaboutSharpRightCounterClockwise
    case roundaboutUTurnClockwise
    case roundaboutUTurnCounterClockwise
    case roundaboutExitClockwise
    case roundaboutExitCounterClockwise
    case ferryBoat
    case ferryTrain
    case nameChange

    /// The SDK's numeric value of this case (`GMSNavigationManeuverUnknown` = 0 ...
    /// `GMSNavigationManeuverNameChange` = 65); the cases are declared in that order.
    package var sdkValue: Int {
        Self.allCases.firstIndex(of: self) ?? 0
    }

    /// True for the arrival maneuvers (`destination`, `destinationLeft`, `destinationRight`).
    package var isDestination: Bool {
        self == .destination || self == .destinationLeft || self == .destinationRight
    }
}
