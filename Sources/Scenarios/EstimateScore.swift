// Remaining-time estimates measured against the moment the vehicle really arrived
// (FleetLogLegs): ours beside the driver app's own, which is the anchor to beat, never the
// target. Only updates with at least `minimumSeconds` to go are scored: in the last minute
// the error is mostly how the arrival is signalled, not how the way is estimated.

import Geo
import TripModel

/// How far remaining-time estimates were from the truth, per leg and overall.
package struct EstimateScore: Codable, Sendable {
    /// Updates with less than this many seconds to go are not scored.
    package static let minimumSeconds = 60.0

    /// One location update inside a leg.
    package struct Sample: Codable, Sendable {
        /// The leg (index into ``legs``).
        package var leg: Int
        /// Seconds from the update to the arrival (the truth).
        package var actualSeconds: Double
        /// Our remaining time; nil when we gave none.
        package var ours: Double?
        /// The driver app's remaining time in the same update; nil when it sent none.
        package var driver: Double?

        /// Creates a sample.
        package init(leg: Int, actualSeconds: Double, ours: Double?, driver: Double?) {
            self.leg = leg
            self.actualSeconds = actualSeconds
            self.ours = ours
            self.driver = driver
        }
    }

    /// Errors of one set of estimates (estimate minus truth).
    package struct Errors: Codable, Sendable, Equatable {
        /// Estimates measured.
        package var count: Int
        /// Mean absolute error, seconds.
        package var meanAbsolute: Double
        /// Median absolute error, seconds.
        package var medianAbsolute: Double
        /// Mean absolute error as a share of the truth (0.1 is 10%).
        package var meanAbsolutePercentage: Double
        /// Mean error, seconds: negative when the estimates are too short.
        package var bias: Double

        /// The errors of `pairs` (estimate, truth); nil when there are none.
        package init?(_ pairs: [(estimate: Double, actual: Double)]) {
            guard !pairs.isEmpty else { return nil }
            let errors = pairs.map { $0.estimate - $0.actual }
            let absolute = errors.map(abs).sorted()
            let n = Double(pairs.count)
            count = pairs.count
            meanAbsolute = absolute.reduce(0, +) / n
            let middle = absolute.count / 2
            medianAbsolute = absolute.count % 2 == 1 ? absolute[middle] : (absolute[middle - 1] + absolute[middle]) / 2
            meanAbsolutePercentage = pairs.map { abs($0.estimate - $0.actual) / $0.actual }.reduce(0, +) / n
            bias = errors.reduce(0, +) / n
        }
    }

    /// The score of a group of updates (a leg, or all of them).
    package struct Group: Codable, Sendable {
        /// Updates scored (at least ``EstimateScore/minimumSeconds`` to go).
        package var updates: Int
        /// Share of them we gave an estimate on.
        package var ourShare: Double
        /// Ours on every scored update we gave an estimate on.
        package var ours: Errors?
        /// The driver app's on every scored update it sent one on.
        package var driver: Errors?
        /// Ours on the updates where both gave one: the comparison that counts.
        package var oursWhereBoth: Errors?
        /// The driver app's on the same updates.
        package var driverWhereBoth: Errors?

        init(_ samples: [Sample]) {
            let scored = samples.filter { $0.actualSeconds >= EstimateScore.minimumSeconds }
            updates = scored.count
            let mine = scored.compactMap { s in s.ours.map { (estimate: $0, actual: s.actualSeconds) } }
            ourShare = scored.isEmpty ? 0 : Double(mine.count) / Double(scored.count)
            ours = Errors(mine)
            driver = Errors(scored.compactMap { s in s.driver.map { (estimate: $0, actual: s.actualSeconds) } })
            let both = scored.filter { $0.ours != nil && $0.driver != nil }
            oursWhereBoth = Errors(both.map { (estimate: $0.ours ?? 0, actual: $0.actualSeconds) })
            driverWhereBoth = Errors(both.map { (estimate: $0.driver ?? 0, actual: $0.actualSeconds) })
        }
    }

    /// A leg and its score.
    package struct LegScore: Codable, Sendable {
        /// The vehicle.
        package var vehicleId: String
        /// The log time of its first update.
        package var start: Timestamp
        /// The log time it arrived.
        package var arrival: Timestamp
        /// What showed the arrival.
        package var arrivalSign: String
        /// Where it arrived.
        package var place: LatLng?
        /// Its score.
        package var score: Group
    }

    /// Every leg, in order of arrival.
    package var legs: [LegScore]
    /// All legs together.
    package var overall: Group

    /// The score of `samples` over `legs`.
    package init(legs: [FleetLogLegs.Leg], samples: [Sample]) {
        self.legs = legs.enumerated().map { index, leg in
            LegScore(
                vehicleId: leg.vehicleId, start: leg.start, arrival: leg.arrival, arrivalSign: leg.sign.description, place: leg.place,
                score: Group(samples.filter { $0.leg == index }))
        }
        overall = Group(samples)
    }
}
