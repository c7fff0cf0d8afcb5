// Our own English wording for road names and instructions, shared by the importers so a
// route reads the same whichever router produced it. The templates are deliberately
// plain; the expectation script in scripts/ mirrors them word for word.

enum RouteText {
    /// A road's label: "Name (ref)", or whichever of the two exists.
    static func label(name: String, ref: String) -> String {
        switch (name.isEmpty, ref.isEmpty) {
        case (false, false): return "\(name) (\(ref))"
        case (false, true): return name
        case (true, false): return ref
        case (true, true): return ""
        }
    }

    /// The short road name: the name, else the ref.
    static func simpleName(name: String, ref: String) -> String {
        name.isEmpty ? ref : name
    }

    /// The full road name: "Exit 12 / Name (ref) / toward", leaving out what is missing.
    static func fullName(name: String, ref: String, toward: String, exitNumber: String?) -> String {
        var parts: [String] = []
        if let exitNumber, !exitNumber.isEmpty { parts.append("Exit \(exitNumber)") }
        let label = label(name: name, ref: ref)
        if !label.isEmpty { parts.append(label) }
        if !toward.isEmpty { parts.append(toward) }
        return parts.joined(separator: " / ")
    }

    /// "north", "northeast", ... for a bearing in degrees.
    static func cardinal(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        var b = bearing.truncatingRemainder(dividingBy: 360)
        if b < 0 { b += 360 }
        return names[Int((b + 22.5) / 45) % 8]
    }

    /// "1st", "2nd", "3rd", "4th", "11th", "21st", ...
    static func ordinal(_ n: Int) -> String {
        let tens = (n / 10) % 10
        let suffix: String
        switch n % 10 {
        case 1 where tens != 1: suffix = "st"
        case 2 where tens != 1: suffix = "nd"
        case 3 where tens != 1: suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// What an instruction needs to know about its step.
    struct Context {
        var maneuver: Maneuver
        /// The road the maneuver leads onto (the simple name).
        var road: String
        /// Signed destinations ("toward").
        var toward: String
        var exitNumber: String?
        var roundaboutExit: Int?
        var bearingAfter: Double
        /// 1-based number of the destination reached, for arrival steps.
        var destinationNumber: Int?
        var isFinalDestination: Bool
    }

    /// The English instruction for a step.
    static func instruction(_ c: Context) -> String {
        let onto = c.road.isEmpty ? "" : " onto \(c.road)"
        let towardOrOnto = c.toward.isEmpty ? onto : " toward \(c.toward)"
        switch c.maneuver {
        case .depart:
            return "Head \(cardinal(c.bearingAfter))" + (c.road.isEmpty ? "" : " on \(c.road)")
        case .destination, .destinationLeft, .destinationRight:
            var text =
                c.isFinalDestination || c.destinationNumber == nil
                ? "Arrive at your destination" : "Arrive at waypoint \(c.destinationNumber ?? 0)"
            if c.maneuver == .destinationLeft { text += ", on the left" }
            if c.maneuver == .destinationRight { text += ", on the right" }
            return text
        case .straight: return "Continue straight" + onto
        case .turnLeft: return "Turn left" + onto
        case .turnRight: return "Turn right" + onto
        case .turnSlightLeft: return "Turn slightly left" + onto
        case .turnSlightRight: return "Turn slightly right" + onto
        case .turnSharpLeft: return "Turn sharply left" + onto
        case .turnSharpRight: return "Turn sharply right" + onto
        case .turnKeepLeft: return "Keep left" + onto
        case .turnKeepRight: return "Keep right" + onto
        case .turnUTurnClockwise, .turnUTurnCounterClockwise: return "Make a U-turn" + onto
        case .mergeUnspecified: return "Merge" + onto
        case .mergeLeft: return "Merge left" + onto
        case .mergeRight: return "Merge right" + onto
        case .forkLeft: return "Keep left at the fork" + towardOrOnto
        case .forkRight: return "Keep right at the fork" + towardOrOnto
        case .onRampUnspecified, .onRampLeft, .onRampRight, .onRampKeepLeft, .onRampKeepRight,
            .onRampSlightLeft, .onRampSlightRight, .onRampSharpLeft, .onRampSharpRight,
            .onRampUTurnClockwise, .onRampUTurnCounterClockwise:
            return "Take the ramp" + side(c.maneuver) + towardOrOnto
        case .offRampUnspecified, .offRampLeft, .offRampRight, .offRampKeepLeft, .offRampKeepRight,
            .offRampSlightLeft, .offRampSlightRight, .offRampSharpLeft, .offRampSharpRight,
            .offRampUTurnClockwise, .offRampUTurnCounterClockwise:
            if let exit = c.exitNumber, !exit.isEmpty { return "Take exit \(exit)" + towardOrOnto }
            return "Take the exit" + side(c.maneuver) + towardOrOnto
        case .roundaboutExitClockwise, .roundaboutExitCounterClockwise:
            return "Exit the roundabout" + onto
        case .roundaboutClockwise, .roundaboutCounterClockwise, .roundaboutStraightClockwise,
            .roundaboutStraightCounterClockwise, .roundaboutLeftClockwise, .roundaboutLeftCounterClockwise,
            .roundaboutRightClockwise, .roundaboutRightCounterClockwise, .roundaboutSlightLeftClockwise,
            .roundaboutSlightLeftCounterClockwise, .roundaboutSlightRightClockwise,
            .roundaboutSlightRightCounterClockwise, .roundaboutSharpLeftClockwise,
            .roundaboutSharpLeftCounterClockwise, .roundaboutSharpRightClockwise,
            .roundaboutSharpRightCounterClockwise, .roundaboutUTurnClockwise, .roundaboutUTurnCounterClockwise:
            guard let exit = c.roundaboutExit, exit > 0 else { return "Enter the roundabout" }
            return "At the roundabout, take the \(ordinal(exit)) exit" + onto
        case .ferryBoat: return "Take the ferry" + onto
        case .ferryTrain: return "Take the train ferry" + onto
        case .nameChange, .unknown: return "Continue" + onto
        }
    }

    /// " on the left" / " on the right" for a ramp maneuver's side, "" when unsaid.
    private static func side(_ maneuver: Maneuver) -> String {
        let name = maneuver.rawValue
        if name.hasSuffix("Left") { return " on the left" }
        if name.hasSuffix("Right") { return " on the right" }
        return ""
    }
}
