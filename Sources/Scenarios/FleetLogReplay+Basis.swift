// What our estimates inside the legs rested on, for the replay's printout (docs/estimates.md,
// "Scored against what really happened"): per way of making them, how often the basemap
// covered the way and where a straight line's detour came from.

import Foundation
import TripModel

extension FleetLogReplay.Report {
    /// One line per way our estimates inside legs were made, in a fixed order; empty when no
    /// update inside a leg had one of ours.
    package var basisTable: [String] {
        let inLegs = estimates.filter { $0.leg != nil && $0.timeSeconds != nil }
        var lines: [String] = []
        for method in EstimateMethod.allCases {
            let samples = inLegs.filter { $0.method == method }
            guard !samples.isEmpty else { continue }
            var parts = ["\(method.rawValue) on \(samples.count) updates inside legs"]
            let coverages = samples.compactMap { $0.basis?.roadClassCoverage }
            switch method {
            case .straightLine:
                let mapped = coverages.filter { $0 > 0 }.count
                parts.append("the map's roads set the pace on \(mapped), not on \(samples.count - mapped)")
                let fleet = samples.filter { $0.basis?.detourSource == .fleet }
                let factors = fleet.compactMap { $0.basis?.detourFactor }
                parts.append(
                    factors.isEmpty
                        ? "detour \(Estimation.detourFactor) (the constant) on all"
                        : String(
                            format: "the fleet's detour on %d (%.2f–%.2f), the constant %.1f on %d", fleet.count, factors.min() ?? 0,
                            factors.max() ?? 0, Estimation.detourFactor, samples.count - fleet.count))
            case .routeSegment:
                parts.append(
                    coverages.isEmpty
                        ? "no road class from a basemap"
                        : String(
                            format: "road class known for %.0f%% of the route on average (%d updates with a basemap)",
                            100 * coverages.reduce(0, +) / Double(coverages.count), coverages.count))
            case .driver, .navigator:
                break
            }
            lines.append("ours: " + parts.joined(separator: "; "))
        }
        return lines
    }
}
