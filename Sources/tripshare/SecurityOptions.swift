import Access
import ArgumentParser
import TripServer

/// The server's connection timeouts, token clock skew and per-token rate limits; each flag
/// falls back to a `TRIPSHARE_*` environment variable, then to its default.
struct SecurityOptions: ParsableArguments {
    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a kept-alive connection that sends no new request, or an upload that stalls, after this long "
                + "(env TRIPSHARE_IDLE_TIMEOUT; default 75s).", valueName: "DURATION"))
    var idleTimeout: TimeSpan?

    @Option(
        name: .customLong("request-head-timeout"),
        help: ArgumentHelp(
            "Close a connection whose request line and headers take longer than this to arrive: from the "
                + "connection's start for its first request (env TRIPSHARE_REQUEST_HEAD_TIMEOUT; default 10s).",
            valueName: "DURATION"))
    var requestHeadTimeout: TimeSpan?

    @Option(
        name: .customLong("write-timeout"),
        help: ArgumentHelp(
            "Close a connection whose client takes none of its answer for this long, an event stream's included "
                + "(env TRIPSHARE_WRITE_TIMEOUT; default 30s).", valueName: "DURATION"))
    var writeTimeout: TimeSpan?

    @Option(
        name: .customLong("token-clock-skew"),
        help: ArgumentHelp(
            "Clock difference tolerated on a token's exp, nbf and iat, at most 30m (env TRIPSHARE_TOKEN_CLOCK_SKEW; default 60s).",
            valueName: "DURATION"))
    var tokenClockSkew: TimeSpan?

    @Option(
        name: .customLong("service-accounts"),
        help: ArgumentHelp(
            "JSON file of Google service accounts whose Fleet Engine–shaped tokens are accepted, each with its role, provider "
                + "and public keys (env TRIPSHARE_SERVICE_ACCOUNTS; docs/grpc.md).", valueName: "FILE"))
    var serviceAccounts: String?

    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Requests per second each driver or consumer token may make; 0 turns the limit off "
                + "(env TRIPSHARE_RATE_LIMIT; default 10).", valueName: "RATE"))
    var rateLimit: Double?

    @Option(
        name: .customLong("rate-limit-burst"),
        help: ArgumentHelp(
            "Requests a limited token may make at once after a quiet spell (env TRIPSHARE_RATE_LIMIT_BURST; default 100).",
            valueName: "COUNT"))
    var rateLimitBurst: Double?

    @Option(
        name: .customLong("server-rate-limit"),
        help: ArgumentHelp(
            "Requests per second each server token may make; 0, the default, means no limit (env TRIPSHARE_SERVER_RATE_LIMIT).",
            valueName: "RATE"))
    var serverRateLimit: Double?

    /// The connection timeouts to run with.
    func connectionTimeouts() throws -> ConnectionTimeouts {
        let standard = ConnectionTimeouts.standard
        let idle = try Self.span(idleTimeout, "TRIPSHARE_IDLE_TIMEOUT", "--idle-timeout")
        let head = try Self.span(requestHeadTimeout, "TRIPSHARE_REQUEST_HEAD_TIMEOUT", "--request-head-timeout")
        let write = try Self.span(writeTimeout, "TRIPSHARE_WRITE_TIMEOUT", "--write-timeout")
        for (span, name) in [(idle, "idle timeout"), (head, "request head timeout"), (write, "write timeout")] {
            if let span, span.seconds < 0.1 { throw ValidationError("the \(name) must be at least 100ms") }
        }
        return ConnectionTimeouts(
            idle: idle?.duration ?? standard.idle, requestHead: head?.duration ?? standard.requestHead,
            write: write?.duration ?? standard.write)
    }

    /// The token clock skew to verify with, in seconds.
    func clockSkew() throws -> Double {
        let skew =
            try Self.span(tokenClockSkew, "TRIPSHARE_TOKEN_CLOCK_SKEW", "--token-clock-skew")?.seconds
            ?? TokenAuthority.defaultClockSkew
        guard skew <= TokenAuthority.maximumClockSkew else {
            throw ValidationError("the token clock skew must be at most \(Int(TokenAuthority.maximumClockSkew / 60))m")
        }
        return skew
    }

    /// The service accounts whose Fleet Engine–shaped tokens are accepted (none by default).
    func resolvedServiceAccounts() async throws -> ServiceAccounts {
        guard let path = serviceAccounts ?? ServerOptions.environment["TRIPSHARE_SERVICE_ACCOUNTS"], !path.isEmpty else { return .none }
        do {
            return try await ServiceAccounts.load(path: path)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The per-token rate limits to run with.
    func rateLimits() throws -> TokenRateLimiter.Policy {
        let standard = TokenRateLimiter.Policy.standard.driverAndConsumer
        let rate = try Self.number(rateLimit, "TRIPSHARE_RATE_LIMIT", "--rate-limit") ?? standard?.requestsPerSecond ?? 0
        let burst = try Self.number(rateLimitBurst, "TRIPSHARE_RATE_LIMIT_BURST", "--rate-limit-burst") ?? standard?.burst ?? 1
        let server = try Self.number(serverRateLimit, "TRIPSHARE_SERVER_RATE_LIMIT", "--server-rate-limit") ?? 0
        return TokenRateLimiter.Policy(
            driverAndConsumer: rate > 0 ? .init(requestsPerSecond: rate, burst: burst) : nil,
            server: server > 0 ? .init(requestsPerSecond: server, burst: burst) : nil)
    }

    func validate() throws {
        _ = try connectionTimeouts()
        _ = try clockSkew()
        _ = try rateLimits()
    }

    /// The duration `flag` gives, else the one in the environment's `variable` (an error naming
    /// the flag `name` when it is not a duration), else nil.
    static func span(_ flag: TimeSpan?, _ variable: String, _ name: String) throws -> TimeSpan? {
        if let flag { return flag }
        guard let text = ServerOptions.environment[variable], !text.isEmpty else { return nil }
        guard let span = TimeSpan(argument: text) else {
            throw ValidationError("\(variable) must be a duration such as 500ms, 90s or 2m (as \(name)), got '\(text)'")
        }
        return span
    }

    private static func number(_ flag: Double?, _ variable: String, _ name: String) throws -> Double? {
        let value: Double
        if let flag {
            value = flag
        } else if let text = ServerOptions.environment[variable], !text.isEmpty {
            guard let parsed = Double(text) else { throw ValidationError("\(variable) must be a number (as \(name)), got '\(text)'") }
            value = parsed
        } else {
            return nil
        }
        guard value.isFinite, value >= 0 else { throw ValidationError("\(name) must be a number of at least 0, got \(value)") }
        return value
    }
}
