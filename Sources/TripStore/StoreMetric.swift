/// A figure a store keeps about its own work, exposed on `/metrics` beside the server's:
/// Prometheus' counter or gauge, read when the metrics are scraped.
public struct StoreMetric: Sendable, Equatable {
    /// Prometheus' kinds that a store reports.
    public enum Kind: String, Sendable {
        case counter, gauge
    }

    /// The metric's name (`tripshare_...`; a counter's ends in `_total`).
    public var name: String
    /// One line saying what it counts.
    public var help: String
    public var kind: Kind
    public var value: Double

    public init(name: String, help: String, kind: Kind, value: Double) {
        self.name = name
        self.help = help
        self.kind = kind
        self.value = value
    }

    /// The metrics in Prometheus' text format, each with its HELP and TYPE lines.
    public static func exposition(_ metrics: [StoreMetric]) -> String {
        var text = ""
        for metric in metrics {
            text += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.kind.rawValue)\n"
            // Whole numbers as integers, as swift-prometheus writes its counters.
            let value = metric.value.rounded() == metric.value && abs(metric.value) < 1e15 ? String(Int64(metric.value)) : String(metric.value)
            text += "\(metric.name) \(value)\n"
        }
        return text
    }
}
