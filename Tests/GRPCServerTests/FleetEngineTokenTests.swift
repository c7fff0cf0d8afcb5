import Access
import FleetEngineProtos
import Foundation
import GRPCCore
import JWTKit
import StoreVariants
import Testing
import TripModel

/// Tokens minted the way Fleet Engine users mint them, over gRPC (DESIGN §4): a listed
/// service account's token works with its account's role, on every store.
@Suite struct FleetEngineTokenTests {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var authorization: [String: String]
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A service account's key pair, made with openssl as `gcloud iam service-accounts keys
    /// create` would give one; the accounts file lists its certificate by key ID.
    static func makeAccount(_ name: String, role: String, in directory: URL) throws -> (email: String, key: String, listing: [String: Any]) {
        let key = directory.appendingPathComponent("\(name).key").path
        let certificate = directory.appendingPathComponent("\(name).crt").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=\(name)",
        ]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        let email = "\(name)@tripshare-test.iam.gserviceaccount.com"
        let listing: [String: Any] = [
            "email": email, "role": role, "provider": "p", "keys": ["\(name)-key": try String(contentsOfFile: certificate, encoding: .utf8)],
        ]
        return (email, try String(contentsOfFile: key, encoding: .utf8), listing)
    }

    static func token(email: String, keyID: String, privateKey: String, authorization: [String: String]) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: privateKey), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        let now = epoch.secondsSince1970
        return try await keys.sign(
            Claims(
                iss: IssuerClaim(value: email), sub: SubjectClaim(value: email), aud: AudienceClaim(value: [TokenAuthority.fleetEngineAudience]),
                iat: IssuedAtClaim(value: Date(timeIntervalSince1970: now)), exp: ExpirationClaim(value: Date(timeIntervalSince1970: now + 3_600)),
                authorization: authorization),
            kid: JWKIdentifier(string: keyID))
    }

    /// The backend's account creates, the driver's moves its car, the rider's reads its trip,
    /// and each is held to its role: the driver's token cannot create vehicles.
    @Test(arguments: TestStoreKind.available) func rolesFromTheAccount(_ kind: TestStoreKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-grpc-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let backend = try Self.makeAccount("backend", role: "server", in: directory)
        let driver = try Self.makeAccount("driver", role: "driver", in: directory)
        let rider = try Self.makeAccount("rider", role: "consumer", in: directory)
        let file = directory.appendingPathComponent("accounts.json")
        try JSONSerialization.data(withJSONObject: ["accounts": [backend.listing, driver.listing, rider.listing]]).write(to: file)
        let accounts = try await ServiceAccounts.load(path: file.path)
        // What the calls sign with: each account's e-mail and private key (its listing stays here).
        let (backendKey, driverKey, riderKey) = ((backend.email, backend.key), (driver.email, driver.key), (rider.email, rider.key))
        try await GRPCHarness.run(kind, serviceAccounts: accounts) { h in
            func auth(
                _ account: (email: String, key: String), _ name: String, _ claim: [String: String]
            ) async throws
                -> Metadata
            {
                [
                    "authorization":
                        "Bearer \(try await Self.token(email: account.email, keyID: "\(name)-key", privateKey: account.key, authorization: claim))"
                ]
            }
            let server = try await auth(backendKey, "backend", ["vehicleid": "*"])
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            _ = try await h.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: server)
            let car = try await auth(driverKey, "driver", ["vehicleid": "v1"])
            let moved = try await h.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.392, -122.0), metadata: car)
            #expect(moved.lastLocation.location.latitude == 37.392)
            await expectStatus(.permissionDenied, "a driver token may not create vehicles") {
                _ = try await h.vehicles.createVehicle(Wire.createVehicle("v2"), metadata: car)
            }
            let trip = try await h.trips.getTrip(Wire.getTrip("t1"), metadata: try await auth(riderKey, "rider", ["tripid": "t1"]))
            #expect(trip.view == .journeySharingV1S)
            await expectStatus(.unauthenticated, "is not among the keys of service account") {
                _ = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: try await auth(driverKey, "backend", ["vehicleid": "v1"]))
            }
        }
    }
}
