import Geo

/// The roads the operator's map has near the straight line from a vehicle to a stop no route
/// leads to (DESIGN §5, an estimate whenever a vehicle has a trip): the metres of road of each
/// class within a corridor of the line. A way through the corridor is taken to drive its
/// classes in the proportions they are there, each at its typical pace with lights and stop
/// signs (``RoadClass/typicalSecondsPerMeter``).
public struct RoadMix: Hashable, Sendable {
    /// Metres of road of each class in the corridor.
    package var meters: [RoadClass: Double]

    /// A mix of `meters` of road per class.
    package init(meters: [RoadClass: Double] = [:]) {
        self.meters = meters
    }

    /// Metres of road of any class.
    package var totalMeters: Double { meters.values.reduce(0, +) }

    /// Seconds per metre of a way through the corridor; nil when the map has less than
    /// ``Estimation/roadMixMinimumMeters`` of road there (no tile, or open country).
    package var secondsPerMeter: Double? {
        let total = totalMeters
        guard total >= Estimation.roadMixMinimumMeters else { return nil }
        return meters.reduce(0) { $0 + $1.value / total * $1.key.typicalSecondsPerMeter }
    }
}
