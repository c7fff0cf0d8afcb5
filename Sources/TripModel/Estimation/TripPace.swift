/// How the vehicle has been driving its current trip against the model: the seconds it took
/// for the stretches of route it covered while under way, and the seconds the model gave
/// them. Their ratio, pulled towards 1 by ``Estimation/ownPacePriorSeconds``, scales the
/// model's time for the rest of a route where it lies beyond ``Estimation/ownPaceDeadBand``
/// (a vehicle much slower or faster than its type), and all of it on a straight line
/// (``lineRatio``).
package struct TripPace: Codable, Hashable, Sendable {
    /// The trip of the stop the vehicle was heading for.
    package var tripId: String
    /// Seconds the vehicle took.
    package var observedSeconds: Double
    /// Seconds the model gave the same stretches.
    package var modelSeconds: Double

    /// A pace with nothing observed yet.
    package init(tripId: String) {
        self.tripId = tripId
        observedSeconds = 0
        modelSeconds = 0
    }

    /// The factor for the model's remaining time: 1 within the dead band, beyond it what lies
    /// beyond (continuous at its edges), at most ``Estimation/ownPaceMaximumFactor``.
    package var ratio: Double {
        let prior = Estimation.ownPacePriorSeconds
        let observed = (observedSeconds + prior) / (modelSeconds + prior)
        let band = Estimation.ownPaceDeadBand
        let limit = Estimation.ownPaceMaximumFactor
        if observed > band { return min(limit, observed / band) }
        if observed < 1 / band { return max(1 / limit, observed * band) }
        return 1
    }

    /// The factor for the model's remaining time on a straight line to a stop no route is
    /// known for: the observed ratio itself, without the dead band, at most
    /// ``Estimation/ownPaceMaximumFactor`` either way. There the model knows only the roads
    /// near the line as an average (``LinePace``), and the vehicle's pace on the roads it has
    /// just driven in the same area is a sample of that same average, not of other roads.
    package var lineRatio: Double {
        let prior = Estimation.ownPacePriorSeconds
        let observed = (observedSeconds + prior) / (modelSeconds + prior)
        return min(Estimation.ownPaceMaximumFactor, max(1 / Estimation.ownPaceMaximumFactor, observed))
    }
}
