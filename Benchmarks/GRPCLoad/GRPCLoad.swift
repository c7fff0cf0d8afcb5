import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Synchronization

/// A small gRPC load client for tripshare's listener (`Benchmarks/Load/grpc-load-test`): the calls
/// `Benchmarks/Load/load-test` makes over REST, over gRPC with the same data and tokens.
///
///     GRPCLoad update PORT SECONDS SERVER_TOKEN_FILE VEHICLES [CONNECTIONS] [CONCURRENCY]
///     GRPCLoad get    PORT SECONDS CONSUMER_TOKENS_FILE      [CONNECTIONS] [CONCURRENCY]
///
/// `update` moves random vehicles `v0...` of provider `load` along their seeded routes
/// (UpdateVehicle, mask `last_location`) with the server token; `get` reads random trips in
/// the JOURNEY_SHARING_V1S view (GetTrip), each with its own consumer token. CONCURRENCY calls
/// (default 64, as wrk's connections) are in flight at once over CONNECTIONS HTTP/2
/// connections (default 2). Prints one line: the rate, latency percentiles and any failures.
@main
struct GRPCLoad {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 5, let port = Int(arguments[2]), let seconds = Double(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: GRPCLoad update|get PORT SECONDS TOKENS [VEHICLES] [CONNECTIONS] [CONCURRENCY]\n".utf8))
            exit(2)
        }
        let mode = arguments[1]
        let tokens = try String(contentsOfFile: arguments[4], encoding: .utf8).split(separator: "\n").map(String.init)
        let rest = arguments.dropFirst(mode == "update" ? 6 : 5).compactMap { Int($0) }
        let connections = rest.first ?? 2
        let concurrency = rest.dropFirst().first ?? 64
        let calls: Calls
        switch mode {
        case "update":
            guard arguments.count >= 6, let vehicles = Int(arguments[5]), let token = tokens.last else { exit(2) }
            calls = .update(token: token, vehicles: vehicles)
        case "get":
            let entries = tokens.compactMap { line -> (String, String)? in
                let parts = line.split(separator: " ")
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }
            calls = .get(entries)
        default:
            exit(2)
        }
        let report = try await run(calls, port: port, seconds: seconds, connections: connections, concurrency: concurrency)
        print(report)
    }

    /// What each call sends.
    enum Calls: Sendable {
        case update(token: String, vehicles: Int)
        case get([(trip: String, token: String)])

        var descriptor: MethodDescriptor {
            switch self {
            case .update: MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.VehicleService", method: "UpdateVehicle")
            case .get: MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.TripService", method: "GetTrip")
            }
        }

        /// The `step`th request of a worker: its bytes and token.
        func request(step: Int) -> ([UInt8], String) {
            switch self {
            case .update(let token, let vehicles):
                // The route load_seed.py gave vehicle i, as Benchmarks/Load/wrk_put_vehicle.lua walks it.
                let i = Int.random(in: 0..<vehicles)
                let along = Double(step % 499)
                let latitude = 37.3 + Double(i % 100) * 0.002 + along * 0.00002
                let longitude = -122.1 + Double(i / 100) * 0.002 + 0.00001 * sin(along / 7)
                return (WireBytes.updateLocation(name: "providers/load/vehicles/v\(i)", latitude: latitude, longitude: longitude), token)
            case .get(let entries):
                let entry = entries[Int.random(in: 0..<entries.count)]
                return (WireBytes.getTrip(name: "providers/load/trips/\(entry.trip)"), entry.token)
            }
        }
    }

    static func run(_ calls: Calls, port: Int, seconds: Double, connections: Int, concurrency: Int) async throws -> String {
        let clients = try (0..<connections).map { _ in
            GRPCClient(
                transport: try HTTP2ClientTransport.Posix(
                    target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext))
        }
        let failures = FailureCounts()
        let start = ContinuousClock.now
        let end = start + .seconds(seconds)
        var latencies: [Double] = []
        try await withThrowingTaskGroup(of: Void.self) { connectionsGroup in
            for client in clients { connectionsGroup.addTask { try await client.runConnections() } }
            latencies = await withTaskGroup(of: [Double].self) { workers in
                for worker in 0..<concurrency {
                    let client = clients[worker % clients.count]
                    workers.addTask {
                        var mine: [Double] = []
                        var step = worker
                        while ContinuousClock.now < end {
                            let (bytes, token) = calls.request(step: step)
                            step += 1
                            let began = ContinuousClock.now
                            do {
                                _ = try await client.unary(
                                    request: ClientRequest(message: bytes, metadata: ["authorization": "Bearer \(token)"]),
                                    descriptor: calls.descriptor, serializer: RawSerializer(), deserializer: SizeDeserializer(),
                                    options: .defaults
                                ) { response in try response.message }
                                let took = ContinuousClock.now - began
                                mine.append(Double(took.components.seconds) * 1e3 + Double(took.components.attoseconds) * 1e-15)
                            } catch let error as RPCError {
                                failures.counts.withLock { $0["\(error.code)", default: 0] += 1 }
                            } catch {
                                failures.counts.withLock { $0["\(error)", default: 0] += 1 }
                            }
                        }
                        return mine
                    }
                }
                return await workers.reduce(into: []) { $0 += $1 }
            }
            for client in clients { client.beginGracefulShutdown() }
            try await connectionsGroup.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        latencies.sort()
        func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        let failed = failures.counts.withLock { $0 }
        return String(
            format: "%d requests in %.1f s: %.0f requests/s; latency p50 %.2f ms, p99 %.2f ms%@", latencies.count, wall,
            Double(latencies.count) / wall, percentile(0.5), percentile(0.99), failed.isEmpty ? "" : "; failures: \(failed)")
    }
}

/// Failed calls by reason, shared by the workers (a class, so that each worker's task holds a
/// reference rather than a copy of a lock).
final class FailureCounts: Sendable {
    let counts = Mutex([String: Int]())
}
