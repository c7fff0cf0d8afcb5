import Foundation
import Scenarios
import TripModel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends API requests to a server over HTTP with URLSession.
struct HTTPTransport: APITransport {
    let baseURL: URL

    func send(
        method: String, path: String, body: [UInt8]?, token: String, extensions: ResourceExtensions
    ) async throws -> (status: Int, body: [UInt8]) {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if !extensions.included.isEmpty { request.setValue(extensions.headerValue, forHTTPHeaderField: ResourceExtensions.requestHeader) }
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // Not `URLSession.data(for:)`: on Linux, cancelling the calling task while that call
        // is in flight deadlocks inside FoundationNetworking (seen as `tripshare demo` hanging
        // on Ctrl-C). A completion handler has no cancellation hook; a cancelled caller stops
        // at its next suspension point instead, and the request finishes or fails on its own.
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(status: Int, body: [UInt8]), any Error>) in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data ?? Data())))
                }
            }.resume()
        }
    }
}
