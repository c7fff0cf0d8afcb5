import Foundation
import Navigation
import Raster
import Render
import Styling
import Testing
import TripModel

/// The render time of the fixtures: the moment the pickup fixture was taken.
let fixtureTime = Timestamp(rfc3339: "2025-02-05T17:52:30Z") ?? Timestamp(microseconds: 0)

@Suite struct PreviewGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var golden: String
        var trip: String
        var style: String
        var options: PreviewOptions
        var testDescription: String { golden }
    }

    static let cases: [Case] = [
        Case(golden: "day", trip: "enroute-to-pickup", style: "default", options: PreviewOptions()),
        Case(golden: "night", trip: "enroute-to-pickup", style: "night", options: PreviewOptions(lighting: .lowLight)),
        Case(golden: "traffic", trip: "enroute-to-pickup", style: "traffic", options: PreviewOptions()),
        Case(golden: "traffic-night", trip: "enroute-to-pickup", style: "traffic", options: PreviewOptions(lighting: .lowLight)),
        Case(golden: "custom", trip: "enroute-to-pickup", style: "brand", options: PreviewOptions()),
        Case(golden: "scale2", trip: "enroute-to-pickup", style: "traffic", options: PreviewOptions(width: 400, height: 300, scale: 2)),
        Case(golden: "bearing", trip: "enroute-to-pickup", style: "traffic", options: PreviewOptions(bearing: 60)),
        Case(golden: "stops", trip: "intermediate-stops", style: "traffic", options: PreviewOptions()),
        Case(golden: "dropoff", trip: "enroute-to-dropoff", style: "default", options: PreviewOptions()),
    ]

    /// Each preview matches its golden image (exact outside text, tolerant inside).
    @Test(arguments: cases) func matchesGolden(_ test: Case) throws {
        let preview = TripPreview(
            trip: try GoldenSupport.trip(test.trip), style: try GoldenSupport.style(test.style),
            options: test.options, now: fixtureTime)
        try GoldenSupport.check(try preview.displayList(), golden: test.golden)
    }
}
