// One step of a route, as the Navigation SDK's `GMSNavigationStepInfo`.
//
// As in the SDK, a step is the stretch of road that leads up to its maneuver: it starts at
// the previous step's maneuver and ends where its own maneuver is done, so the "current
// step" is the next maneuver ahead and `distanceFromPrevStepMeters` is this stretch's
// length. The first step (`depart`) is empty: its maneuver is at the route's first point.

/// One step of a route: the maneuver at its end and the road that leads there.
public struct StepInfo: Hashable, Codable, Sendable {
    /// Index of the step in the route's steps, from 0.
    public var stepNumber: Int
    /// What the driver does at the end of this step.
    public var maneuver: Maneuver
    /// The full name of the road the maneuver leads onto, with its ref and signed
    /// destinations ("Avenida da Liberdade (N6) / Cascais"); empty when unnamed.
    package var fullRoadName: String
    /// The road's plain name, or its ref when it has no name; empty when unnamed.
    package var simpleRoadName: String
    /// The instruction in English ("Turn left onto Rua Augusta").
    package var fullInstructionText: String
    /// The signed exit number of a ramp maneuver, if any.
    package var exitNumber: String?
    /// The side of the road traffic keeps to on this step.
    public var drivingSide: DrivingSide
    /// The exit to take at a roundabout, counted from where it is entered; -1 otherwise.
    package var roundaboutTurnNumber: Int
    /// Length of this step: from the previous maneuver to this one, in metres.
    package var distanceFromPrevStepMeters: Double
    /// Time to drive this step, in seconds.
    package var timeFromPrevStepSeconds: Double
    /// The lanes at the maneuver, left to right; empty when unknown.
    package var lanes: [Lane]
    /// Index of the route polyline point where this step starts (the previous maneuver).
    public var polylineStartIndex: Int
    /// Index of the route polyline point where this step's maneuver is.
    public var polylineEndIndex: Int

    /// Creates a step; the optional parts default to "none".
    public init(
        stepNumber: Int,
        maneuver: Maneuver,
        fullRoadName: String = "",
        simpleRoadName: String = "",
        fullInstructionText: String = "",
        exitNumber: String? = nil,
        drivingSide: DrivingSide = .none,
        roundaboutTurnNumber: Int = -1,
        distanceFromPrevStepMeters: Double = 0,
        timeFromPrevStepSeconds: Double = 0,
        lanes: [Lane] = [],
        polylineStartIndex: Int,
        polylineEndIndex: Int
    ) {
        self.stepNumber = stepNumber
        self.maneuver = maneuver
        self.fullRoadName = fullRoadName
        self.simpleRoadName = simpleRoadName
        self.fullInstructionText = fullInstructionText
        self.exitNumber = exitNumber
        self.drivingSide = drivingSide
        self.roundaboutTurnNumber = roundaboutTurnNumber
        self.distanceFromPrevStepMeters = distanceFromPrevStepMeters
        self.timeFromPrevStepSeconds = timeFromPrevStepSeconds
        self.lanes = lanes
        self.polylineStartIndex = polylineStartIndex
        self.polylineEndIndex = polylineEndIndex
    }

    private enum CodingKeys: String, CodingKey {
        case stepNumber, maneuver, fullRoadName, simpleRoadName, fullInstructionText, exitNumber
        case drivingSide, roundaboutTurnNumber, distanceFromPrevStepMeters, timeFromPrevStepSeconds
        case lanes, polylineStartIndex, polylineEndIndex
    }

    /// Decodes a step; only `stepNumber`, `maneuver` and the polyline span are required, so
    /// a driver app can send lean steps.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stepNumber = try c.decode(Int.self, forKey: .stepNumber)
        maneuver = try c.decode(Maneuver.self, forKey: .maneuver)
        fullRoadName = try c.decodeIfPresent(String.self, forKey: .fullRoadName) ?? ""
        simpleRoadName = try c.decodeIfPresent(String.self, forKey: .simpleRoadName) ?? ""
        fullInstructionText = try c.decodeIfPresent(String.self, forKey: .fullInstructionText) ?? ""
        exitNumber = try c.decodeIfPresent(String.self, forKey: .exitNumber)
        drivingSide = try c.decodeIfPresent(DrivingSide.self, forKey: .drivingSide) ?? .none
        roundaboutTurnNumber = try c.decodeIfPresent(Int.self, forKey: .roundaboutTurnNumber) ?? -1
        distanceFromPrevStepMeters = try c.decodeIfPresent(Double.self, forKey: .distanceFromPrevStepMeters) ?? 0
        timeFromPrevStepSeconds = try c.decodeIfPresent(Double.self, forKey: .timeFromPrevStepSeconds) ?? 0
        lanes = try c.decodeIfPresent([Lane].self, forKey: .lanes) ?? []
        polylineStartIndex = try c.decode(Int.self, forKey: .polylineStartIndex)
        polylineEndIndex = try c.decode(Int.self, forKey: .polylineEndIndex)
    }
}
