import Foundation
import TripServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends API requests to a server over HTTP with URLSession.
struct HTTPTransport: APITransport {
    let baseURL: URL

    func send(method: String, path: String, body: [UInt8]?, token: String) async throws -> (status: Int, body: [UInt8]) {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
    }
}
