// The mapping table of the navigation issue, in one place for both importers: router
// modifiers and angles to Google's maneuvers and lane shapes.

enum ManeuverMapping {
    /// A turn direction named by a router modifier or an angle.
    enum Direction {
        case straight, slightLeft, left, sharpLeft, slightRight, right, sharpRight, uTurn
    }

    /// OSRM's modifier strings.
    static func direction(osrmModifier: String?) -> Direction? {
        switch osrmModifier {
        case "straight": .straight
        case "slight left": .slightLeft
        case "left": .left
        case "sharp left": .sharpLeft
        case "slight right": .slightRight
        case "right": .right
        case "sharp right": .sharpRight
        case "uturn": .uTurn
        default: nil
        }
    }

    /// Classifies a turn angle in degrees (positive to the right) with the Navigation SDK's
    /// lane-shape classes: under 10° straight, 10–45° slight, 45–135° normal, 135–175° sharp,
    /// beyond that a U-turn.
    static func direction(angle: Double) -> Direction {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 } else if a <= -180 { a += 360 }
        let m = abs(a)
        if m < 10 { return .straight }
        if m >= 175 { return .uTurn }
        let right = a > 0
        if m < 45 { return right ? .slightRight : .slightLeft }
        if m < 135 { return right ? .right : .left }
        return right ? .sharpRight : .sharpLeft
    }

    /// A U-turn goes the way traffic turns across: counter-clockwise where it drives on the
    /// right (and where unknown), clockwise where it drives on the left.
    static func uTurn(clockwise: Maneuver, counterClockwise: Maneuver, side: DrivingSide) -> Maneuver {
        side == .left ? clockwise : counterClockwise
    }

    /// An intersection turn (`turn`, `continue`, `end of road`, Valhalla 8–16).
    static func turn(_ d: Direction?, side: DrivingSide) -> Maneuver {
        switch d {
        case nil, .straight: .straight
        case .slightLeft: .turnSlightLeft
        case .left: .turnLeft
        case .sharpLeft: .turnSharpLeft
        case .slightRight: .turnSlightRight
        case .right: .turnRight
        case .sharpRight: .turnSharpRight
        case .uTurn: uTurn(clockwise: .turnUTurnClockwise, counterClockwise: .turnUTurnCounterClockwise, side: side)
        }
    }

    /// An on-ramp with its direction; "straight" or none is `onRampUnspecified`.
    static func onRamp(_ d: Direction?, side: DrivingSide) -> Maneuver {
        switch d {
        case nil, .straight: .onRampUnspecified
        case .slightLeft: .onRampSlightLeft
        case .left: .onRampLeft
        case .sharpLeft: .onRampSharpLeft
        case .slightRight: .onRampSlightRight
        case .right: .onRampRight
        case .sharpRight: .onRampSharpRight
        case .uTurn: uTurn(clockwise: .onRampUTurnClockwise, counterClockwise: .onRampUTurnCounterClockwise, side: side)
        }
    }

    /// An off-ramp with its direction; "straight" or none is `offRampUnspecified`.
    static func offRamp(_ d: Direction?, side: DrivingSide) -> Maneuver {
        switch d {
        case nil, .straight: .offRampUnspecified
        case .slightLeft: .offRampSlightLeft
        case .left: .offRampLeft
        case .sharpLeft: .offRampSharpLeft
        case .slightRight: .offRampSlightRight
        case .right: .offRampRight
        case .sharpRight: .offRampSharpRight
        case .uTurn:
            uTurn(clockwise: .offRampUTurnClockwise, counterClockwise: .offRampUTurnCounterClockwise, side: side)
        }
    }

    /// A merge: left, right, or unspecified.
    static func merge(_ d: Direction?) -> Maneuver {
        switch d {
        case .slightLeft, .left, .sharpLeft: .mergeLeft
        case .slightRight, .right, .sharpRight: .mergeRight
        default: .mergeUnspecified
        }
    }

    /// A fork: left or right; a straight fork is `straight`.
    static func fork(_ d: Direction?) -> Maneuver {
        switch d {
        case .slightLeft, .left, .sharpLeft: .forkLeft
        case .slightRight, .right, .sharpRight: .forkRight
        default: .straight
        }
    }

    /// Entering a roundabout: its direction from the entry-to-exit angle, circulating
    /// clockwise where traffic drives on the left and counter-clockwise otherwise; the plain
    /// case when there is no angle.
    static func roundabout(angle: Double?, side: DrivingSide) -> Maneuver {
        let cw = side == .left
        guard let angle else { return cw ? .roundaboutClockwise : .roundaboutCounterClockwise }
        switch direction(angle: angle) {
        case .straight: return cw ? .roundaboutStraightClockwise : .roundaboutStraightCounterClockwise
        case .slightLeft: return cw ? .roundaboutSlightLeftClockwise : .roundaboutSlightLeftCounterClockwise
        case .left: return cw ? .roundaboutLeftClockwise : .roundaboutLeftCounterClockwise
        case .sharpLeft: return cw ? .roundaboutSharpLeftClockwise : .roundaboutSharpLeftCounterClockwise
        case .slightRight: return cw ? .roundaboutSlightRightClockwise : .roundaboutSlightRightCounterClockwise
        case .right: return cw ? .roundaboutRightClockwise : .roundaboutRightCounterClockwise
        case .sharpRight: return cw ? .roundaboutSharpRightClockwise : .roundaboutSharpRightCounterClockwise
        case .uTurn: return cw ? .roundaboutUTurnClockwise : .roundaboutUTurnCounterClockwise
        }
    }

    /// Leaving a roundabout.
    static func roundaboutExit(side: DrivingSide) -> Maneuver {
        side == .left ? .roundaboutExitClockwise : .roundaboutExitCounterClockwise
    }

    /// A lane marking (OSRM indication or Valhalla lane bit) as a lane shape.
    static func laneShape(_ d: Direction?, side: DrivingSide) -> LaneShape {
        switch d {
        case nil: .unknown
        case .straight: .straight
        case .slightLeft: .slightLeft
        case .left: .normalLeft
        case .sharpLeft: .sharpLeft
        case .slightRight: .slightRight
        case .right: .normalRight
        case .sharpRight: .sharpRight
        case .uTurn: side == .left ? .uTurnRight : .uTurnLeft
        }
    }
}
