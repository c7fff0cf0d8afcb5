import JSON
import Navigation
import Testing

/// The settable navigator settings: absent fields take their defaults, out-of-range values and
/// inverted speed-alert thresholds are refused with the field named.
@Suite struct SettableNavigatorSettingsTests {
    /// An empty body means the defaults; a given value replaces only its field.
    @Test func absentFieldsTakeTheirDefaults() throws {
        #expect(try SettableNavigatorSettings(NavigatorSettings()).settings() == NavigatorSettings())
        var body = try StrictJSONDecoder().decode(SettableNavigatorSettings.self, from: Array("{}".utf8), root: "s")
        #expect(try body.settings() == NavigatorSettings())
        body.distanceUpdateThreshold = 25
        let settings = try body.settings()
        #expect(settings.distanceUpdateThreshold == 25)
        #expect(settings.timeUpdateThreshold == NavigatorSettings().timeUpdateThreshold)
    }

    /// Negative or non-finite values, and a major alert below the minor one, name the field.
    @Test func badValuesNameTheField() {
        func refusal(_ change: (inout SettableNavigatorSettings) -> Void) -> FieldError? {
            var body = SettableNavigatorSettings(NavigatorSettings())
            change(&body)
            do {
                _ = try body.settings()
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal { $0.timeUpdateThreshold = -1 }?.path == "navigatorSettings.timeUpdateThreshold")
        #expect(refusal { $0.distanceUpdateThreshold = .infinity }?.path == "navigatorSettings.distanceUpdateThreshold")
        #expect(refusal { $0.majorSpeedAlertThresholdKph = 5 }?.path == "navigatorSettings.majorSpeedAlertThresholdKph")
        #expect(refusal { $0.minorSpeedAlertThresholdKph = 1 } == nil)
    }
}
