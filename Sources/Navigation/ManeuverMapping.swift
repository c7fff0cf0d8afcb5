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
        let a = Degrees.wrapped(angle)
        let m = abs(a)
        if m < 10 { return .straight }
        if m >= 175 { return .uTurn }
        let right = a > 0
        if m < 45 { return right ? .slightRight : .slightLeft }
        if m < 135 { return right ? .right : .left }
        return right ? .sharpRight : .sharpLeft
    }

    /// The part of a maneuver's name that says where it turns ("SlightLeft", "UTurn", ...).
    static func suffix(_ d: Direction) -> String {
        switch d {
        case .straight: "Straight"
        case .slightLeft: "SlightLeft"
        case .left: "Left"
        case .sharpLeft: "SharpLeft"
        case .slightRight: "SlightRight"
        case .right: "Right"
        case .sharpRight: "SharpRight"
        case .uTurn: "UTurn"
        }
    }

    /// A U-turn goes the way traffic turns across: counter-clockwise where it drives on the
    /// right (and where unknown), clockwise where it drives on the left.
    static func rotation(_ side: DrivingSide) -> String {
        side == .left ? "Clockwise" : "CounterClockwise"
    }

    /// An intersection turn (`turn`, `continue`, `end of road`).
    static func turn(_ d: Direction?, side: DrivingSide) -> Maneuver {
        guard let d, d != .straight else { return .straight }
        let name = d == .uTurn ? "turnUTurn" + rotation(side) : "turn" + suffix(d)
        return Maneuver(rawValue: name) ?? .unknown
    }

    /// An on-ramp (`prefix` "onRamp") or off-ramp ("offRamp") with its direction;
    /// "straight" or none is the `Unspecified` case.
    static func ramp(_ prefix: String, _ d: Direction?, side: DrivingSide) -> Maneuver {
        guard let d, d != .straight else { return Maneuver(rawValue: prefix + "Unspecified") ?? .unknown }
        let name = prefix + (d == .uTurn ? "UTurn" + rotation(side) : suffix(d))
        return Maneuver(rawValue: name) ?? .unknown
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
        let name = "roundabout" + (angle.map { suffix(direction(angle: $0)) } ?? "") + rotation(side)
        return Maneuver(rawValue: name) ?? .unknown
    }

    /// Leaving a roundabout.
    static func roundaboutExit(side: DrivingSide) -> Maneuver {
        Maneuver(rawValue: "roundaboutExit" + rotation(side)) ?? .unknown
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
