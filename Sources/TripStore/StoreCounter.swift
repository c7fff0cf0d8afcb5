/// A count a store keeps of its own work, exposed on `/metrics` beside the server's as a
/// Prometheus counter. The store holds the running total and `/metrics` reads it when scraped
/// (swift-prometheus' counters only add, so they cannot show a total kept elsewhere).
public struct StoreCounter: Sendable, Equatable {
    /// The counter's name (`tripshare_..._total`).
    public var name: String
    /// One line saying what it counts.
    public var help: String
    public var value: Double

    public init(name: String, help: String, value: Double) {
        self.name = name
        self.help = help
        self.value = value
    }

    /// The counters in Prometheus' text format, each with its HELP and TYPE lines.
    public static func exposition(_ counters: [StoreCounter]) -> String {
        var text = ""
        for counter in counters {
            text += "# HELP \(counter.name) \(counter.help)\n# TYPE \(counter.name) counter\n"
            // Whole numbers as integers, as swift-prometheus writes its counters.
            let value = counter.value.rounded() == counter.value && abs(counter.value) < 1e15 ? String(Int64(counter.value)) : String(counter.value)
            text += "\(counter.name) \(value)\n"
        }
        return text
    }
}
