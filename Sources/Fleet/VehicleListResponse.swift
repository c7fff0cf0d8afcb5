import TripModel
import TripStore

/// ListVehicles' answer as both wires send it (proto3 JSON, so the int64 `totalSize` is a
/// string): one page of vehicles and how many all pages hold.
public struct VehicleListResponse: Encodable, Sendable {
    /// The vehicles of this page.
    public var vehicles: [Vehicle]
    /// Pass as `pageToken` for the next page; absent on the last page.
    public var nextPageToken: String?
    /// How many vehicles all pages hold (this page's count where the listing did not count).
    public var totalSize: String

    /// The answer for `page`.
    public init(_ page: Page<Vehicle>) {
        vehicles = page.items
        nextPageToken = page.nextPageToken
        totalSize = String(page.totalSize ?? page.items.count)
    }
}
