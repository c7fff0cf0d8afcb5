import JSON
import Raster
import Styling
import Testing
import TripModel

@Suite struct NavigationUISettingsTests {
    private func apply(_ json: String, to settings: NavigationUISettings = NavigationUISettings()) throws -> NavigationUISettings {
        try settings.applying(json: Array(json.utf8))
    }

    private func refusal(_ json: String) -> JSONInputError? {
        do {
            _ = try apply(json)
            return nil
        } catch let error as JSONInputError {
            return error
        } catch {
            return nil
        }
    }

    private func object(_ value: JSONValue) -> [String: JSONValue] {
        guard case .object(let members) = value else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// Reading gives every setting of DESIGN §9 with its default; unset night colours read as
    /// the day colours they follow.
    @Test func defaultsInEffect() throws {
        let json = object(NavigationUISettings().jsonValue)
        #expect(json.count == 28)
        let expected: [String: JSONValue] = [
            "navigationHeaderEnabled": .bool(true), "navigationFooterEnabled": .bool(true),
            "navigationHeaderPrimaryBackgroundColor": .string("#188038"),
            "navigationHeaderSecondaryBackgroundColor": .string("#0D652D"),
            "navigationHeaderPrimaryBackgroundColorNightMode": .string("#188038"),
            "navigationHeaderSecondaryBackgroundColorNightMode": .string("#0D652D"),
            "compassButton": .bool(false), "myLocationButton": .bool(false), "recenterButtonEnabled": .bool(true),
            "navigationTripProgressBarEnabled": .bool(false), "showsTrafficLights": .bool(false),
            "showsStopSigns": .bool(false), "shouldDisplaySpeedometer": .bool(false),
            "showsDestinationMarkers": .bool(true), "alternateRoutesStrategy": .string("all"), "headerAccessory": .array([]),
            "scrollGestures": .bool(true), "zoomGestures": .bool(true), "tiltGestures": .bool(true), "rotateGestures": .bool(true),
        ]
        for (name, value) in expected { #expect(json[name] == value, "\(name)") }
        #expect(object(json["speedometerUIOptions"] ?? .null).count == 8)
        #expect(NavigationUISettings().overridesJSONValue == .object([]))
    }

    /// What a body names replaces, `null` restores that setting's default, what it does not
    /// name stays; the speedometer's colours merge one by one.
    @Test func mergeSemantics() throws {
        var settings = try apply(
            """
            {"compassButton": true, "navigationHeaderPrimaryBackgroundColor": "#123456",
             "speedometerUIOptions": {"majorSpeedAlertBackgroundColor": "#FF0000"}, "headerAccessory": ["Order 42", "Ring twice"],
             "alternateRoutesStrategy": "one"}
            """)
        #expect(settings.compassButton)
        #expect(settings.navigationHeaderPrimaryBackgroundColor == Color(hex: "#123456"))
        #expect(settings.speedometerUIOptions.majorSpeedAlertBackgroundColor == Color(hex: "#FF0000"))
        #expect(settings.headerAccessory == ["Order 42", "Ring twice"])
        #expect(settings.alternateRoutesStrategy == .one)

        settings = try apply(
            """
            {"compassButton": null, "myLocationButton": true, "speedometerUIOptions": {"minorSpeedAlertTextColor": "#00FF0080"}}
            """, to: settings)
        #expect(!settings.compassButton, "null restores the default")
        #expect(settings.myLocationButton)
        #expect(settings.navigationHeaderPrimaryBackgroundColor == Color(hex: "#123456"), "not named: kept")
        #expect(settings.speedometerUIOptions.majorSpeedAlertBackgroundColor == Color(hex: "#FF0000"), "merged, not replaced")
        #expect(settings.speedometerUIOptions.minorSpeedAlertTextColor == Color(red: 0, green: 255, blue: 0, alpha: 128))

        settings = try apply(##"{"speedometerUIOptions": null, "headerAccessory": null, "alternateRoutesStrategy": null}"##, to: settings)
        #expect(settings.speedometerUIOptions == SpeedometerUIOptions())
        #expect(settings.headerAccessory.isEmpty && settings.alternateRoutesStrategy == .all)

        #expect(try apply("null", to: settings) == NavigationUISettings(), "a null body restores everything")
    }

    /// The night header colours follow the day ones until set; `null` makes them follow again.
    @Test func nightHeaderFallsBackToDay() throws {
        var settings = try apply(##"{"navigationHeaderPrimaryBackgroundColor": "#AA0000", "navigationHeaderSecondaryBackgroundColor": "#550000"}"##)
        #expect(settings.headerPrimaryBackgroundColor(night: true) == Color(hex: "#AA0000"))
        #expect(settings.headerSecondaryBackgroundColor(night: true) == Color(hex: "#550000"))
        #expect(object(settings.jsonValue)["navigationHeaderPrimaryBackgroundColorNightMode"] == .string("#AA0000"))
        settings = try apply(##"{"navigationHeaderPrimaryBackgroundColorNightMode": "#000044"}"##, to: settings)
        #expect(settings.headerPrimaryBackgroundColor(night: true) == Color(hex: "#000044"))
        #expect(settings.headerPrimaryBackgroundColor(night: false) == Color(hex: "#AA0000"))
        settings = try apply(##"{"navigationHeaderPrimaryBackgroundColorNightMode": null}"##, to: settings)
        #expect(settings.headerPrimaryBackgroundColor(night: true) == Color(hex: "#AA0000"))
    }

    /// Bad bodies are refused whole, naming the field and what is wrong.
    @Test func refusalsNameTheField() {
        let root = NavigationUISettings.jsonRoot
        let cases: [(String, String, String)] = [
            (##"{"compasButton": true}"##, "\(root).compasButton", "unknown field"),
            (##"{"compassButton": "yes"}"##, "\(root).compassButton", "expected true or false, got \"yes\""),
            (
                ##"{"navigationHeaderPrimaryBackgroundColor": "green"}"##, "\(root).navigationHeaderPrimaryBackgroundColor",
                "expected a colour as #RRGGBB or #RRGGBBAA, got \"green\""
            ),
            (
                ##"{"navigationHeaderPrimaryBackgroundColorNightMode": "#12345"}"##, "\(root).navigationHeaderPrimaryBackgroundColorNightMode",
                "expected a colour as #RRGGBB or #RRGGBBAA, got \"#12345\""
            ),
            (
                ##"{"navigationHeaderInstructionsTextColor": 255}"##, "\(root).navigationHeaderInstructionsTextColor",
                "expected a colour as #RRGGBB or #RRGGBBAA, got a number"
            ),
            (##"{"speedometerUIOptions": {"minorColor": "#FFFFFF"}}"##, "\(root).speedometerUIOptions.minorColor", "unknown field"),
            (
                ##"{"speedometerUIOptions": {"majorSpeedAlertTextColor": "#GG0000"}}"##, "\(root).speedometerUIOptions.majorSpeedAlertTextColor",
                "expected a colour as #RRGGBB or #RRGGBBAA, got \"#GG0000\""
            ),
            (##"{"speedometerUIOptions": true}"##, "\(root).speedometerUIOptions", "expected an object, got a boolean"),
            (##"{"alternateRoutesStrategy": "two"}"##, "\(root).alternateRoutesStrategy", "expected one of all, one, none, got \"two\""),
            (##"{"headerAccessory": "hello"}"##, "\(root).headerAccessory", "expected an array of lines of text, got \"hello\""),
            (##"{"headerAccessory": ["a", 2]}"##, "\(root).headerAccessory[1]", "expected a line of text, got a number"),
            (##"{"headerAccessory": ["a", "b", "c", "d"]}"##, "\(root).headerAccessory", "has 4 lines; at most 3 fit"),
            ("[1]", root, "expected an object, got an array"),
        ]
        for (body, path, message) in cases {
            let error = refusal(body)
            #expect(error?.path == path, "\(body)")
            #expect(error?.message == message, "\(body)")
        }
        let long = String(repeating: "x", count: 81)
        #expect(refusal(##"{"headerAccessory": ["\##(long)"]}"##)?.path == "\(root).headerAccessory[0]")
        #expect(refusal("{\"compassButton\": tru}")?.path == root, "malformed JSON names the document")
    }

    /// A body with one bad member changes nothing, not even the good members before it.
    @Test func allOrNothing() throws {
        let settings = try apply(##"{"compassButton": true}"##)
        #expect(throws: JSONInputError.self) {
            _ = try settings.applying(json: Array(##"{"myLocationButton": true, "zoomGestures": 1}"##.utf8))
        }
        #expect(settings.compassButton && !settings.myLocationButton)
    }

    /// The stored form holds only what differs from the defaults (an unset night colour stays
    /// unset) and reads back to the same settings; the effective form does as well.
    @Test func storedFormRoundTrips() throws {
        let settings = try apply(
            """
            {"navigationFooterEnabled": false, "navigationHeaderSecondaryBackgroundColor": "#102030",
             "speedometerUIOptions": {"majorSpeedAlertTextColorNightMode": "#FFFF00"}, "headerAccessory": ["Gate B"],
             "tiltGestures": false}
            """)
        let stored = object(settings.overridesJSONValue)
        #expect(
            Set(stored.keys) == [
                "navigationFooterEnabled", "navigationHeaderSecondaryBackgroundColor", "speedometerUIOptions",
                "headerAccessory", "tiltGestures",
            ])
        let storedBytes = try JSONStreamEncoder().encode(settings.overridesJSONValue)
        let restored = try NavigationUISettings(json: storedBytes)
        #expect(restored == settings)
        #expect(restored.navigationHeaderSecondaryBackgroundColorNightMode == nil)
        #expect(try NavigationUISettings(json: settings.encodedJSON()).jsonValue == settings.jsonValue)
    }
}
