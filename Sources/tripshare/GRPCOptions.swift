import ArgumentParser
import ConnectionLimits
import GRPCServer
import Logging
import TripServer

/// Where the gRPC listener of Fleet Engine's services goes (DESIGN §14): `--grpc-port`
/// (env TRIPSHARE_GRPC_PORT), by default the HTTP port + 1, and 0 for none.
struct GRPCOptions: ParsableArguments {
    @Option(
        name: .customLong("grpc-port"),
        help: ArgumentHelp(
            "Port of the gRPC listener (Fleet Engine's VehicleService and TripService), on the same host; 0 turns it off "
                + "(env TRIPSHARE_GRPC_PORT; default the HTTP port + 1).", valueName: "PORT"))
    var grpcPort: Int?

    @Option(
        name: .customLong("grpc-max-streams"),
        help: ArgumentHelp(
            "Calls one gRPC connection may have open at once; clients queue the rest, and a client that opens more anyway "
                + "is disconnected (env TRIPSHARE_GRPC_MAX_STREAMS; default 100).", valueName: "N"))
    var grpcMaxStreams: Int?

    @Option(
        name: .customLong("grpc-idle-timeout"),
        help: ArgumentHelp(
            "Close a gRPC connection with no call open for this long (env TRIPSHARE_GRPC_IDLE_TIMEOUT; default 5m).",
            valueName: "DURATION"))
    var grpcIdleTimeout: TimeSpan?

    @Option(
        name: .customLong("grpc-keepalive"),
        help: ArgumentHelp(
            "Ping a gRPC connection that sends nothing for this long, and close it if the ping is not answered within as "
                + "long again: a client that stops reading is let go (env TRIPSHARE_GRPC_KEEPALIVE; default 20s).",
            valueName: "DURATION"))
    var grpcKeepalive: TimeSpan?

    @Option(
        name: .customLong("grpc-max-connection-age"),
        help: ArgumentHelp(
            "Ask a gRPC connection to go away after this long (its calls get 30s more), so clients spread over servers "
                + "again; 0 for never (env TRIPSHARE_GRPC_MAX_CONNECTION_AGE; default 1h).", valueName: "DURATION"))
    var grpcMaxConnectionAge: TimeSpan?

    /// The port to listen on, or nil for no listener; `httpPort` is the HTTP server's.
    func resolvedPort(httpPort: Int) throws -> Int? {
        let port: Int
        if let grpcPort {
            port = grpcPort
        } else if let text = ServerOptions.environment["TRIPSHARE_GRPC_PORT"], !text.isEmpty {
            guard let value = Int(text), (0...65535).contains(value) else {
                throw ValidationError("TRIPSHARE_GRPC_PORT must be a port number, got '\(text)'")
            }
            port = value
        } else {
            // HTTP on any free port (0) gets a gRPC listener on any free port too.
            port = httpPort == 0 ? 0 : httpPort + 1
            if port > 65535 { throw ValidationError("the HTTP port is 65535, so give the gRPC listener a --grpc-port") }
            return port
        }
        return port == 0 ? nil : port
    }

    /// Throws, naming the port and `--grpc-port`, when the gRPC listener's port is taken: its
    /// default, the HTTP port + 1, can be, though the HTTP port itself is free.
    func ensurePortFree(host: String, httpPort: Int) throws {
        guard let port = try resolvedPort(httpPort: httpPort) else { return }
        try StartupChecks.ensurePortFree(
            host: host, port: port, option: "--grpc-port (the gRPC listener's; 0 turns it off)")
    }

    /// The listener for `server`'s fleet, tokens and metrics on `host`, or nil when off; the
    /// server's `/readyz` then waits for it too.
    func listener(
        for server: inout TripServerApp, host: String, httpPort: Int, tls: GRPCListener.TLSFiles?, budget: ConnectionBudget,
        logger: Logger
    ) throws -> GRPCListener? {
        guard let port = try resolvedPort(httpPort: httpPort) else { return nil }
        let listener = GRPCListener(
            fleet: server.fleet, authenticator: server.authenticator, registry: server.metrics.registry, host: host, port: port,
            tls: tls, cacheBudget: server.cacheBudget, limits: try connectionLimits(), connectionBudget: budget,
            logger: logger)
        server.readinessChecks.append { listener.unreadiness }
        return listener
    }

    /// What one client connection may hold (``GRPCListener/ConnectionLimits``): the flags, else
    /// their `TRIPSHARE_GRPC_*` variables, else the standard limits.
    func connectionLimits() throws -> GRPCListener.ConnectionLimits {
        let standard = GRPCListener.ConnectionLimits.standard
        let streams = try grpcMaxStreams ?? Self.environmentCount("TRIPSHARE_GRPC_MAX_STREAMS") ?? standard.maxConcurrentStreams
        guard streams >= 1 else { throw ValidationError("--grpc-max-streams must be at least 1, got \(streams)") }
        let idle = try SecurityOptions.span(grpcIdleTimeout, "TRIPSHARE_GRPC_IDLE_TIMEOUT", "--grpc-idle-timeout")
        let keepalive = try SecurityOptions.span(grpcKeepalive, "TRIPSHARE_GRPC_KEEPALIVE", "--grpc-keepalive")
        let age = try SecurityOptions.span(grpcMaxConnectionAge, "TRIPSHARE_GRPC_MAX_CONNECTION_AGE", "--grpc-max-connection-age")
        for (span, name) in [(idle, "--grpc-idle-timeout"), (keepalive, "--grpc-keepalive")] {
            if let span, span.seconds < 1 { throw ValidationError("\(name) must be at least 1s") }
        }
        return GRPCListener.ConnectionLimits(
            maxConcurrentStreams: streams, idleTimeout: idle?.duration ?? standard.idleTimeout,
            keepalive: keepalive?.duration ?? standard.keepalive,
            maxAge: age.map { $0.seconds == 0 ? nil : $0.duration } ?? standard.maxAge)
    }

    func validate() throws {
        if let grpcPort, !(0...65535).contains(grpcPort) { throw ValidationError("--grpc-port must be between 0 and 65535") }
        _ = try connectionLimits()
    }

    private static func environmentCount(_ variable: String) throws -> Int? {
        guard let text = ServerOptions.environment[variable], !text.isEmpty else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(variable) must be a whole number, got '\(text)'") }
        return value
    }
}
