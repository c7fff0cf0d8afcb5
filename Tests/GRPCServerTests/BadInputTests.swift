import FleetEngineProtos
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

/// What reaches the gRPC port that is not a good call (DESIGN §14): each gets a clear status,
/// changes nothing, and the listener goes on serving.
@Suite struct BadInputTests {
    /// A message over REST's byte limit (2 MiB) is refused RESOURCE_EXHAUSTED naming the
    /// limit, before it is decoded, and changes nothing. Beyond the transport's own cap
    /// (8 MiB) it resets the stream instead: the client sees UNAVAILABLE, and still nothing
    /// changes.
    @Test func oversizedMessage() async throws {
        try await GRPCHarness.run { h in
            for (megabytes, code, message) in [(3, RPCError.Code.resourceExhausted, "larger than 2097152 bytes"), (9, .unavailable, "")] {
                var request = Wire.createVehicle("big")
                request.vehicle.attributes[0].value = String(repeating: "x", count: megabytes << 20)
                let bytes: [UInt8] = try request.serializedBytes()
                try await expectRaw(h, "VehicleService", "CreateVehicle", bytes, code, message)
            }
            try await expectServing(h, unchanged: "big")
        }
    }

    /// A message cut short in the middle of a field is INVALID_ARGUMENT, not INTERNAL.
    @Test func truncatedMessage() async throws {
        try await GRPCHarness.run { h in
            let bytes: [UInt8] = try Wire.createVehicle("cut").serializedBytes()
            try await expectRaw(h, "VehicleService", "CreateVehicle", Array(bytes.prefix(bytes.count - 3)), .invalidArgument, "deserialize")
            try await expectServing(h, unchanged: "cut")
        }
    }

    /// Bytes that are no message at all (a field of wire type 7, which does not exist).
    @Test func garbage() async throws {
        try await GRPCHarness.run { h in
            try await expectRaw(h, "TripService", "CreateTrip", [0x0F, 0xFF, 0xFF, 0xFF], .invalidArgument, "deserialize")
            try await expectServing(h, unchanged: "v")
        }
    }

    /// A caller without a valid token is refused UNAUTHENTICATED before its bytes are decoded:
    /// the same garbage that a server token's call gets INVALID_ARGUMENT for (it is decoded),
    /// and a message far over the size limit, are answered for what is wrong with the token.
    @Test func tokenCheckedBeforeDecoding() async throws {
        try await GRPCHarness.run { h in
            let garbage: [UInt8] = [0x0F, 0xFF, 0xFF, 0xFF]
            for method in ["CreateTrip", "GetTrip", "UpdateTrip"] {
                try await expectRaw(h, "TripService", method, garbage, .unauthenticated, "missing 'authorization", metadata: [:])
                try await expectRaw(
                    h, "TripService", method, garbage, .unauthenticated, "", metadata: ["authorization": "Bearer not.a.token"])
                try await expectRaw(h, "TripService", method, garbage, .invalidArgument, "deserialize")
            }
            var big = Wire.createVehicle("big")
            big.vehicle.attributes[0].value = String(repeating: "x", count: 3 << 20)
            try await expectRaw(
                h, "VehicleService", "CreateVehicle", try big.serializedBytes(), .unauthenticated, "Bearer <token>",
                metadata: ["authorization": "Basic dXNlcjpwYXNz"])
            let counted = #"tripshare_grpc_requests_total{method="maps.fleetengine.v1.TripService/GetTrip",code="UNAUTHENTICATED"} 2"#
            #expect(h.metrics.contains(counted), "refusals are counted as the method's")
            try await expectServing(h, unchanged: "big")
        }
    }

    /// A method neither service has is UNIMPLEMENTED.
    @Test func unknownMethod() async throws {
        try await GRPCHarness.run { h in
            try await expectRaw(h, "VehicleService", "TeleportVehicle", [], .unimplemented, "")
            try await expectServing(h, unchanged: "v")
        }
    }

    /// A request that is not gRPC (another content type) is answered 415 Unsupported Media
    /// Type, as gRPC's HTTP/2 mapping says, and the listener goes on.
    @Test func wrongContentType() async throws {
        try await GRPCHarness.run { h in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = [
                "--silent", "--http2-prior-knowledge", "--max-time", "5", "--output", "/dev/null", "--write-out", "%{http_code}",
                "--header", "content-type: application/json", "--data", #"{"name": "providers/p/vehicles/v"}"#,
                "http://127.0.0.1:\(h.port)/maps.fleetengine.v1.VehicleService/GetVehicle",
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(status == "415", "curl answered '\(status)', exit \(process.terminationStatus)")
            try await expectServing(h, unchanged: "v")
        }
    }

    /// Calls `service/method` with `bytes` as the message and `metadata` (by default a server
    /// token's), which must fail with `code`.
    private func expectRaw(
        _ h: GRPCHarness, _ service: String, _ method: String, _ bytes: [UInt8], _ code: RPCError.Code, _ message: String,
        metadata given: Metadata? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let descriptor = MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.\(service)", method: method)
        var metadata = given ?? [:]
        if given == nil { metadata = try await h.auth(h.server) }
        await expectStatus(code, message, sourceLocation: sourceLocation) {
            _ = try await h.client.unary(
                request: ClientRequest(message: bytes, metadata: metadata), descriptor: descriptor, serializer: RawBytes(),
                deserializer: RawBytes(), options: .defaults
            ) { response in try response.message }
        }
    }

    /// The listener still answers, and the vehicle `id` was not created.
    private func expectServing(_ h: GRPCHarness, unchanged id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let server = try await h.auth(h.server)
        await expectStatus(.notFound, id, sourceLocation: sourceLocation) {
            _ = try await h.vehicles.getVehicle(Wire.getVehicle(id), metadata: server)
        }
        let created = try await h.vehicles.createVehicle(Wire.createVehicle("after"), metadata: server)
        #expect(created.name == "providers/p/vehicles/after", sourceLocation: sourceLocation)
    }
}

/// Messages as their bytes, either way.
private struct RawBytes: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
