import Fleet
import Styling
import Testing
import TripModel
import TripModelTesting
import TripStore

/// Styles as a service, on an injected clock.
@Suite struct StyleServiceTests {
    /// A change that sets the active route's width.
    func activeRouteWidth(_ width: Int) -> (inout StyleCoordinator) throws(StyleError) -> Void {
        { coordinator throws(StyleError) in try coordinator.setPolylineStyleOptions(json: Array("{\"width\": \(width)}".utf8), for: .activeRoute) }
    }

    /// A change made through the service is seen by previews at once; one made elsewhere (a
    /// second server process on the same store) within a second of the clock, not before.
    @Test func previewsSeeOtherProcessesChangesWithinASecond() async throws {
        let store = InMemoryTripStore()
        let clock = ManualClock(start)
        let here = Fleet(store: store, clock: clock.wallClock).styles
        let elsewhere = Fleet(store: store, clock: clock.wallClock).styles
        #expect(try await here.styleForPreview("default").version == 0)
        _ = try await here.change("default", activeRouteWidth(3))
        #expect(try await here.styleForPreview("default").version == 1)
        _ = try await elsewhere.change("default", activeRouteWidth(4))
        #expect(try await here.styleForPreview("default").version == 1)
        clock.advance(by: 0.5)
        #expect(try await here.styleForPreview("default").version == 1)
        clock.advance(by: 0.6)
        #expect(try await here.styleForPreview("default").version == 2)
        #expect(try await store.styleRecord(name: "default")?.updateTime == start)
    }

    /// Unknown styles, bad names and refused changes are errors a caller can act on.
    @Test func errorsSayWhatIsWrong() async throws {
        let styles = Fleet(store: InMemoryTripStore(), clock: .fixed(start)).styles
        let missing = try await #require(throws: StatusError.self) { try await styles.style("nope") }
        #expect(missing.code == .notFound && missing.message.contains("default"))
        let badName = try await #require(throws: StatusError.self) { try await styles.style("no spaces") }
        #expect(badName.code == .invalidArgument && badName.message.hasPrefix("style: "))
        let refused = try await #require(throws: StatusError.self) {
            try await styles.change("default") { (coordinator) throws(StyleError) in
                try coordinator.setPolylineStyleOptions(json: Array(#"{"width": "wide"}"#.utf8), for: .activeRoute)
            }
        }
        #expect(refused.code == .invalidArgument)
        #expect(try await styles.style("default").version == 0)
    }
}
