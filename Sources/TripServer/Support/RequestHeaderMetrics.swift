import Prometheus
import Synchronization
import TripModel

/// Counts requests by the `sdkVersion`, `platform` and `osVersion` of their Fleet Engine
/// `header` (`tripshare_fleet_engine_sdk_requests_total`), so an operator sees which app
/// versions talk to the server. Clients choose these strings, so the labels are bounded: each
/// value cut to 32 characters, and past 200 combinations the rest count as "other".
final class RequestHeaderMetrics: Sendable {
    static let maximumCombinations = 200
    static let maximumValueLength = 32

    private let registry: PrometheusCollectorRegistry
    private let counters = Mutex([String: Counter]())

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    /// Counts one request that carried `header`.
    func record(_ header: RequestHeader) {
        let labels = [
            ("sdk_version", Self.label(header.sdkVersion)), ("platform", header.platform?.rawValue ?? "PLATFORM_UNSPECIFIED"),
            ("os_version", Self.label(header.osVersion)),
        ]
        let counter = counters.withLock { counters in
            let key = labels.map(\.1).joined(separator: "\u{1}")
            if let existing = counters[key] { return existing }
            let overflow = counters.count >= Self.maximumCombinations
            let kept = overflow ? [("sdk_version", "other"), ("platform", "other"), ("os_version", "other")] : labels
            let keptKey = overflow ? "\u{2}other" : key
            if let existing = counters[keptKey] { return existing }
            let made = registry.makeCounter(
                descriptor: .init(
                    metricName: "tripshare_fleet_engine_sdk_requests", unitName: "total",
                    helpText: "Requests by their Fleet Engine header's SDK version, platform and OS version"),
                labels: kept)
            counters[keptKey] = made
            return made
        }
        counter.increment()
    }

    private static func label(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "" }
        return String(value.prefix(maximumValueLength))
    }
}
