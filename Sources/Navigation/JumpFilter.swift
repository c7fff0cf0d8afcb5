// Filters GPS jumps: a fix that the vehicle could not have reached from the last accepted
// one at any road speed is held back, not taken as progress. If the following fixes carry
// on from it (a tunnel exit, a long GPS gap), the jump was real and is accepted; if they
// carry on from where the vehicle was, it is dropped.
//
// "Reachable" allows for both fixes' accuracy: distance <= maxSpeed * dt + accuracy(a) +
// accuracy(b). 70 m/s (252 km/h) is above any road vehicle's sustained speed. A fix whose
// own accuracy is worse than `maxAccuracyMeters` says too little about where the vehicle
// is to count at all, however plausible it looks.

import Foundation
import Geo

/// A filter for physically impossible GPS jumps, usable with or without a route.
public struct JumpFilter: Hashable, Codable, Sendable {
    /// The filter's limits.
    public struct Settings: Hashable, Codable, Sendable {
        /// Fastest believable speed between two fixes, m/s.
        package var maxSpeedMetersPerSecond: Double
        /// Fixes less accurate than this are ignored, metres.
        package var maxAccuracyMeters: Double
        /// Accuracy assumed for a fix that does not state one, metres.
        package var assumedAccuracyMeters: Double
        /// How many following fixes must carry on from a jump before it is accepted.
        package var confirmations: Int

        /// Creates settings; the defaults are 70 m/s, 200 m, 10 m and 2 confirmations.
        public init(
            maxSpeedMetersPerSecond: Double = 70, maxAccuracyMeters: Double = 200,
            assumedAccuracyMeters: Double = 10, confirmations: Int = 2
        ) {
            self.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
            self.maxAccuracyMeters = maxAccuracyMeters
            self.assumedAccuracyMeters = assumedAccuracyMeters
            self.confirmations = confirmations
        }
    }

    /// One location fix.
    package struct Fix: Hashable, Codable, Sendable {
        /// Where.
        package var location: LatLng
        /// When.
        package var time: Date
        /// Horizontal accuracy (radius), metres, if known.
        package var accuracyMeters: Double?

        /// Creates a fix.
        package init(location: LatLng, time: Date, accuracyMeters: Double? = nil) {
            self.location = location
            self.time = time
            self.accuracyMeters = accuracyMeters
        }
    }

    /// What the filter made of a fix.
    package enum Verdict: String, Hashable, Codable, Sendable {
        /// Reachable from the last accepted fix: use it.
        case accepted
        /// The end of a confirmed jump: use it; the vehicle really moved there.
        case relocated
        /// Unreachable so far: held back until later fixes confirm or refute it.
        case held
        /// Too inaccurate to use.
        case inaccurate
        /// Older than the last accepted fix, or not a valid position.
        case stale
    }

    /// Counts of what the filter did.
    package struct Statistics: Hashable, Codable, Sendable {
        /// Fixes accepted (including relocations).
        package var accepted = 0
        /// Jumps confirmed by following fixes.
        package var relocations = 0
        /// Held fixes dropped because the vehicle carried on from where it was.
        package var droppedJumps = 0
        /// Fixes ignored for their accuracy.
        package var inaccurate = 0
        /// Fixes ignored as out of order or invalid.
        package var stale = 0
    }

    /// The limits in force.
    package var settings: Settings
    /// The last fix taken as the vehicle's position.
    package private(set) var lastAccepted: Fix?
    /// Fixes held back, oldest first.
    package private(set) var pending: [Fix] = []
    /// What the filter has done so far.
    package private(set) var statistics = Statistics()

    /// Creates a filter.
    package init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// True when `b` can be reached from `a` within the speed limit, allowing for accuracy.
    package func isReachable(from a: Fix, to b: Fix) -> Bool {
        let dt = max(0, b.time.timeIntervalSince(a.time))
        let slack = (a.accuracyMeters ?? settings.assumedAccuracyMeters) + (b.accuracyMeters ?? settings.assumedAccuracyMeters)
        return Earth.distance(a.location, b.location) <= settings.maxSpeedMetersPerSecond * dt + slack
    }

    /// Judges the next fix and updates the filter.
    package mutating func check(_ fix: Fix) -> Verdict {
        guard fix.location.isValid, fix.time.timeIntervalSince1970.isFinite else {
            statistics.stale += 1
            return .stale
        }
        if let accuracy = fix.accuracyMeters, !(accuracy <= settings.maxAccuracyMeters) {
            statistics.inaccurate += 1
            return .inaccurate
        }
        guard let last = lastAccepted else { return accept(fix) }
        if fix.time < last.time {
            statistics.stale += 1
            return .stale
        }
        if isReachable(from: last, to: fix) {
            statistics.droppedJumps += pending.count
            pending.removeAll()
            return accept(fix)
        }
        if let previous = pending.last, isReachable(from: previous, to: fix) {
            pending.append(fix)
            if pending.count > settings.confirmations {
                pending.removeAll()
                statistics.relocations += 1
                return accept(fix, verdict: .relocated)
            }
            return .held
        }
        statistics.droppedJumps += pending.count
        pending = [fix]
        return .held
    }

    private mutating func accept(_ fix: Fix, verdict: Verdict = .accepted) -> Verdict {
        lastAccepted = fix
        statistics.accepted += 1
        return verdict
    }
}
