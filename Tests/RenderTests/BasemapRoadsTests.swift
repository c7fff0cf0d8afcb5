import Foundation
import Geo
import Testing
import TripModel

@testable import Basemap
@testable import Render

/// The basemap as the estimator reads it, over the San Francisco z14 tiles (loose
/// `14-x-y.mvt` files, OpenMapTiles-like `transportation` or Mapbox `road` layers).
@Suite struct BasemapRoadsTests {
    /// `../shared/fixtures/basemap/sanfrancisco-z14`, beside the repository or its folder of worktrees.
    static var folder: String {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for _ in 0..<3 {
            url = url.deletingLastPathComponent()
            let candidate = url.appendingPathComponent("shared/fixtures/basemap/sanfrancisco-z14")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        }
        return url.appendingPathComponent("shared/fixtures/basemap/sanfrancisco-z14").path
    }

    static func roads() throws -> BasemapRoads {
        try #require(BasemapRoads(source: try TileArchive.open(path: folder)))
    }

    /// A folder of loose tiles opens as an archive: its zooms, its bounds, its tiles; a
    /// tile it lacks is nil; a folder without tiles is refused naming it.
    @Test func aFolderOfTilesIsAnArchive() throws {
        let source = try TileArchive.open(path: Self.folder)
        #expect(source.metadata.format == .mvt && source.metadata.minZoom == 14 && source.metadata.maxZoom == 14)
        #expect(source.metadata.bounds?.contains(LatLng(latitude: 37.7793, longitude: -122.4193)) == true)
        #expect(try source.tileData(TileID(zoom: 14, x: 2620, y: 6333)) != nil)
        #expect(try source.tileData(TileID(zoom: 14, x: 0, y: 0)) == nil)
        #expect(TileDirectory.tileID(relativePath: ["14", "2620", "6333.pbf"]) == TileID(zoom: 14, x: 2620, y: 6333))
        #expect(TileDirectory.tileID(relativePath: ["notes.txt"]) == nil)

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        do {
            _ = try TileArchive.open(path: empty.path)
            Issue.record("an empty folder was opened")
        } catch {
            #expect(error.code == .notATileArchive && error.message.contains(empty.path))
        }
    }

    /// A route drawn along a road of the map reads as that road's class over most of its
    /// length; a route off the map reads as not covered.
    @Test func aRouteAlongARoadTakesItsClass() throws {
        let roads = try Self.roads()
        let id = TileID(zoom: 14, x: 2620, y: 6333)
        let features = try #require(try roads.source.features(at: id, layers: RoadTile.layers))
        // The longest piece of a classified road in the tile.
        var best: (line: [LatLng], roadClass: RoadClass, meters: Double)?
        for feature in features where feature.type == .lineString {
            guard let roadClass = RoadTile.roadClass(feature.text("class") ?? "", ramp: feature.text("ramp")) else { continue }
            for part in feature.parts {
                guard let meters = PolylineMeasure(part)?.totalMeters else { continue }
                if meters > (best?.meters ?? 0) { best = (part, roadClass, meters) }
            }
        }
        let road = try #require(best)
        #expect(road.meters > 200)
        let along = roads.roads(along: road.line)
        #expect(along.coveredMeters >= 0.8 * road.meters, "\(along.coveredMeters) of \(road.meters) m")
        let same = along.stretches.filter { $0.roadClass == road.roadClass }.reduce(0) { $0 + $1.to - $1.from }
        #expect(same >= 0.7 * along.coveredMeters, "\(road.roadClass): \(along.stretches)")

        let offMap = [LatLng(latitude: 37.80, longitude: -122.27), LatLng(latitude: 37.81, longitude: -122.27)]
        #expect(roads.roads(along: offMap).stretches.isEmpty)
    }

    /// The roads near a straight line across the city hold streets and bigger roads, more the
    /// wider the corridor; a line off the map has none, and so no pace.
    @Test func theRoadsNearALine() throws {
        let roads = try Self.roads()
        // The Western Addition to Pacific Heights, about 2.2 km (jump-demo.json's first leg).
        let a = LatLng(latitude: 37.7735, longitude: -122.4417)
        let b = LatLng(latitude: 37.7905, longitude: -122.4545)
        let narrow = roads.roads(near: a, b, within: 50)
        let wide = roads.roads(near: a, b, within: 150)
        #expect((narrow.meters[.minor] ?? 0) > 500, "\(narrow.meters)")
        #expect(wide.totalMeters > 2 * narrow.totalMeters, "\(wide.totalMeters) against \(narrow.totalMeters)")
        #expect(wide.meters.keys.contains { $0.rank > RoadClass.minor.rank }, "\(wide.meters)")
        let pace = try #require(wide.secondsPerMeter)
        #expect(pace > RoadClass.primary.typicalSecondsPerMeter && pace < RoadClass.service.typicalSecondsPerMeter)

        let offMap = roads.roads(near: LatLng(latitude: 37.80, longitude: -122.27), LatLng(latitude: 37.81, longitude: -122.27), within: 100)
        #expect(offMap.meters.isEmpty && offMap.secondsPerMeter == nil)
    }
}
