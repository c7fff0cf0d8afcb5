import ArgumentParser
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
        for server: inout TripServerApp, host: String, httpPort: Int, tls: GRPCListener.TLSFiles?, logger: Logger
    ) throws -> GRPCListener? {
        guard let port = try resolvedPort(httpPort: httpPort) else { return nil }
        let listener = GRPCListener(
            fleet: server.fleet, authenticator: server.authenticator, registry: server.metrics.registry, host: host, port: port,
            tls: tls, cacheBudget: server.cacheBudget, logger: logger)
        server.readinessChecks.append { listener.unreadiness }
        return listener
    }

    func validate() throws {
        if let grpcPort, !(0...65535).contains(grpcPort) { throw ValidationError("--grpc-port must be between 0 and 65535") }
    }
}
