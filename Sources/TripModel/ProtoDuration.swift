// Durations as the protobuf JSON mapping writes them: seconds with an "s" suffix ("53.5s").

/// A length of time coded as `"12.5s"` (protobuf `google.protobuf.Duration` in JSON).
package struct ProtoDuration: Hashable, Comparable, Sendable {
    /// The length in seconds; may be fractional, never NaN.
    package var seconds: Double

    /// Creates a duration of `seconds`.
    package init(seconds: Double) { self.seconds = seconds }

    /// Parses `"12.5s"`, `"-3s"`, `"0.000001s"`; nil for anything else.
    package init?(text: String) {
        guard text.hasSuffix("s"), let value = Double(text.dropLast()), value.isFinite,
            text.first != "+", !text.dropLast().contains(where: { $0 == "e" || $0 == "E" })
        else { return nil }
        seconds = value
    }

    /// The JSON form: whole seconds without a fraction, otherwise up to 9 fractional
    /// digits with trailing zeros trimmed (`"53s"`, `"53.076652s"`).
    package var text: String {
        let clamped = max(-9e9, min(9e9, seconds))
        let nanos = Int64((clamped * 1_000_000_000).rounded())
        let sign = nanos < 0 ? "-" : ""
        let magnitude = nanos.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = magnitude % 1_000_000_000
        if fraction == 0 { return "\(sign)\(whole)s" }
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let fractionText = String(fraction)
        let padding = String(repeating: "0", count: digits - fractionText.count)
        return "\(sign)\(whole).\(padding)\(fractionText)s"
    }

    package static func < (a: ProtoDuration, b: ProtoDuration) -> Bool { a.seconds < b.seconds }
}

extension ProtoDuration: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = ProtoDuration(text: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(40))' is not a duration such as \"12.5s\"")
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
