// Trip previews at checkpoints: `GET .../trips/{id}/preview.png` as the trip's rider, so a
// golden shows exactly what the endpoint draws (styles sent over the API included), at the
// checkpoint's time on the server's scripted clock.

import Access
import Foundation
import TripServer

extension RunSession {
    /// Renders the preview a checkpoint asks for; nil (and a failure) when the server refuses.
    mutating func preview(_ request: Scenario.RenderRequest, checkpoint: String) async throws -> [UInt8]? {
        var query = (request.options ?? [:]).sorted { $0.key < $1.key }.map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }
        if let style = request.style { query.append("style=\(Self.escape(style))") }
        let path = "\(providerPath)/trips/\(Self.escape(request.trip))/preview.png" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let token = try await tokens.token(Principal(role: .consumer, provider: scenario.provider, tripId: request.trip))
        let (status, body) = try await transport.send(method: "GET", path: path, body: nil, token: token)
        guard status == 200 else {
            run.failures.append("checkpoint \(checkpoint): GET \(path) answered \(status): \(Self.message(body))")
            return nil
        }
        return body
    }
}
