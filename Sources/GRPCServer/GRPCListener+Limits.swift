import ConnectionLimits
import GRPCNIOTransportHTTP2
import NIOCore

extension GRPCListener {
    /// What one client connection to the gRPC listener may hold, set on purpose rather than
    /// left to the transport's defaults (issue 29: no client can hold the server). A client
    /// that stops reading holds at most `maxConcurrentStreams` calls, each with at most one
    /// request message and one answer in memory, until the keepalive closes its connection.
    package struct ConnectionLimits: Sendable, Hashable {
        /// Calls one connection may have open at once, advertised to the client
        /// (`SETTINGS_MAX_CONCURRENT_STREAMS`), so gRPC clients queue their further calls. A
        /// client that opens more anyway has its connection closed (HTTP/2 `GOAWAY`); the
        /// transport would otherwise enforce 100 without saying so.
        package var maxConcurrentStreams: Int
        /// A connection with no call open for this long is asked to go away (`GOAWAY`);
        /// gRPC clients reconnect when they next call.
        package var idleTimeout: Duration
        /// A connection that sends nothing for this long is pinged, and closed (a reset) if the
        /// ping is not answered within as long again: a client that stops reading is let go.
        package var keepalive: Duration
        /// A connection is asked to go away after this long, and closed ``graceTime`` later
        /// whatever it still has open; nil for no age limit.
        package var maxAge: Duration?

        /// How long calls in flight on a connection asked to go away (its age or the server's
        /// shutdown) may take to finish.
        package static let graceTime: Duration = .seconds(30)
        /// The HTTP/2 flow-control window of each stream and of the connection, in bytes: what
        /// a client may send before the server has taken it. HTTP/2's own 64 KiB: a request is
        /// usually under a kilobyte, and a large one (up to ``GRPCListener/maximumRequestBytes``)
        /// only takes a few more round trips.
        package static let flowControlWindow = 65_535

        /// Limits as given.
        package init(maxConcurrentStreams: Int, idleTimeout: Duration, keepalive: Duration, maxAge: Duration?) {
            self.maxConcurrentStreams = maxConcurrentStreams
            self.idleTimeout = idleTimeout
            self.keepalive = keepalive
            self.maxAge = maxAge
        }

        /// The defaults of `serve`: 100 calls at once per connection (what Google's own front
        /// ends allow), idle connections closed after 5 minutes, silent ones pinged after 20 s,
        /// and connections renewed hourly so that clients spread over servers again.
        package static let standard = ConnectionLimits(
            maxConcurrentStreams: 100, idleTimeout: .seconds(300), keepalive: .seconds(20), maxAge: .seconds(3_600))

        /// The transport's configuration with these limits and a request cap of `requestBytes`:
        /// each connection is closed after two keepalives of silence (``SilenceGuard``), and,
        /// with a `budget`, takes a regular place in it (shared with the HTTP server's) or is
        /// closed at once; the request bytes of one connection's open calls stay within
        /// `requestBytesPerConnection` (``RequestBytesBudget``).
        func transportConfig(
            requestBytes: Int, requestBytesPerConnection: Int, budget: ConnectionBudget?
        ) -> HTTP2ServerTransport.Posix.Config {
            // The reserve beyond the maximum is for HTTP's health probes; gRPC has none.
            let admit: (@Sendable (any Channel) -> Bool)? =
                if let budget { { channel in budget.admit(channel) == .admitted } } else { nil }
            return .listener(
                maxConcurrentStreams: maxConcurrentStreams, idleTimeout: idleTimeout, keepalive: keepalive, maxAge: maxAge,
                graceTime: Self.graceTime, flowControlWindow: Self.flowControlWindow, requestBytes: requestBytes,
                requestBytesPerConnection: requestBytesPerConnection, admit: admit)
        }
    }
}
