import Foundation
import Hummingbird
import JSON
import Navigation
import NavigationTesting
import Raster
import Styling
import Testing
import TripModel
import TripServer
import TripServerTesting

/// The driver's screen over HTTP (DESIGN §9): the navigation UI settings, navigation.png,
/// navigation/layout.json and the turn-by-turn card.
@Suite struct NavigationScreenAPITests {
    static let vehicle = "/v1/providers/p/vehicles/v1"
    static let settings = "\(vehicle)/navigationUISettings"

    /// A vehicle `v1` (and `v2`) with a route, driven `points` fixes along it.
    struct Scene {
        let server: RestartableServer
        let harness: Harness
        var app: TripServerApp { harness.app }
        let admin: String
        let driver: String
        let otherDriver: String
        let rider: String

        init() async throws {
            server = try await RestartableServer()
            harness = try await server.start()
            admin = try await server.token(.server)
            driver = try await server.token(.driver, vehicle: "v1")
            otherDriver = try await server.token(.driver, vehicle: "v2")
            rider = try await server.token(.consumer, trip: "t1")
        }

        func prepare(_ client: Client, points: Int) async throws {
            for id in ["v1", "v2"] {
                let created = try await client.send(.post, "/v1/providers/p/vehicles?vehicleId=\(id)", token: admin, body: NavFixtures.vehicleBody)
                #expect(created.status == .ok)
            }
            let route = StraightRoute.streets()
            #expect(try await client.send(.put, "\(NavigationScreenAPITests.vehicle)/route", token: driver, json: route).status == .ok)
            try await drive(client, Array(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2).prefix(points)))
        }

