import TripModel
import TripStore

/// ListVehicles' answer as both wires send it (proto3 JSON, so the int64 `totalSize` is a
/// string): one page of vehicles and how many all pages hold.
package struct VehicleListResponse: Encodable, Sendable {
    /// The vehicles of this page.
    package var vehicles: [Vehicle]
    /// Pass as `pageToken` for the next page; absent on the last page.
    package var nextPageToken: String?
    /// How many vehicles all pages hold (this page's count where the listing did not count).
    package var totalSize: String

    /// The answer for `page`.
    package init(_ page: Page<Vehicle>) {
        vehicles = page.items
        nextPageToken = page.nextPageToken
        totalSize = String(page.totalSize ?? page.items.count)
    }
}
