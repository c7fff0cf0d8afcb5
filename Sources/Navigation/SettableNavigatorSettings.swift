import JSON

/// The part of a navigator's settings a client may set over the API (`navigatorSettings`);
/// a field left out takes its default. The rest of ``NavigatorSettings`` is the server's.
package struct SettableNavigatorSettings: Codable, Hashable, Sendable {
    /// ``NavigatorSettings/timeUpdateThreshold``, s.
    package var timeUpdateThreshold: Double?
    /// ``NavigatorSettings/distanceUpdateThreshold``, m.
    package var distanceUpdateThreshold: Double?
    /// ``NavigatorSettings/minorSpeedAlertThresholdKph``.
    package var minorSpeedAlertThresholdKph: Double?
    /// ``NavigatorSettings/majorSpeedAlertThresholdKph``.
    package var majorSpeedAlertThresholdKph: Double?

    /// The settable part of `settings`, every field present.
    package init(_ settings: NavigatorSettings) {
        timeUpdateThreshold = settings.timeUpdateThreshold
        distanceUpdateThreshold = settings.distanceUpdateThreshold
        minorSpeedAlertThresholdKph = settings.minorSpeedAlertThresholdKph
        majorSpeedAlertThresholdKph = settings.majorSpeedAlertThresholdKph
    }

    /// The settings these values ask for, the defaults where a field is absent; an error
    /// naming the field (under `root`) when a value is out of range or the speed-alert
    /// thresholds are inverted.
    package func settings(root: String = "navigatorSettings") throws(FieldError) -> NavigatorSettings {
        func value(_ v: Double?, _ name: String, _ fallback: Double) throws(FieldError) -> Double {
            guard let v else { return fallback }
            guard v.isFinite, (0...1_000_000).contains(v) else {
                throw FieldError(path: "\(root).\(name)", message: "must be a number in [0, 1000000]")
            }
            return v
        }
        let defaults = NavigatorSettings()
        var settings = defaults
        settings.timeUpdateThreshold = try value(timeUpdateThreshold, "timeUpdateThreshold", defaults.timeUpdateThreshold)
        settings.distanceUpdateThreshold = try value(distanceUpdateThreshold, "distanceUpdateThreshold", defaults.distanceUpdateThreshold)
        settings.minorSpeedAlertThresholdKph = try value(
            minorSpeedAlertThresholdKph, "minorSpeedAlertThresholdKph", defaults.minorSpeedAlertThresholdKph)
        settings.majorSpeedAlertThresholdKph = try value(
            majorSpeedAlertThresholdKph, "majorSpeedAlertThresholdKph", defaults.majorSpeedAlertThresholdKph)
        guard settings.majorSpeedAlertThresholdKph >= settings.minorSpeedAlertThresholdKph else {
            throw FieldError(path: "\(root).majorSpeedAlertThresholdKph", message: "must not be below minorSpeedAlertThresholdKph")
        }
        return settings
    }
}
