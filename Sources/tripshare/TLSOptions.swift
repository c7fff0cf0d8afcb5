import ArgumentParser
import Foundation
import GRPCServer
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import TripServer

/// TLS for both listeners (DESIGN §14): `--tls-cert FILE --tls-key FILE` (PEM; env
/// TRIPSHARE_TLS_CERT, TRIPSHARE_TLS_KEY) put HTTP and gRPC on TLS only, so that an official
/// client given only the endpoint and the server's CA connects with its default channel.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "PEM certificate chain (leaf first) for TLS on both listeners (env TRIPSHARE_TLS_CERT); needs --tls-key.",
            valueName: "FILE"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("PEM private key of the --tls-cert leaf (env TRIPSHARE_TLS_KEY).", valueName: "FILE"))
    var key: String?

    /// The certificate chain and key files, or nil for plaintext; both or neither.
    func resolvedFiles() throws -> GRPCListener.TLSFiles? {
        let environment = ServerOptions.environment
        let certificate = self.certificate ?? environment["TRIPSHARE_TLS_CERT"].flatMap { $0.isEmpty ? nil : $0 }
        let key = self.key ?? environment["TRIPSHARE_TLS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            for (path, what) in [(certificate, "--tls-cert"), (key, "--tls-key")] where !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(what): cannot read \(path)")
            }
            return GRPCListener.TLSFiles(certificateChain: certificate, privateKey: key)
        default:
            throw ValidationError("TLS needs both --tls-cert and --tls-key (or TRIPSHARE_TLS_CERT and TRIPSHARE_TLS_KEY)")
        }
    }

    /// The HTTP server `base`, over TLS with `files` when given.
    static func httpServer(_ base: HTTPServerBuilder, files: GRPCListener.TLSFiles?) throws -> HTTPServerBuilder {
        guard let files else { return base }
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain)
            key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
        } catch {
            throw ValidationError("cannot load the TLS certificate \(files.certificateChain) and key \(files.privateKey): \(error)")
        }
        guard !chain.isEmpty else { throw ValidationError("--tls-cert: \(files.certificateChain) holds no PEM certificate") }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        return try .tls(base, tlsConfiguration: configuration)
    }
}
