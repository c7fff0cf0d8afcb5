import Foundation
import Hummingbird
import Render
import Styling

extension StyleRoutes {
    /// `GET /v1/styles/{style}/markers/{markerType}/icon.png?scale=1..4`: the marker's icon in
    /// effect, drawn alone as previews draw it (upright, transparent around it), for pages
    /// that put markers on a map of their own (the share page). Any authenticated caller;
    /// the ETag follows the style's content.
    @Sendable func getMarkerIcon(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let type = try Self.markerType(context)
        let scaleText = request.query("scale") ?? "1"
        guard let scale = Int(scaleText), MarkerIconImage.scales.contains(Double(scale)) else {
            throw APIError.invalid("scale must be 1, 2, 3 or 4, got '\(scaleText.prefix(16))'")
        }
        let style = try await service.style(try context.pathParameter("style"))
        var fingerprint = Fingerprint()
        fingerprint.add(style.tag)
        let etag = "\"i\(fingerprint.hex)-\(type.rawValue)-\(scale)\""
        let headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=300"]
        if let condition = request.headers[.ifNoneMatch], PreviewRoutes.matches(condition, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let png = try MarkerIconImage.png(style.coordinator.markerStyleOptions(for: type).icon, scale: Double(scale))
        var fields = headers
        fields[.contentType] = "image/png"
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }
}
