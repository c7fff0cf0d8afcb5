/// How long a connection may sit without making progress (DESIGN §11): connections the HTTP
/// layer rejects are closed, idle ones, slow request heads and answers the client does not
/// take time out.
package struct ConnectionTimeouts: Sendable, Equatable {
    /// How long a kept-alive connection may wait for its next request, and an upload may
    /// stall, before the connection is closed.
    package var idle: Duration
    /// How long a request head may take to arrive whole: from the connection's start for its
    /// first request, from the head's first byte for later ones.
    package var requestHead: Duration
    /// After a rejected request's 400, the rest of what the client sends is read and dropped
    /// (so that it reads the answer instead of a reset) until it has sent nothing for this
    /// long, at most ``lingerLimit``; then the connection is closed.
    package var linger: Duration
    /// The longest a rejected connection is read and dropped from.
    package var lingerLimit: Duration
    /// How long the client may leave an answer untaken: while the connection's outgoing buffer
    /// is full (the client reads nothing, or too little to make room) for this long, the
    /// connection is closed. An event stream's client that stops reading is closed this way.
    package var write: Duration

    /// Creates timeouts.
    package init(
        idle: Duration = Self.standard.idle, requestHead: Duration = Self.standard.requestHead,
        linger: Duration = Self.standard.linger, lingerLimit: Duration = Self.standard.lingerLimit,
        write: Duration = Self.standard.write
    ) {
        self.idle = idle
        self.requestHead = requestHead
        self.linger = linger
        self.lingerLimit = lingerLimit
        self.write = write
    }

    /// 75 s idle: longer than the 60 s idle timeout of common load balancers, so that they,
    /// not we, close the connections they pool (closing under them races their next request);
    /// a driver app reporting every few seconds keeps its connection. 10 s for a request
    /// head: a real client sends its head in one packet (at most a few KB), and 10 s outlasts
    /// several retransmissions on a poor mobile link. Lingering as nginx does: until 2 s
    /// without a byte, at most 30 s (a 5 MB body takes that long at about 1.3 Mbit/s). 30 s
    /// for an answer to start draining: a phone that lost its signal for a while gets it, a
    /// client that never reads holds its buffers no longer.
    package static let standard = ConnectionTimeouts(
        idle: .seconds(75), requestHead: .seconds(10), linger: .seconds(2), lingerLimit: .seconds(30), write: .seconds(30))

    /// The timeouts of a connection let in only for a health probe (beyond the connection
    /// budget's maximum): its head must come within 2 s, as a probe's does.
    var forHealthProbe: ConnectionTimeouts {
        var probe = self
        probe.requestHead = min(requestHead, .seconds(2))
        probe.idle = min(idle, .seconds(2))
        return probe
    }
}
