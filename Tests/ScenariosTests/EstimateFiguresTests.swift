import Access
import Basemap
import Foundation
import Geo
import JSON
import Render
import Scenarios
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

/// The figures of docs/estimates.md: both committed Fleet Engine logs replayed without the
/// drivers' numbers and scored against the real arrivals (`tripshare replay LOG
/// --without-driver-estimates --score`). The figures reached are stored beside this test
/// (EstimateFigures.json); a run that does worse on any of them fails. They are re-recorded
/// only on purpose: `TRIPSHARE_RECORD_ESTIMATE_FIGURES=1 swift test --filter EstimateFiguresTests`
/// writes them and fails, so nothing is accepted silently.
@Suite(.serialized) struct EstimateFiguresTests {
    /// What is stored per log.
    struct Figures: Codable, Equatable {
        var scoredUpdates: Int
        var ourShare: Double
        var ourMeanAbsolute: Double
        var ourMedianAbsolute: Double
        var ourMeanAbsolutePercentage: Double
        var ourBias: Double
        var driverMeanAbsolute: Double
        var driverMeanAbsolutePercentage: Double
        var comparedUpdates: Int
        var legMeanAbsolute: [Double]
        var distanceWithinTolerance: Double?
    }

    static let figuresURL = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("EstimateFigures.json")

    /// The logs, each with the basemap its replay reads road classes from.
    static let logs: [(file: String, basemap: String?)] = [
        ("two-trips-bay-area.json", nil),
        ("jump-demo.json", "basemap/sanfrancisco-z14"),
    ]

    static func figures(_ file: String, basemap: String?) async throws -> (Figures, EstimateScore) {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/\(file)")))
        let roads = try basemap.map { try #require(BasemapRoads(source: try TileArchive.open(path: sharedFixture($0).path))) }
        let server = try await LocalServer(store: try await TestStores.make(.sqlite), roadClasses: roads)
        let serverToken = try await server.token(Principal(role: .server, provider: Principal.allProviders))
        let replay = FleetLogReplay(log: log, transport: server.transport, serverToken: serverToken) { provider, trip in
            try await server.token(Principal(role: .consumer, provider: provider, tripId: trip))
        }
        let report = try await replay.run(.init(withoutDriverEstimates: true, checkViews: false, score: true))
        #expect(report.failures.isEmpty, "\(report.failures.prefix(3))")
        let score = try #require(report.score)
        let ours = try #require(score.overall.oursWhereBoth)
        let driver = try #require(score.overall.driverWhereBoth)
        let figures = Figures(
            scoredUpdates: score.overall.updates, ourShare: score.overall.ourShare, ourMeanAbsolute: ours.meanAbsolute,
            ourMedianAbsolute: ours.medianAbsolute, ourMeanAbsolutePercentage: ours.meanAbsolutePercentage, ourBias: ours.bias,
            driverMeanAbsolute: driver.meanAbsolute, driverMeanAbsolutePercentage: driver.meanAbsolutePercentage,
            comparedUpdates: ours.count,
            legMeanAbsolute: score.legs.compactMap { $0.score.oursWhereBoth?.meanAbsolute },
            distanceWithinTolerance: report.remainingDistance?.withinTolerance)
        return (figures, score)
    }

    /// Neither log does worse than the stored figures on any of them: our share of updates
    /// with an estimate, our MAE, median, MAPE and |bias| overall and each leg's MAE, and the
    /// remaining distance's agreement with the driver's.
    @Test func noFigureGetsWorse() async throws {
        let record = ProcessInfo.processInfo.environment["TRIPSHARE_RECORD_ESTIMATE_FIGURES"] == "1"
        var measured: [String: Figures] = [:]
        for (file, basemap) in Self.logs {
            let (figures, score) = try await Self.figures(file, basemap: basemap)
            for line in score.table { print("\(file): \(line)") }
            measured[file] = figures
        }
        if record {
            try JSONCoding.encodePretty(measured).write(to: Self.figuresURL)
            Issue.record("recorded \(Self.figuresURL.lastPathComponent); run again without TRIPSHARE_RECORD_ESTIMATE_FIGURES")
            return
        }
        let stored = try JSONCoding.decode([String: Figures].self, from: Array(try Data(contentsOf: Self.figuresURL)), root: "figures")
        let slack = 0.05
        for (file, now) in measured.sorted(by: { $0.key < $1.key }) {
            let was = try #require(stored[file], "no stored figures for \(file)")
            #expect(now.scoredUpdates == was.scoredUpdates, "\(file): scored updates")
            #expect(now.ourShare >= was.ourShare - 1e-9, "\(file): share with an estimate \(now.ourShare) < \(was.ourShare)")
            #expect(now.ourMeanAbsolute <= was.ourMeanAbsolute + slack, "\(file): MAE \(now.ourMeanAbsolute) > \(was.ourMeanAbsolute)")
            #expect(now.ourMedianAbsolute <= was.ourMedianAbsolute + slack, "\(file): median \(now.ourMedianAbsolute) > \(was.ourMedianAbsolute)")
            #expect(
                now.ourMeanAbsolutePercentage <= was.ourMeanAbsolutePercentage + 1e-4,
                "\(file): MAPE \(now.ourMeanAbsolutePercentage) > \(was.ourMeanAbsolutePercentage)")
            #expect(abs(now.ourBias) <= abs(was.ourBias) + slack, "\(file): bias \(now.ourBias) worse than \(was.ourBias)")
            #expect(now.legMeanAbsolute.count == was.legMeanAbsolute.count, "\(file): legs")
            for (leg, (a, b)) in zip(now.legMeanAbsolute, was.legMeanAbsolute).enumerated() {
                #expect(a <= b + slack, "\(file): leg \(leg + 1) MAE \(a) > \(b)")
            }
            if let was = was.distanceWithinTolerance {
                #expect((now.distanceWithinTolerance ?? 0) >= was - 1e-9, "\(file): remaining distance within 2%/20 m")
            }
        }
    }
}