        func drive(_ client: Client, _ fixes: [TracePoint]) async throws {
            for fix in fixes {
                let moved = try await client.send(
                    .put, "\(NavigationScreenAPITests.vehicle)?updateMask=lastLocation", token: driver,
                    body: NavFixtures.locationBody(fix))
                #expect(moved.status == .ok)
            }
        }
    }

    static func json(_ response: Client.Reply) throws -> JSONValue { try JSONParser.parse(Array(response.body)) }

    static func message(_ response: Client.Reply) -> String {
        if case .string(let text)? = (try? json(response))?["error"]?["message"] { return text }
        return ""
    }

    static func image(_ response: Client.Reply) throws -> Image { try PNGCodec.decode(Array(response.body)) }

    /// A rectangle of layout.json, in points.
    static func rect(_ layout: JSONValue, _ name: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard case .object(let members)? = layout["rects"]?[name] else { return nil }
        func number(_ key: String) -> Double? {
            guard case .number(let value, _)? = members.first(where: { $0.key == key })?.value else { return nil }
            return value
        }
        guard let x = number("x"), let y = number("y"), let width = number("width"), let height = number("height") else { return nil }
        return (x, y, width, height)
    }

    // MARK: - Settings

    /// Reading gives every setting in effect; a PUT changes only what it names (`null`
    /// returns a member to its default) and a DELETE restores all; each answer is the
    /// settings in effect with their version as the ETag, and each change is logged on the
    /// vehicle's stream with the settings it made.
    @Test func settingsFollowTheStyleCoordinatorsSemantics() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 0)
            let initial = try await client.send(.get, Self.settings, token: scene.driver)
            #expect(initial.status == .ok)
            let defaults = try Self.json(initial)
            #expect(defaults == NavigationUISettings().jsonValue)
            #expect(defaults["navigationHeaderPrimaryBackgroundColorNightMode"] == .string("#188038"), "night follows day")
            #expect(initial.headers[.eTag] == "\"s0\"")

            let first = try await client.send(
                .put, Self.settings, token: scene.driver,
                body: """
                    {"compassButton": true, "navigationHeaderPrimaryBackgroundColor": "#112233",
                     "speedometerUIOptions": {"majorSpeedAlertBackgroundColor": "#FF00FF"}}
                    """)
            #expect(first.status == .ok, "\(first.text)")
            let second = try await client.send(
                .put, Self.settings, token: scene.admin,
                body: #"{"compassButton": null, "headerAccessory": ["Pick up Ana"]}"#)
            #expect(second.status == .ok, "\(second.text)")
            let now = try Self.json(try await client.send(.get, Self.settings, token: scene.admin))
            #expect(now["compassButton"] == .bool(false))
            #expect(now["navigationHeaderPrimaryBackgroundColor"] == .string("#112233"))
            #expect(now["navigationHeaderPrimaryBackgroundColorNightMode"] == .string("#112233"))
            #expect(now["speedometerUIOptions"]?["majorSpeedAlertBackgroundColor"] == .string("#FF00FF"))
            #expect(now["headerAccessory"] == .array([.string("Pick up Ana")]))
            #expect(now == (try Self.json(second)))
            #expect(first.headers[.eTag] != second.headers[.eTag])

            let reset = try await client.send(.delete, Self.settings, token: scene.driver)
            #expect(reset.status == .ok)
            #expect(try Self.json(reset) == defaults)
            #expect(try Self.json(try await client.send(.get, Self.settings, token: scene.driver)) == defaults)
        }
        let logged = try await scene.app.store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 1_000)
            .filter { $0.type == "didUpdateNavigationUISettings" }
        #expect(logged.count == 3)
        let last = try JSONParser.parse(Array(logged[2].data.utf8))
        #expect(last["navigationUISettings"] == NavigationUISettings().jsonValue)
        #expect(logged.allSatisfy { $0.tripIds.isEmpty }, "riders do not hear the driver's settings")
    }

    /// Unknown members, bad colours, wrong types and bad bodies are refused with the field
    /// named, and nothing changes (a body with one good and one bad member keeps neither).
    @Test func badSettingsAreRefusedWithTheFieldNamed() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 0)
            let cases: [(body: String, field: String)] = [
                (#"{"compassButton": true, "showsTrafficLight": true}"#, "navigationUISettings.showsTrafficLight"),
                (#"{"navigationHeaderPrimaryBackgroundColor": "green"}"#, "navigationUISettings.navigationHeaderPrimaryBackgroundColor"),
                (#"{"myLocationButton": "yes"}"#, "navigationUISettings.myLocationButton"),
                (#"{"speedometerUIOptions": {"minorSpeedAlertTextColor": 3}}"#, "navigationUISettings.speedometerUIOptions.minorSpeedAlertTextColor"),
                (#"{"alternateRoutesStrategy": "some"}"#, "navigationUISettings.alternateRoutesStrategy"),
                (#"{"headerAccessory": ["a", 2]}"#, "navigationUISettings.headerAccessory[1]"),
                (#"[true]"#, "navigationUISettings"),
                (#"{"compassButton": tru"#, "navigationUISettings"),
                ("", "navigationUISettings"),
            ]
            for (body, field) in cases {
                let refused = try await client.send(.put, Self.settings, token: scene.driver, body: body)
                #expect(refused.status == .badRequest, "\(body)")
                #expect(Self.message(refused).hasPrefix("\(field):"), "\(body): \(Self.message(refused))")
            }
            let after = try await client.send(.get, Self.settings, token: scene.driver)
            #expect(try Self.json(after) == NavigationUISettings().jsonValue)
            #expect(after.headers[.eTag] == "\"s0\"")
        }
        let logged = try await scene.app.store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 1_000)
        #expect(!logged.contains { $0.type == "didUpdateNavigationUISettings" })
    }

    /// The server and the vehicle's own driver may read and write the settings; a rider and
    /// another vehicle's driver may not; an unknown vehicle is a 404.
    @Test func settingsAccess() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 0)
            let body = #"{"compassButton": true}"#
            for token in [scene.rider, scene.otherDriver] {
                #expect(try await client.send(.get, Self.settings, token: token).status == .forbidden)
                #expect(try await client.send(.put, Self.settings, token: token, body: body).status == .forbidden)
                #expect(try await client.send(.delete, Self.settings, token: token).status == .forbidden)
            }
            #expect(try await client.send(.get, Self.settings).status == .unauthorized)
            let missing = "/v1/providers/p/vehicles/nobody/navigationUISettings"
            #expect(try await client.send(.get, missing, token: scene.admin).status == .notFound)
            #expect(try await client.send(.put, missing, token: scene.admin, body: body).status == .notFound)
            #expect(try await client.send(.get, Self.settings, token: scene.admin).status == .ok)
        }
    }

    // MARK: - Screen, layout and card

    /// navigation.png decodes at the asked size (portrait and landscape, scale 1–3);
    /// layout.json lays out the same screen; the card comes in its sizes, mono as a 1-bit PNG.
    @Test func picturesComeAtTheAskedSize() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 8)
            for (query, width, height) in [
                ("", 390, 844), ("?width=390&height=844&scale=2", 780, 1688),
                ("?width=844&height=390&scale=3", 2532, 1170), ("?width=320&height=480&lighting=lowLight", 320, 480),
            ] {
                let response = try await client.send(.get, "\(Self.vehicle)/navigation.png\(query)", token: scene.driver)
                #expect(response.status == .ok && response.headers[.contentType] == "image/png", "\(query): \(response.text.prefix(200))")
                let image = try Self.image(response)
                #expect(image.width == width && image.height == height, "\(query)")
            }
            let layout = try Self.json(
                try await client.send(
                    .get, "\(Self.vehicle)/navigation/layout.json?width=844&height=390&scale=2",
                    token: scene.driver))
            #expect(layout["orientation"] == .string("landscape"))
            #expect(layout["scale"] == .number(2, integer: 2))
            #expect(Self.rect(layout, "header") != nil && Self.rect(layout, "footer") != nil && Self.rect(layout, "map") != nil)
            #expect(layout["camera"]?["mode"] == .string("following"))

            for (query, width, height) in [
                ("", 240, 240), ("?size=320x240&scale=2", 640, 480), ("?size=240x240&shape=round", 240, 240),
                ("?size=240x320", 240, 320), ("?size=128x64&palette=mono", 128, 64),
            ] {
                let response = try await client.send(.get, "\(Self.vehicle)/navInfo/card.png\(query)", token: scene.driver)
                #expect(response.status == .ok && response.headers[.contentType] == "image/png", "\(query): \(response.text.prefix(200))")
                let bytes = Array(response.body)
                let image = try PNGCodec.decode(bytes)
                #expect(image.width == width && image.height == height, "\(query)")
                // IHDR's bit depth and colour type: 1-bit greyscale for mono, 8-bit RGB otherwise.
                #expect(Array(bytes[24...25]) == (query.contains("mono") ? [1, 0] : [8, 2]), "\(query)")
            }
        }
    }

    /// The pictures are the driver's: a rider, another vehicle's driver and an anonymous
    /// caller are refused, an unknown vehicle is a 404.
    @Test func picturesAreForTheServerAndTheVehiclesDriver() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 3)
            for path in ["navigation.png", "navigation/layout.json", "navInfo/card.png"] {
                let uri = "\(Self.vehicle)/\(path)"
                #expect(try await client.send(.get, uri, token: scene.driver).status == .ok, "\(path)")
                #expect(try await client.send(.get, uri, token: scene.admin).status == .ok, "\(path)")
                let rider = try await client.send(.get, uri, token: scene.rider)
                #expect(rider.status == .forbidden && Self.message(rider).contains("consumer"), "\(path)")
                let other = try await client.send(.get, uri, token: scene.otherDriver)
                #expect(other.status == .forbidden && Self.message(other).contains("another vehicle"), "\(path)")
                #expect(try await client.send(.get, uri).status == .unauthorized, "\(path)")
                #expect(try await client.send(.get, "/v1/providers/p/vehicles/nobody/\(path)", token: scene.admin).status == .notFound)
            }
        }
    }

    /// A bad query is a 400 whose message starts with the parameter at fault.
    @Test func badQueriesNameTheParameter() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 3)
            let cases: [(path: String, parameter: String)] = [
                ("navigation.png?width=wide", "width"),
                ("navigation.png?height=100", "height"),
                ("navigation.png?width=1000&scale=3", "width"),
                ("navigation.png?scale=4", "scale"),
                ("navigation.png?camera=orbit", "camera"),
                ("navigation.png?camera=free&center=91,0", "center"),
                ("navigation.png?camera=free&zoom=30", "zoom"),
                ("navigation.png?zoom=12", "zoom"),
                ("navigation.png?perspective=tilted", "perspective"),
                ("navigation.png?lighting=dusk", "lighting"),
                ("navigation.png?at=yesterday", "at"),
                ("navigation.png?tz=Mars/Olympus", "tz"),
                ("navigation.png?units=furlongs", "units"),
                ("navigation.png?widht=400", "widht"),
                ("navigation/layout.json?scale=0", "scale"),
                ("navigation/layout.json?style=night", "style"),
                ("navInfo/card.png?size=100x100", "size"),
                ("navInfo/card.png?size=320x240&shape=round", "shape"),
                ("navInfo/card.png?palette=sepia", "palette"),
                ("navInfo/card.png?scale=9", "scale"),
                ("navInfo/card.png?width=200", "width"),
            ]
            for (path, parameter) in cases {
                let response = try await client.send(.get, "\(Self.vehicle)/\(path)", token: scene.driver)
                #expect(response.status == .badRequest, "\(path)")
                #expect(Self.message(response).hasPrefix("\(parameter):"), "\(path): \(Self.message(response))")
            }
        }
    }

    /// The ETag is answered with 304 and no body while nothing drawn changed (also when the
    /// clock moves within the arrival minute), and changes when the vehicle moves.
    @Test func etagsAndNotModified() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 5)
            // A fixed clock: at the server's own, the arrival minute the screen shows may move
            // between two requests and rightly change the ETag.
            let fixed = "at=2025-06-15T15:06:40Z"
            for path in ["navigation.png?scale=2&\(fixed)", "navigation/layout.json?\(fixed)", "navInfo/card.png?size=128x64&palette=mono&\(fixed)"] {
                let uri = "\(Self.vehicle)/\(path)"
                let first = try await client.send(.get, uri, token: scene.driver)
                let etag = try #require(first.headers[.eTag], "\(path)")
                #expect(first.headers[.cacheControl] == "private, no-cache")
                let again = try await client.send(.get, uri, token: scene.driver, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.isEmpty, "\(path)")
                #expect(again.headers[.eTag] == etag)
                let weak = try await client.send(.get, uri, token: scene.driver, headers: [.ifNoneMatch: "\"x\", W/\(etag)"])
                #expect(weak.status == .notModified, "\(path)")
                let stale = try await client.send(.get, uri, token: scene.driver, headers: [.ifNoneMatch: "\"x\""])
                #expect(stale.status == .ok && !stale.body.isEmpty, "\(path)")
            }
            let uri = "\(Self.vehicle)/navigation.png"
            let at = "2025-06-15T15:06:40Z"
            let before = try #require(try await client.send(.get, "\(uri)?at=\(at)", token: scene.driver).headers[.eTag])
            let sameMinute = try await client.send(.get, "\(uri)?at=2025-06-15T15:06:41Z", token: scene.driver, headers: [.ifNoneMatch: before])
            let arrivalMinuteMoves = try await client.send(
                .get, "\(uri)?at=2025-06-15T15:20:40Z", token: scene.driver,
                headers: [.ifNoneMatch: before])
            #expect(arrivalMinuteMoves.status == .ok)
            // The arrival minute moves at most once in a second; one of the two neighbours keeps it.
            let earlier = try await client.send(.get, "\(uri)?at=2025-06-15T15:06:39Z", token: scene.driver, headers: [.ifNoneMatch: before])
            #expect(sameMinute.status == .notModified || earlier.status == .notModified)
            try await scene.drive(
                client,
                Array(
                    try DriveSimulator(route: StraightRoute.streets(), start: NavFixtures.start, interval: 2)
                        .dropFirst(5).prefix(1)))
            let moved = try await client.send(.get, "\(uri)?at=\(at)", token: scene.driver, headers: [.ifNoneMatch: before])
            #expect(moved.status == .ok && moved.headers[.eTag] != before)
        }
    }

    /// A settings change shows in the very next navigation.png and layout.json: the header
    /// in the new colour, by day and (falling back to it) at night, then no header at all, the
    /// trip progress bar where the guide puts it, and the defaults again after a DELETE.
    @Test func settingsChangesShowInTheNextScreen() async throws {
        let scene = try await Scene()
        try await scene.harness.test { client in
            try await scene.prepare(client, points: 8)
            let png = "\(Self.vehicle)/navigation.png?scale=2&lighting=normal"
            let layoutURI = "\(Self.vehicle)/navigation/layout.json?scale=2&lighting=normal"
            func headerColor(_ query: String = "") async throws -> Color? {
                let layout = try Self.json(try await client.send(.get, layoutURI + query, token: scene.driver))
                guard let header = Self.rect(layout, "headerPrimary") else { return nil }
                let image = try Self.image(try await client.send(.get, png + query, token: scene.driver))
                return image.pixel(x: Int((header.x + header.width - 4) * 2), y: Int((header.y + 4) * 2)).unpremultiplied
            }
            #expect(try await headerColor() == NavigationUISettings.defaultPrimaryBackground)
            let before = try #require(try await client.send(.get, png, token: scene.driver).headers[.eTag])

            try await client.send(.put, Self.settings, token: scene.driver, body: ##"{"navigationHeaderPrimaryBackgroundColor": "#C00000"}"##)
            #expect(try await headerColor() == Color(red: 0xC0, green: 0, blue: 0))
            let nightLayout = try Self.json(
                try await client.send(
                    .get, "\(Self.vehicle)/navigation/layout.json?scale=2&lighting=lowLight",
                    token: scene.driver))
            let nightHeader = try #require(Self.rect(nightLayout, "headerPrimary"))
            let nightImage = try Self.image(
                try await client.send(
                    .get, "\(Self.vehicle)/navigation.png?scale=2&lighting=lowLight",
                    token: scene.driver))
            #expect(
                nightImage.pixel(x: Int((nightHeader.x + nightHeader.width - 4) * 2), y: Int((nightHeader.y + 4) * 2)).unpremultiplied
                    == Color(red: 0xC0, green: 0, blue: 0), "the night header falls back to the day colour")
            let changed = try await client.send(.get, png, token: scene.driver, headers: [.ifNoneMatch: before])
            #expect(changed.status == .ok, "a settings change is a new picture")

            try await client.send(
                .put, Self.settings, token: scene.driver,
                body: #"{"navigationHeaderEnabled": false, "navigationTripProgressBarEnabled": true}"#)
            let layout = try Self.json(try await client.send(.get, layoutURI, token: scene.driver))
            #expect(Self.rect(layout, "header") == nil)
            let bar = try #require(Self.rect(layout, "tripProgressBar"))
            #expect(bar.width == 12 && bar.y + bar.height == 844 - 210 && bar.height == 400)

            try await client.send(.delete, Self.settings, token: scene.driver)
            #expect(try await headerColor() == NavigationUISettings.defaultPrimaryBackground)
            let layoutAfter = try Self.json(try await client.send(.get, layoutURI, token: scene.driver))
            #expect(Self.rect(layoutAfter, "tripProgressBar") == nil)
        }
    }
}
