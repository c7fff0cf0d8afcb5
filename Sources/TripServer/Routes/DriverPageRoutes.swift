import Fleet
import Foundation
import Hummingbird
import TripModel

/// `GET /drive/{token}` (DESIGN §9): the driver's page for a vehicle, given a driver token in
/// the path, and its script and style sheet under `/drive/assets/`. Like the share page it is
/// static: its script draws nothing itself but shows the screen the server draws
/// (`navigation.png`, `layout.json`) through the same `/v1` API a driver's app calls, with the
/// token from the path, so the page adds no access of its own. The server fills in only the
/// vehicle's provider (the token's own) and its label.
struct DriverPageRoutes {
    let fleet: Fleet
    let authenticator: Authenticator
    let assets: PageAssets

    init(fleet: Fleet, authenticator: Authenticator) {
        self.fleet = fleet
        self.authenticator = authenticator
        assets = PageAssets.driver
    }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/drive/assets/{file}", use: asset)
        router.get("/drive/{token}", use: page)
    }

    @Sendable func asset(_ request: Request, context: TripRequestContext) async throws -> Response {
        let file = try context.pathParameter("file")
        guard let (bytes, type) = assets.file(file) else { throw APIError.notFound("no driver page asset '\(file.prefix(64))'") }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Sendable func page(_ request: Request, context: TripRequestContext) async throws -> Response {
        let token = try context.pathParameter("token")
        let principal: Principal
        do { principal = try await authenticator.principal(token: token) } catch {
            // Over its rate limit, the link answers 429 with Retry-After like the API.
            guard error.status == .unauthorized else { throw error }
            return message(.unauthorized, "This driver link has expired or is not valid", "Ask your dispatcher for a new link. (\(error.message))")
        }
        guard principal.role == .driver, let vehicleId = principal.vehicleId else {
            return message(.forbidden, "This is not a driver's link", "The driver's page opens with a driver token for one vehicle.")
        }
        // The vehicle is the token's provider's: the token says whose, the page never looks it up.
        let provider = principal.provider
        let vehicle: Vehicle
        do { vehicle = try await fleet.vehicle(provider: provider, id: vehicleId) } catch let error as FleetError where error.code == .notFound {
            return message(.notFound, "This vehicle cannot be found", "It may have been deleted.")
        }
        let label = vehicle.attributes.first { $0.key == "vehicleLabel" }?.stringValue ?? vehicleId
        let html = assets.page
            .replacingOccurrences(of: "{{provider}}", with: SharePageRoutes.escape(provider))
            .replacingOccurrences(of: "{{vehicleId}}", with: SharePageRoutes.escape(vehicleId))
            .replacingOccurrences(of: "{{vehicleLabel}}", with: SharePageRoutes.escape(label))
        return htmlResponse(.ok, html)
    }

    private func message(_ status: HTTPResponse.Status, _ title: String, _ detail: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(SharePageRoutes.escape(title)) · tripshare</title><link rel="icon" href="data:,">
            <link rel="stylesheet" href="/share/assets/share.css"></head><body><main class="panel"><h1>\(SharePageRoutes.escape(title))</h1><p>\(SharePageRoutes.escape(detail))</p></main></body></html>
            """
        return htmlResponse(status, html)
    }

    private func htmlResponse(_ status: HTTPResponse.Status, _ html: String) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: SharePageRoutes.securityPolicy,
            ], body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
