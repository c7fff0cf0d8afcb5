import Foundation
import Raster
import Styling
import Testing

/// The shipped styles, loaded once per test.
func library() throws -> StyleLibrary { try StyleLibrary.bundled() }

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

let red = Color(red: 0xD9, green: 0x30, blue: 0x25)

@Suite struct StyleCoordinatorTests {
    /// With nothing set, every type reads as the base style's options.
    @Test func readsDefaultsWhenNothingIsSet() throws {
        let base = try library().defaultStyle
        let coordinator = StyleCoordinator(defaults: base)
        for type in MarkerType.allCases { #expect(coordinator.markerStyleOptions(for: type) == base[marker: type]) }
        for type in PolylineType.allCases { #expect(coordinator.polylineStyleOptions(for: type) == base[polyline: type]) }
        #expect(coordinator.styleSheet == base)
        #expect(!coordinator.isModified)
    }

    /// Setting options replaces that type's options and nothing else; reading gives them back.
    @Test func setReplacesOneType() throws {
        let base = try library().defaultStyle
        var coordinator = StyleCoordinator(defaults: base)
        var options = base[marker: .tripVehicle]
        options.zIndex = 42
        options.isFlat = false
        coordinator.setMarkerStyleOptions(options, for: .tripVehicle)
        #expect(coordinator.markerStyleOptions(for: .tripVehicle) == options)
        #expect(coordinator.markerStyleOptions(for: .tripPickupPoint) == base[marker: .tripPickupPoint])
        #expect(coordinator.styleSheet[marker: .tripVehicle].zIndex == 42)
    }

    /// The coordinator keeps a copy: changing the caller's value afterwards changes nothing.
    @Test func storedOptionsAreACopy() throws {
        let base = try library().defaultStyle
        var coordinator = StyleCoordinator(defaults: base)
        var options = base[polyline: .activeRoute]
        options.color = red
        coordinator.setPolylineStyleOptions(options, for: .activeRoute)
        options.color = .black
        options.width = 30
        #expect(coordinator.polylineStyleOptions(for: .activeRoute).color == red)
        #expect(coordinator.polylineStyleOptions(for: .activeRoute).width == base[polyline: .activeRoute].width)
    }

    /// Setting nil restores the defaults of that type only.
    @Test func nilRestoresDefaults() throws {
        let base = try library().defaultStyle
        var coordinator = StyleCoordinator(defaults: base)
        var marker = base[marker: .tripDropoffPoint]
        marker.isVisible = false
        coordinator.setMarkerStyleOptions(marker, for: .tripDropoffPoint)
        var line = base[polyline: .remainingRoute]
        line.width = 9
        coordinator.setPolylineStyleOptions(line, for: .remainingRoute)
        coordinator.setMarkerStyleOptions(nil, for: .tripDropoffPoint)
        #expect(coordinator.markerStyleOptions(for: .tripDropoffPoint) == base[marker: .tripDropoffPoint])
        #expect(coordinator.polylineStyleOptions(for: .remainingRoute).width == 9)
        coordinator.setPolylineStyleOptions(nil, for: .remainingRoute)
        #expect(coordinator.styleSheet == base)
    }

    /// Traffic is off by default; with it off every traffic colour reads as the stroke
    /// colour, and the set colours apply once it is on.
    @Test func trafficColoursOnlyWithTrafficEnabled() throws {
        let base = try library().defaultStyle
        var options = base[polyline: .activeRoute]
        #expect(!options.isTrafficEnabled)
        options.setTrafficColor(red, for: .trafficJam)
        for speed in SpeedType.allCases { #expect(options.trafficColor(for: speed) == options.color) }
        #expect(options.trafficColors == TrafficColors(uniform: options.color))
        options.isTrafficEnabled = true
        #expect(options.trafficColor(for: .trafficJam) == red)
        let configured = try #require(library().style(named: "traffic"))[polyline: .activeRoute]
        #expect(options.trafficColor(for: .normal) == configured.trafficColor(for: .normal))
        #expect(options.trafficColor(for: .slow) != options.color)
    }

    /// The coordinator reads traffic colours by the same rule, per polyline type.
    @Test func coordinatorTrafficColour() throws {
        let base = try library().defaultStyle
        var coordinator = StyleCoordinator(defaults: base)
        coordinator.setTrafficColor(red, for: .slow, polyline: .activeRoute)
        #expect(coordinator.trafficColor(for: .slow, polyline: .activeRoute) == base[polyline: .activeRoute].color)
        var options = coordinator.polylineStyleOptions(for: .activeRoute)
        options.isTrafficEnabled = true
        coordinator.setPolylineStyleOptions(options, for: .activeRoute)
        #expect(coordinator.trafficColor(for: .slow, polyline: .activeRoute) == red)
        coordinator.setTrafficColor(nil, for: .slow, polyline: .activeRoute)
        let expected = try #require(library().style(named: "traffic"))[polyline: .activeRoute].trafficColor(for: .slow)
        #expect(coordinator.trafficColor(for: .slow, polyline: .activeRoute) == expected)
    }

    /// A style file names only what it overrides: the rest is the default style's.
    @Test func styleFilesOverrideOnlyWhatTheyName() throws {
        let shipped = try library()
        let base = shipped.defaultStyle
        let traffic = try #require(shipped.style(named: "traffic"))
        #expect(traffic[polyline: .activeRoute].isTrafficEnabled)
        var expected = base[polyline: .activeRoute]
        expected.isTrafficEnabled = true
        #expect(traffic[polyline: .activeRoute] == expected)
        #expect(traffic.map == base.map)
        for type in MarkerType.allCases { #expect(traffic[marker: type] == base[marker: type]) }
        let brand = try #require(shipped.style(named: "brand"))
        guard case .image(let icon) = brand[marker: .tripVehicle].icon else {
            Issue.record("the brand style's vehicle is not a PNG icon")
            return
        }
        #expect(icon.density == 2 && icon.width == 18 && icon.height == 36)
        #expect(brand[marker: .tripVehicle].groundAnchor == base[marker: .tripVehicle].groundAnchor)
        #expect(Set(shipped.names).isSuperset(of: ["default", "night", "traffic", "brand"]))
    }
}

@Suite struct StyleJSONTests {
    /// A JSON body replaces a type's options over that type's defaults, not over what was set before.
    @Test func jsonSetReplacesOverDefaults() throws {
        let shipped = try library()
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setMarkerStyleOptions(json: bytes(##"{"zIndex": 9, "isFlat": false}"##), for: .tripVehicle, icons: shipped.icons)
        try coordinator.setMarkerStyleOptions(json: bytes(##"{"groundAnchor": [0.5, 1]}"##), for: .tripVehicle, icons: shipped.icons)
        let options = coordinator.markerStyleOptions(for: .tripVehicle)
        #expect(options.groundAnchor == GroundAnchor(x: 0.5, y: 1))
        #expect(options.zIndex == shipped.defaultStyle[marker: .tripVehicle].zIndex)
        #expect(options.isFlat == shipped.defaultStyle[marker: .tripVehicle].isFlat)
    }

    /// JSON null restores a type's defaults; a null style restores everything.
    @Test func jsonNullRestores() throws {
        let shipped = try library()
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setPolylineStyleOptions(json: bytes(##"{"color": "#FF0000", "width": 10}"##), for: .activeRoute)
        try coordinator.setMarkerStyleOptions(json: bytes(##"{"isVisible": false}"##), for: .tripPickupPoint, icons: shipped.icons)
        try coordinator.setPolylineStyleOptions(json: bytes("null"), for: .activeRoute)
        #expect(coordinator.polylineStyleOptions(for: .activeRoute) == shipped.defaultStyle[polyline: .activeRoute])
        #expect(!coordinator.markerStyleOptions(for: .tripPickupPoint).isVisible)
        try coordinator.setStyle(json: bytes(" null "), icons: shipped.icons)
        #expect(coordinator.styleSheet == shipped.defaultStyle && !coordinator.isModified)
    }

    /// The rider's page shows no turns unless a style asks for them; the style reads it back,
    /// and null restores the default.
    @Test func nextTurnOnTheRidersPage() throws {
        let shipped = try library()
        #expect(!shipped.defaultStyle.map.showsNextTurn)
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setStyle(json: bytes(##"{"map": {"showsNextTurn": true}}"##), icons: shipped.icons)
        #expect(coordinator.styleSheet.map.showsNextTurn)
        #expect(String(decoding: StyleJSON.encode(coordinator.styleSheet), as: UTF8.self).contains(##""showsNextTurn":true"##))
        try coordinator.setStyle(json: bytes("null"), icons: shipped.icons)
        #expect(!coordinator.styleSheet.map.showsNextTurn)
        #expect(throws: StyleError.self) { try coordinator.setStyle(json: bytes(##"{"map": {"showsNextTurn": "yes"}}"##), icons: shipped.icons) }
    }

    /// Reading over JSON shows the stroke colour for every speed while traffic is off.
    @Test func jsonReadsTrafficColoursInEffect() throws {
        let shipped = try library()
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setTrafficColor(json: bytes(##""#D93025""##), for: .trafficJam, polyline: .remainingRoute)
        let off = String(decoding: StyleJSON.encode(coordinator.polylineStyleOptions(for: .remainingRoute)), as: UTF8.self)
        let stroke = shipped.defaultStyle[polyline: .remainingRoute].color.hex
        #expect(off.contains(##""trafficJam":"\##(stroke)""##))
        try coordinator.setPolylineStyleOptions(
            json: bytes(##"{"isTrafficEnabled": true, "trafficColors": {"trafficJam": "#D93025"}}"##), for: .remainingRoute)
        let on = String(decoding: StyleJSON.encode(coordinator.polylineStyleOptions(for: .remainingRoute)), as: UTF8.self)
        #expect(on.contains(##""trafficJam":"#D93025""##))
    }

    /// What the store keeps restores the same coordinator, traffic colours set under traffic off included.
    @Test func storedOverridesRoundTrip() throws {
        let shipped = try library()
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setMarkerStyleOptions(json: bytes(##"{"icon": "icons/brand-taxi@2x.png"}"##), for: .tripVehicle, icons: shipped.icons)
        coordinator.setTrafficColor(red, for: .noData, polyline: .activeRoute)
        try coordinator.setStyle(json: coordinator.storedOverrides(), icons: shipped.icons)
        let restored = try StyleCoordinator(defaults: shipped.defaultStyle, storedOverrides: coordinator.storedOverrides(), icons: shipped.icons)
        #expect(restored == coordinator)
        var enabled = restored.polylineStyleOptions(for: .activeRoute)
        enabled.isTrafficEnabled = true
        #expect(enabled.trafficColor(for: .noData) == red)
        #expect(String(decoding: StyleCoordinator(defaults: shipped.defaultStyle).storedOverrides(), as: UTF8.self) == "{}")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var json: String
        var path: String
        var testDescription: String { path }
    }

    static let badStyles: [BadInput] = [
        BadInput(json: ##"{"markers": {"tripVehicle": {"icon": "builtin:vehicle", "colour": "#FFFFFF"}}}"##, path: "markers.tripVehicle.colour"),
        BadInput(json: ##"{"markers": {"tripBicycle": {}}}"##, path: "markers.tripBicycle"),
        BadInput(json: ##"{"polylines": {"activeRoute": {"color": "blue"}}}"##, path: "polylines.activeRoute.color"),
        BadInput(json: ##"{"polylines": {"activeRoute": {"color": "#12345"}}}"##, path: "polylines.activeRoute.color"),
        BadInput(json: ##"{"polylines": {"remainingRoute": {"width": -2}}}"##, path: "polylines.remainingRoute.width"),
        BadInput(
            json: ##"{"polylines": {"remainingRoute": {"trafficColors": {"slow": "#GG0000"}}}}"##, path: "polylines.remainingRoute.trafficColors.slow"
        ),
        BadInput(json: ##"{"markers": {"tripPickupPoint": {"groundAnchor": [0.5]}}}"##, path: "markers.tripPickupPoint.groundAnchor"),
        BadInput(json: ##"{"markers": {"tripPickupPoint": {"groundAnchor": [0.5, 1.5]}}}"##, path: "markers.tripPickupPoint.groundAnchor"),
        BadInput(json: ##"{"markers": {"tripPickupPoint": {"etaLabel": {"fontSize": 0}}}}"##, path: "markers.tripPickupPoint.etaLabel.fontSize"),
        BadInput(json: ##"{"markers": {"tripVehicle": {"icon": "icons/missing.png"}}}"##, path: "markers.tripVehicle.icon"),
        BadInput(json: ##"{"markers": {"tripVehicle": {"icon": "../../etc/passwd.png"}}}"##, path: "markers.tripVehicle.icon"),
        BadInput(json: ##"{"markers": {"tripVehicle": {"icon": "/etc/hosts"}}}"##, path: "markers.tripVehicle.icon"),
        BadInput(json: ##"{"markers": {"tripVehicle": {"icon": "builtin:rocket"}}}"##, path: "markers.tripVehicle.icon"),
        BadInput(json: ##"{"map": {"background": 12}}"##, path: "map.background"),
        BadInput(json: ##"{"map": "#FFFFFF"}"##, path: "map"),
    ]

    /// Bad style JSON is rejected naming the offending path, and nothing that was set changes.
    @Test(arguments: badStyles) func badStyleIsRejectedWithItsPath(_ input: BadInput) throws {
        let shipped = try library()
        var coordinator = StyleCoordinator(defaults: shipped.defaultStyle)
        try coordinator.setPolylineStyleOptions(json: bytes(##"{"width": 11}"##), for: .activeRoute)
        let before = coordinator
        let error = #expect(throws: StyleError.self) { try coordinator.setStyle(json: bytes(input.json), icons: shipped.icons) }
        #expect(error?.path == input.path, "\(error?.description ?? "")")
        #expect(coordinator == before)
    }

    /// A corrupt PNG icon is refused with the icon's path and the decoder's reason.
    @Test func corruptIconIsRejected() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var png = try PNGCodec.encode(Canvas(width: 8, height: 8, background: .white).image)
        png[png.count / 2] ^= 0xFF
        try Data(png).write(to: folder.appendingPathComponent("broken.png"))
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("text.png"))
        var coordinator = StyleCoordinator(defaults: try library().defaultStyle)
        let resolver = IconResolver(directory: folder)
        for name in ["broken.png", "text.png"] {
            let error = #expect(throws: StyleError.self) {
                try coordinator.setMarkerStyleOptions(json: bytes(##"{"icon": "\##(name)"}"##), for: .tripDropoffPoint, icons: resolver)
            }
            #expect(error?.path == "markers.tripDropoffPoint.icon")
            #expect(error?.message.contains("not a usable PNG") == true)
        }
        #expect(!coordinator.isModified)
    }

    /// A malformed or empty body is an error at the type's path.
    @Test func malformedBodies() throws {
        var coordinator = StyleCoordinator(defaults: try library().defaultStyle)
        let error = #expect(throws: StyleError.self) { try coordinator.setPolylineStyleOptions(json: bytes("{"), for: .activeRoute) }
        #expect(error?.path == "polylines.activeRoute")
        #expect(throws: StyleError.self) { try coordinator.setPolylineStyleOptions(json: [], for: .activeRoute) }
        let colour = #expect(throws: StyleError.self) { try coordinator.setTrafficColor(json: bytes("5"), for: .slow, polyline: .activeRoute) }
        #expect(colour?.path == "polylines.activeRoute.trafficColors.slow")
    }
}

@Suite struct StyleLibraryTests {
    /// A default style that leaves a property out is refused, naming the property.
    @Test func incompleteDefaultIsRejected() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shipped = try library()
        var text = String(decoding: try Data(contentsOf: shipped.directory.appendingPathComponent("default.json")), as: UTF8.self)
        text = text.replacingOccurrences(of: ##""nightBackground": "#242F3E""##, with: ##""background2": "#242F3E""##)
        try Data(text.utf8).write(to: folder.appendingPathComponent("default.json"))
        let unknown = #expect(throws: StyleError.self) { try StyleLibrary(directory: folder) }
        #expect(unknown?.path == "default.json.map.background2")
        text = text.replacingOccurrences(of: ##", "background2": "#242F3E""##, with: "").replacingOccurrences(
            of: ##""background2": "#242F3E""##, with: "")
        text = text.replacingOccurrences(of: "\"background\": \"#EEF0F3\",", with: "\"background\": \"#EEF0F3\"")
        try Data(text.utf8).write(to: folder.appendingPathComponent("default.json"))
        let missing = #expect(throws: StyleError.self) { try StyleLibrary(directory: folder) }
        #expect(missing?.path == "default.json.map.nightBackground")
    }

    /// Style names are plain identifiers.
    @Test func styleNames() {
        #expect(StyleLibrary.isValidName("night-2_b"))
        #expect(!StyleLibrary.isValidName(""))
        #expect(!StyleLibrary.isValidName("../x"))
        #expect(!StyleLibrary.isValidName(String(repeating: "a", count: 65)))
    }
}
