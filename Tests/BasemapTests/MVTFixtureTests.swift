import Foundation
import Testing

@testable import Basemap

/// The decoder against every case of mapbox/mvt-fixtures: valid tiles decode to the expected
/// layers, features, tags and command streams; invalid ones are refused with an error.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct MVTFixtureTests {
    struct Expectation {
        let valid: Bool
        let description: String
        let tile: Any
    }

    static func expectation(_ name: String) throws -> Expectation {
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: SharedFixtures.url("mvt-fixtures/fixtures/\(name)/info.json")))
        let tile = try JSONSerialization.jsonObject(with: Data(contentsOf: SharedFixtures.url("mvt-fixtures/fixtures/\(name)/tile.json")))
        let object = info as? [String: Any] ?? [:]
        let validity = object["validity"] as? [String: Any] ?? [:]
        return Expectation(valid: validity["v2"] as? Bool ?? false, description: object["description"] as? String ?? "", tile: tile)
    }

    /// Cases whose verdict contradicts another case, and the side this decoder takes.
    static let contradictions: [String: String] = [
        // 003 ("missing type: invalid") holds exactly the bytes of 016 ("type UNKNOWN: valid").
        "003": "decodes as UNKNOWN, like the identical 016",
        // 057 (point MoveTo count 536870911, one pair: "valid") breaks the rule that makes 052
        // and 058 (counts past the parameters: "fatal") invalid.
        "057": "refused, like 052 and 058",
    ]

    /// Every case: valid ones decode to tile.json, invalid ones throw `corruptTile`.
    @Test(arguments: SharedFixtures.mvtCases)
    func fixture(_ name: String) throws {
        var expected = try Self.expectation(name)
        let bytes = try SharedFixtures.bytes("mvt-fixtures/fixtures/\(name)/tile.mvt")
        if name == "003" { expected = Expectation(valid: true, description: expected.description, tile: expected.tile) }
        if name == "057" { expected = Expectation(valid: false, description: expected.description, tile: expected.tile) }
        if expected.valid {
            let tile = try VectorTile(decoding: bytes)
            let difference = Self.difference(Self.json(tile), expected.tile, path: "tile")
            #expect(difference == nil, "\(name) (\(expected.description)): \(difference ?? "")")
            // Geometry of drawable types decodes too.
            for layer in tile.layers {
                for feature in layer.features where feature.type != .unknown {
                    _ = try FeatureGeometry(decoding: feature)
                }
            }
            // So does the drawing path's, which checks geometry while preparing it, in two
            // steps and in one, to the same tile.
            let twoSteps = try PreparedTile(try VectorTile(decoding: bytes, checkingGeometry: false))
            let oneStep = try PreparedTile(decoding: bytes)
            #expect(Self.describe(oneStep) == Self.describe(twoSteps), "\(name)")
        } else {
            #expect(throws: BasemapError.self, "\(name) should be refused: \(expected.description)") {
                try VectorTile(decoding: bytes)
            }
            #expect(throws: BasemapError.self, "\(name) should be refused when drawn: \(expected.description)") {
                try PreparedTile(try VectorTile(decoding: bytes, checkingGeometry: false))
            }
            // Decoded in one step, with the same message as in two.
            var messages: [String] = []
            for decode in [{ try PreparedTile(try VectorTile(decoding: bytes, checkingGeometry: false)) }, { try PreparedTile(decoding: bytes) }] {
                do {
                    _ = try decode()
                } catch let error as BasemapError {
                    messages.append(error.message)
                }
            }
            #expect(messages.count == 2 && messages[0] == messages[1], "\(name): \(messages)")
        }
    }

    /// Everything drawing reads from a prepared tile, as text (for comparing two).
    static func describe(_ tile: PreparedTile) -> [String] {
        tile.layers.keys.sorted().compactMap { name in
            guard let layer = tile.layers[name] else { return nil }
            let features = layer.features.map { feature in
                "\(feature.id.map(String.init) ?? "-") \(feature.type) \(feature.tags) \(feature.parts) "
                    + "\(feature.minX),\(feature.minY),\(feature.maxX),\(feature.maxY)"
            }
            let keys = layer.keyIndex.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(name) \(layer.extent) keys \(keys) values \(layer.values) tags \(layer.tags) points \(layer.points.map { [$0.x, $0.y] }) "
                + "parts \(layer.partEnds) features \(features) bytes \(layer.byteCount)"
        }
    }

    /// The real tiles of the shared data (San Francisco, Mapbox Streets v7) decode in one step
    /// to what two steps give.
    @Test func realTilesDecodeAlikeInOneStep() throws {
        let folder = SharedFixtures.url("sanfrancisco-z14")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mvt") }.sorted()
        #expect(names.count >= 4)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let twoSteps = try PreparedTile(try VectorTile(decoding: bytes, checkingGeometry: false))
            let oneStep = try PreparedTile(decoding: bytes)
            #expect(Self.describe(oneStep) == Self.describe(twoSteps), "\(name)")
            #expect(oneStep.byteCount == twoSteps.byteCount)
        }
    }

    /// The two contradictory cases behave as `contradictions` says.
    @Test func contradictoryCases() throws {
        let missingType = try VectorTile(decoding: try SharedFixtures.bytes("mvt-fixtures/fixtures/003/tile.mvt"))
        #expect(missingType.layers.first?.features.first?.type == .unknown)
        let hugeCount = try SharedFixtures.bytes("mvt-fixtures/fixtures/057/tile.mvt")
        do {
            _ = try VectorTile(decoding: hugeCount)
            Issue.record("057 decoded")
        } catch {
            #expect(error.message.contains("MoveTo with a count of 536870911 but 1 coordinate pairs left"), "\(error.message)")
        }
    }

    /// A refused tile says what is wrong and where.
    @Test func refusalNamesLayerAndFeature() throws {
        let bytes = try SharedFixtures.bytes("mvt-fixtures/fixtures/040/tile.mvt")
        do {
            _ = try VectorTile(decoding: bytes)
            Issue.record("fixture 040 decoded")
        } catch {
            #expect(error.code == .corruptTile)
            #expect(error.message.contains("layer \"hello\""), "\(error.message)")
            #expect(error.message.contains("tag key"), "\(error.message)")
        }
    }

    /// Our tile in the shape of mvt-fixtures' tile.json.
    static func json(_ tile: VectorTile) -> Any {
        if tile.layers.isEmpty { return [String: Any]() }
        return [
            "layers": tile.layers.map { layer -> [String: Any] in
                [
                    "version": layer.version, "name": layer.name, "extent": layer.extent, "keys": layer.keys,
                    "values": layer.values.map { value -> [String: Any] in
                        switch value {
                        case .string(let text): ["string_value": text]
                        case .float(let number): ["float_value": number]
                        case .double(let number): ["double_value": number]
                        case .int(let number): ["int_value": number]
                        case .uint(let number): ["uint_value": number]
                        case .sint(let number): ["sint_value": number]
                        case .bool(let flag): ["bool_value": flag]
                        }
                    },
                    "features": layer.features.map { feature -> [String: Any] in
                        var object: [String: Any] = [
                            "tags": feature.tags.map(Int.init), "type": feature.type.rawValue,
                            "geometry": feature.geometry.map(Int.init),
                        ]
                        if let id = feature.id { object["id"] = id }
                        return object
                    },
                ]
            }
        ]
    }

    /// A description of the first difference, or nil. Keys missing from the expectation are
    /// defaults (extent 4096, type UNKNOWN); floats compare at single precision.
    static func difference(_ actual: Any, _ expected: Any, path: String) -> String? {
        switch (actual, expected) {
        case (let a as [String: Any], let e as [String: Any]):
            for (key, value) in e {
                guard let mine = a[key] else { return "\(path).\(key) missing" }
                if let found = difference(mine, value, path: "\(path).\(key)") { return found }
            }
            for key in a.keys where e[key] == nil {
                if key == "extent", a[key] as? Int == 4096 { continue }
                if key == "type", a[key] as? Int == 0 { continue }
                return "\(path).\(key) unexpected"
            }
            return nil
        case (let a as [Any], let e as [Any]):
            guard a.count == e.count else { return "\(path): \(a.count) elements, expected \(e.count)" }
            for (index, pair) in zip(a, e).enumerated() {
                if let found = difference(pair.0, pair.1, path: "\(path)[\(index)]") { return found }
            }
            return nil
        case (let a as Float, let e as NSNumber):
            return a == e.floatValue ? nil : "\(path): \(a), expected \(e)"
        case (let a as Bool, let e as NSNumber):
            return a == e.boolValue ? nil : "\(path): \(a), expected \(e)"
        case (let a as String, let e as String):
            return a == e ? nil : "\(path): \"\(a)\", expected \"\(e)\""
        default:
            let mine = "\(actual)"
            let theirs =
                (expected as? NSNumber).map { number in
                    number.doubleValue == number.doubleValue.rounded() && abs(number.doubleValue) < 1e18
                        ? "\(number.int64Value)" : "\(number.doubleValue)"
                } ?? "\(expected)"
            if let a = Double(mine), let e = Double(theirs), a == e { return nil }
            return mine == theirs ? nil : "\(path): \(mine), expected \(theirs)"
        }
    }
}
