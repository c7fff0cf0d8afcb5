import Foundation
import Hummingbird
import SQLiteStore
import StoreVariants
import Styling
import Testing
import TripModel
import TripServer
import TripServerTesting

/// The shipped styles as the server loads them.
func shippedStyles() throws -> StyleLibrary { try StyleLibrary.bundled() }

extension Client.Reply {
    /// A string member of the JSON body (dotted path), or nil.
    func string(_ path: String) -> String? {
        var value = try? json()
        for key in path.split(separator: ".") { value = value?[String(key)] }
        if case .string(let text)? = value { return text }
        return nil
    }

    var etag: String? { headers[.eTag] }

    /// The `/v1/styles` entry for a style as "name source version modified", or nil.
    func listed(_ name: String) -> String? {
        guard case .array(let styles)? = (try? json())?["styles"] else { return nil }
        for style in styles where style["name"] == .string(name) {
            guard case .string(let source)? = style["source"], case .number(_, let version?)? = style["version"],
                case .bool(let modified)? = style["modified"]
            else { return nil }
            return "\(name) \(source) \(version) \(modified)"
        }
        return nil
    }
}

@Suite struct StyleRoutesTests {
    /// Any role reads the styles in effect; nothing set means the files' styles at version 0.
    @Test(arguments: TestStoreKind.available) func readsForEveryRole(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            for principal in [harness.admin, harness.consumer("t1"), harness.driver("v1")] {
                let list = try await client.expect(.ok, .get, "/v1/styles", as: principal)
                #expect(list.listed("default") == "default file 0 false", "\(list.text)")
                let sheet = try await client.expect(.ok, .get, "/v1/styles/default", as: principal)
                #expect(sheet.body == StyleJSON.encode(try shippedStyles().defaultStyle))
            }
            try await client.expect(.unauthorized, .get, "/v1/styles")
        }
    }

    /// Only a server token may change styles.
    @Test(arguments: TestStoreKind.available) func writesNeedTheServerRole(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            for principal in [harness.consumer("t1"), harness.driver("v1")] {
                let reply = try await client.expect(.forbidden, .put, "/v1/styles/default/markers/tripVehicle", as: principal, body: "{}")
                #expect(reply.errorStatus == "PERMISSION_DENIED")
                try await client.expect(.forbidden, .delete, "/v1/styles/default", as: principal)
                try await client.expect(
                    .forbidden, .put, "/v1/styles/default/polylines/activeRoute/trafficColors/slow", as: principal, body: ##""#FF0000""##)
            }
            #expect(try await client.expect(.ok, .get, "/v1/styles/default", as: harness.admin).etag == "\"0\"")
        }
    }

    /// PUT replaces a type's options over its defaults, null and DELETE restore them, and every change bumps the version.
    @Test(arguments: TestStoreKind.available) func setReplacesAndNullRestores(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        let defaults = try shippedStyles().defaultStyle[marker: .tripVehicle]
        try await harness.test { client in
            let path = "/v1/styles/default/markers/tripVehicle"
            let first = try await client.expect(.ok, .put, path, as: harness.admin, body: ##"{"zIndex": 9, "isFlat": false}"##)
            #expect(first.etag == "\"1\"" && first.text.contains(##""zIndex":9"##) && first.text.contains(##""isFlat":false"##))
            let second = try await client.expect(.ok, .put, path, as: harness.admin, body: ##"{"groundAnchor": [0.5, 1]}"##)
            #expect(second.etag == "\"2\"")
            #expect(second.text.contains(##""zIndex":\##(defaults.zIndex)"##) && second.text.contains(##""isFlat":true"##), "\(second.text)")
            let read = try await client.expect(.ok, .get, path, as: harness.consumer("t1"))
            #expect(read.body == second.body)
            let restored = try await client.expect(.ok, .put, path, as: harness.admin, body: "null")
            #expect(restored.body == StyleJSON.encode(defaults) && restored.etag == "\"3\"")
            try await client.expect(.ok, .put, path, as: harness.admin, body: ##"{"isVisible": false}"##)
            let deleted = try await client.expect(.ok, .delete, path, as: harness.admin)
            #expect(deleted.body == StyleJSON.encode(defaults) && deleted.etag == "\"5\"")
            let list = try await client.expect(.ok, .get, "/v1/styles", as: harness.admin)
            #expect(list.listed("default") == "default file 5 false", "\(list.text)")
        }
    }

    /// Traffic colours read as the stroke colour while traffic is off and apply once it is on.
    @Test(arguments: TestStoreKind.available) func trafficColours(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        let stroke = try shippedStyles().defaultStyle[polyline: .activeRoute].color.hex
        try await harness.test { client in
            let colour = "/v1/styles/default/polylines/activeRoute/trafficColors/slow"
            #expect(try await client.expect(.ok, .get, colour, as: harness.admin).text == "\"\(stroke)\"")
            let set = try await client.expect(.ok, .put, colour, as: harness.admin, body: ##""#123456""##)
            #expect(set.string("trafficColors.slow") == stroke && set.text.contains(##""isTrafficEnabled":false"##))
            #expect(try await client.expect(.ok, .get, colour, as: harness.admin).text == "\"\(stroke)\"")
            try await client.expect(
                .ok, .put, "/v1/styles/default/polylines/activeRoute", as: harness.admin,
                body: ##"{"isTrafficEnabled": true, "trafficColors": {"trafficJam": "#AA0000"}}"##)
            let jam = "/v1/styles/default/polylines/activeRoute/trafficColors/TRAFFIC_JAM"
            #expect(try await client.expect(.ok, .get, jam, as: harness.admin).text == ##""#AA0000""##)
            try await client.expect(.ok, .put, colour, as: harness.admin, body: ##""#123456""##)
            #expect(try await client.expect(.ok, .get, colour, as: harness.admin).text == ##""#123456""##)
            let restored = try await client.expect(.ok, .delete, colour, as: harness.admin)
            let shippedSlow = try #require(try shippedStyles().style(named: "traffic"))[polyline: .activeRoute].trafficColor(for: .slow)
            #expect(restored.string("trafficColors.slow") == shippedSlow.hex)
            try await client.expect(.notFound, .get, "/v1/styles/default/polylines/activeRoute/trafficColors/sluggish", as: harness.admin)
        }
    }

    /// Bad style JSON is a 400 naming the offending path, and the stored style is unchanged.
    @Test(arguments: [
        ("/v1/styles/default/markers/tripVehicle", ##"{"icon": "icons/missing.png"}"##, "markers.tripVehicle.icon"),
        ("/v1/styles/default/markers/tripVehicle", ##"{"flat": true}"##, "markers.tripVehicle.flat"),
        ("/v1/styles/default/polylines/activeRoute", ##"{"width": -1}"##, "polylines.activeRoute.width"),
        ("/v1/styles/default/polylines/activeRoute", ##"{"color": "blue"}"##, "polylines.activeRoute.color"),
        ("/v1/styles/default/polylines/remainingRoute/trafficColors/slow", ##""#12""##, "polylines.remainingRoute.trafficColors.slow"),
        ("/v1/styles/default", ##"{"markers": {"tripVehicle": {"icon": "builtin:ufo"}}}"##, "markers.tripVehicle.icon"),
        (
            "/v1/styles/default", ##"{"polylines": {"activeRoute": {"trafficColors": {"jam": "#FF0000"}}}}"##,
            "polylines.activeRoute.trafficColors.jam"
        ),
    ])
    func badJSONIsRejected(path: String, body: String, field: String) async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await client.expect(.ok, .put, "/v1/styles/default/polylines/activeRoute", as: harness.admin, body: ##"{"width": 9}"##)
            let before = try await client.expect(.ok, .get, "/v1/styles/default", as: harness.admin)
            let reply = try await client.expect(.badRequest, .put, path, as: harness.admin, body: body)
            #expect(reply.errorStatus == "INVALID_ARGUMENT")
            #expect(reply.errorMessage.hasPrefix("\(field):"), "\(reply.errorMessage)")
            let after = try await client.expect(.ok, .get, "/v1/styles/default", as: harness.admin)
            #expect(after.body == before.body && after.etag == before.etag)
        }
    }

    /// A whole-style PUT creates a style over the default; DELETE removes it, or reverts a file style to its file.
    @Test(arguments: TestStoreKind.available) func createAndDeleteStyles(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.notFound, .get, "/v1/styles/mine", as: harness.admin)
            try await client.expect(.notFound, .put, "/v1/styles/mine/markers/tripVehicle", as: harness.admin, body: "{}")
            let created = try await client.expect(
                .ok, .put, "/v1/styles/mine", as: harness.admin,
                body: ##"{"polylines": {"activeRoute": {"color": "#6A3D9A"}}}"##)
            #expect(created.string("polylines.activeRoute.color") == "#6A3D9A")
            #expect(created.string("map.background") == (try shippedStyles().defaultStyle.map.background.hex))
            let list = try await client.expect(.ok, .get, "/v1/styles", as: harness.consumer("t1"))
            #expect(list.listed("mine") == "mine api 1 true", "\(list.text)")
            try await client.expect(.ok, .delete, "/v1/styles/mine", as: harness.admin)
            try await client.expect(.notFound, .get, "/v1/styles/mine", as: harness.admin)
            let again = try await client.expect(.ok, .put, "/v1/styles/mine", as: harness.admin, body: "{}")
            #expect(again.etag == "\"3\"")

            try await client.expect(.ok, .put, "/v1/styles/night", as: harness.admin, body: ##"{"map": {"background": "#000000"}}"##)
            try await client.expect(.ok, .delete, "/v1/styles/night", as: harness.admin)
            let night = try await client.expect(.ok, .get, "/v1/styles/night", as: harness.admin)
            #expect(night.body == StyleJSON.encode(try #require(try shippedStyles().style(named: "night"))))
            try await client.expect(.badRequest, .get, "/v1/styles/no%20spaces", as: harness.admin)
            try await client.expect(.notFound, .get, "/v1/styles/default/markers/tripBicycle", as: harness.admin)
        }
    }

    /// Concurrent changes of different types of one style both survive (compare-and-swap retries).
    @Test(arguments: TestStoreKind.available) func concurrentChangesAreNotLost(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            async let a = client.send(.put, "/v1/styles/default/markers/tripVehicle", as: harness.admin, body: ##"{"zIndex": 11}"##)
            async let b = client.send(.put, "/v1/styles/default/markers/tripDropoffPoint", as: harness.admin, body: ##"{"zIndex": 12}"##)
            async let c = client.send(.put, "/v1/styles/default/polylines/remainingRoute", as: harness.admin, body: ##"{"width": 3}"##)
            let replies = try await [a, b, c]
            #expect(replies.allSatisfy { $0.status == .ok })
            let sheet = try await client.expect(.ok, .get, "/v1/styles/default", as: harness.admin)
            #expect(sheet.etag == "\"3\"")
            #expect(sheet.text.contains(##""zIndex":11"##) && sheet.text.contains(##""zIndex":12"##) && sheet.text.contains(##""width":3"##))
        }
    }

    /// Changes persist in the store across restarts.
    @Test(arguments: TestStoreKind.persistent) func changesPersist(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let first = try await Harness(store: try await server.start().store)
        try await first.test { client in
            try await client.expect(.ok, .put, "/v1/styles/brand/polylines/activeRoute", as: first.admin, body: ##"{"width": 12}"##)
        }
        let second = try await Harness(store: try await server.start().store)
        try await second.test { client in
            let reply = try await client.expect(.ok, .get, "/v1/styles/brand/polylines/activeRoute", as: second.admin)
            #expect(reply.text.contains(##""width":12"##) && reply.etag == "\"1\"")
        }
    }
}
