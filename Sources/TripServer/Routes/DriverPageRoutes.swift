import Access
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
        try PageResponse.asset(try context.pathParameter("file"), of: assets, page: "driver page")
    }

    @Sendable func page(_ request: Request, context: TripRequestContext) async throws -> Response {
        let token = try context.pathParameter("token")
        let refusals = PageLink.Refusals(
            invalid: ("This driver link has expired or is not valid", "Ask your dispatcher for a new link."),
            wrongKind: ("This is not a driver's link", "The driver's page opens with a driver token for one vehicle."))
        let provider: String
        let vehicleId: String
        let link = try await PageLink.open(token, authenticator: authenticator, refusals: refusals) { try? AccessPolicy.drivenVehicle($0) }
        switch link {
        case .refused(let page): return page
        case .opens(let owner, let id): (provider, vehicleId) = (owner, id)
        }
        let vehicle: Vehicle
        do { vehicle = try await fleet.vehicle(provider: provider, id: vehicleId) } catch let error as StatusError where error.code == .notFound {
            return PageResponse.message(.notFound, "This vehicle cannot be found", "It may have been deleted.")
        }
        let label = vehicle.attributes.first { $0.key == "vehicleLabel" }?.stringValue ?? vehicleId
        return PageResponse.html(.ok, assets.page(filling: ["provider": provider, "vehicleId": vehicleId, "vehicleLabel": label]))
    }
}
