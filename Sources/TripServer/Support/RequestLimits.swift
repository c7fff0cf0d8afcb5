import JSON

/// What requests may ask of the server beyond their bytes (DESIGN §11): how many members a
/// JSON body may hold, how many event streams one token may keep open, and how many pixels a
/// second a token may have drawn.
package struct RequestLimits: Sendable, Equatable {
    /// Members a JSON body's objects may have (`--json-max-members`); beyond them the body is
    /// refused with INVALID_ARGUMENT before it is read whole.
    package var json: JSONParser.Limits
    /// Event streams one token may have open at once (`--max-streams-per-token`); one more is
    /// refused with RESOURCE_EXHAUSTED.
    package var streamsPerToken: Int
    /// Pixels a second each driver or consumer token may have drawn (`--pixel-rate`, in
    /// millions), in bursts of three seconds' worth; beyond, 429 RESOURCE_EXHAUSTED. nil: no
    /// limit.
    package var pixelsPerSecond: Double?

    /// Creates limits.
    package init(
        json: JSONParser.Limits = .standard, streamsPerToken: Int = Self.standard.streamsPerToken,
        pixelsPerSecond: Double? = Self.standard.pixelsPerSecond
    ) {
        self.json = json
        self.streamsPerToken = streamsPerToken
        self.pixelsPerSecond = pixelsPerSecond
    }

    /// 10,000 members an object (``JSONParser/Limits/standard``); 8 streams a token: a
    /// rider's app and share page in a few tabs, a driver's app that reconnected; 8 million
    /// pixels a second: a driver's screen redrawn every second at 1080×2400 with its turn card
    /// is about 3 million, and the burst of 24 million holds five maximal previews.
    package static let standard = RequestLimits(json: .standard, streamsPerToken: 8, pixelsPerSecond: 8_000_000)
}
