// The behaviour every store implementation must show, as one test body each store's test
// target runs with its own store factory (STYLE: one body, every seam):
//
//   @Test(arguments: StoreConformance.checks)
//   func conformance(_ check: StoreConformance.Check) async throws {
//       try await check.run { try MyStore(...) }
//   }
//
// Two kinds of check: the store as Fleet drives it (every API write, search, listing and
// history read, through the real write flows), and the transaction primitives' guarantees
// directly (atomicity, isolation of concurrent writes, event order, the navigator's storage).
// Failures are recorded with swift-testing's #expect at the line in this library.

import Testing
import TripModel
import TripStore

/// The checks a store must pass.
package enum StoreConformance {
    /// Makes a fresh, empty store.
    package typealias Factory = @Sendable () async throws -> any TripStore

    /// One behaviour, run against a fresh store from the factory (a check may make several:
    /// two stores share nothing).
    package struct Check: Sendable, CustomTestStringConvertible {
        /// What the store must do.
        package let name: String
        let body: @Sendable (Factory) async throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (Factory) async throws -> Void) {
            self.name = name
            self.body = body
        }

        /// Runs the check on stores from `factory`.
        package func run(_ factory: @escaping Factory) async throws { try await body(factory) }

        package var testDescription: String { name }
    }

    /// Every check.
    package static let checks: [Check] =
        fleetChecks + vehicleQueryChecks + stopOrderChecks + transactionChecks + roadCellChecks + areaObservationChecks + styleChecks
        + retentionChecks + routeChecks
}
