import FleetEngineProtos
import Foundation
import GRPCCore
import NIOCore
import NIOPosix
import SwiftProtobuf
import Testing

/// Calls their clients reset are counted in `/metrics` like any other (issue 27).
@Suite struct ResetCallTests {
    /// Five GetVehicle calls, each sent whole and reset by its client in the same write, before
    /// the server could answer: grpc-swift's first write for each fails, and the calls were
    /// never counted. Now each is counted once, as CANCELLED; a method the services do not have
    /// is still not a label.
    @Test func resetCallsAreCounted() async throws {
        try await GRPCHarness.run { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            let token = try #require(server[stringValues: "authorization"].first(where: { _ in true }))
            let request: [UInt8] = try Wire.getVehicle("v1").serializedBytes()
            try await RawHTTP2.resetCalls(
                port: h.port,
                paths: Array(repeating: "/maps.fleetengine.v1.VehicleService/GetVehicle", count: 5)
                    + ["/maps.fleetengine.v1.VehicleService/TeleportVehicle"],
                authorization: token, message: request)

            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(20), Self.count(h.metrics, method: "GetVehicle") < 5 {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(Self.count(h.metrics, method: "GetVehicle") == 5, "every reset call is counted once: \(h.metrics)")
            #expect(h.metrics.contains(#"tripshare_grpc_requests_total{method="maps.fleetengine.v1.VehicleService/GetVehicle",code="CANCELLED"}"#))
            #expect(!h.metrics.contains("TeleportVehicle"), "a method no service has is no label")
            // The listener goes on answering.
            let answer = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: server)
            #expect(answer.name == "providers/p/vehicles/v1")
        }
    }

    /// The calls of `method` (VehicleService) counted in `metrics`, whatever their code.
    private static func count(_ metrics: String, method: String) -> Int {
        metrics.split(separator: "\n").filter {
            $0.hasPrefix(#"tripshare_grpc_requests_total{method="maps.fleetengine.v1.VehicleService/\#(method)""#)
        }.reduce(0) { $0 + (Int(Double($1.split(separator: " ").last ?? "") ?? 0)) }
    }
}

/// HTTP/2 written by hand: what a gRPC client library never sends in one go.
enum RawHTTP2 {
    /// Opens a connection to `port` and, in a single write, starts one call for each of
    /// `paths` with `authorization` and `message`, and resets each (`RST_STREAM CANCEL`) right
    /// after its message; then keeps the connection open a moment so that the server reads it
    /// all.
    static func resetCalls(port: Int, paths: [String], authorization: String, message: [UInt8]) async throws {
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        bytes += frame(type: 0x4, flags: 0, stream: 0, []) // SETTINGS, none changed
        for (index, path) in paths.enumerated() {
            let stream = UInt32(2 * index + 1)
            var block: [UInt8] = []
            for (name, value) in [
                (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                ("content-type", "application/grpc"), ("te", "trailers"), ("authorization", authorization),
            ] {
                // A literal field without indexing, its name new (RFC 7541 §6.2.2), no Huffman.
                block.append(0)
                block += hpackLength(name.utf8.count) + Array(name.utf8)
                block += hpackLength(value.utf8.count) + Array(value.utf8)
            }
            bytes += frame(type: 0x1, flags: 0x4, stream: stream, block) // HEADERS, END_HEADERS
            let length = UInt32(message.count)
            let grpcMessage = [0, UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + message
            bytes += frame(type: 0x0, flags: 0x1, stream: stream, grpcMessage) // DATA, END_STREAM
            bytes += frame(type: 0x3, flags: 0, stream: stream, [0, 0, 0, 0x8]) // RST_STREAM CANCEL
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        try await Task.sleep(for: .seconds(1))
        try await channel.close()
    }

    private static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [
            UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
            UInt8(stream >> 24 & 0x7f), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff),
        ] + payload
    }

    /// A string's length as HPACK writes it: a 7-bit prefix, continued in 7-bit groups.
    private static func hpackLength(_ length: Int) -> [UInt8] {
        guard length >= 127 else { return [UInt8(length)] }
        var rest = length - 127
        var bytes: [UInt8] = [127]
        while rest >= 128 {
            bytes.append(UInt8(rest & 0x7f | 0x80))
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }
}
