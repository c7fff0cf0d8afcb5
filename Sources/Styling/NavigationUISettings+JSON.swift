// The JSON form of the navigation UI settings, with the style coordinator's semantics: a
// body names what it changes; a member set to `null` returns that setting to its default
// (`speedometerUIOptions: null` all of its colours); what is not named stays as it was; a
// `null` body restores every default. Reading gives every setting in effect (a night colour
// that is not set reads as the day colour it follows). Decoding is strict and all or nothing:
// an unknown member, a wrong type or a bad colour is refused with its field path, and nothing
// changes. `null` must be told apart from "absent", which Decodable cannot, so the members
// are walked by hand from a table.

import JSON
import Raster
import TripModel

extension NavigationUISettings {
    /// The name documents use for the settings in error paths.
    package static let jsonRoot = "navigationUISettings"

    /// These settings with a JSON body applied over them (see the file comment). Throws,
    /// naming the field path, when the body is not acceptable.
    package func applying(json bytes: some Collection<UInt8>) throws(JSONInputError) -> NavigationUISettings {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw JSONInputError(path: Self.jsonRoot, message: error.description)
        }
        return try applying(value)
    }

    /// These settings with a parsed JSON body applied over them.
    package func applying(_ value: JSONValue) throws(JSONInputError) -> NavigationUISettings {
        guard case .object(let members) = value else {
            if value == .null { return NavigationUISettings() }
            throw JSONInputError(path: Self.jsonRoot, message: "expected an object, got \(value.kindDescription)")
        }
        var next = self
        for (name, member) in members {
            let path = "\(Self.jsonRoot).\(name)"
            guard let field = Self.fields.first(where: { $0.name == name })?.field else {
                throw JSONInputError(path: path, message: "unknown field")
            }
            try field.apply(member, to: &next, path: path)
        }
        return next
    }

    /// Settings read from a JSON document over the defaults (a settings file, a stored copy).
    public init(json bytes: some Collection<UInt8>) throws(JSONInputError) {
        self = try NavigationUISettings().applying(json: bytes)
    }

    /// Every setting in effect, as a JSON object in the documented order.
    package var jsonValue: JSONValue {
        .object(Self.fields.map { ($0.name, $0.field.read(self)) })
    }

    /// Only the settings that differ from the defaults: the form to store, so that a later
    /// change of a default reaches vehicles that never set it.
    package var overridesJSONValue: JSONValue {
        let defaults = NavigationUISettings()
        return .object(
            Self.fields.compactMap { entry in
                let value = entry.field.read(self, effective: false)
                return value == entry.field.read(defaults, effective: false) ? nil : (entry.name, value)
            })
    }

    /// ``jsonValue`` as compact JSON bytes.
    package func encodedJSON() -> [UInt8] {
        (try? JSONStreamEncoder().encode(jsonValue)) ?? Array("{}".utf8)
    }

    // MARK: - The table

    /// A setting's key path, shareable between concurrent requests.
    typealias Key<Value> = any WritableKeyPath<NavigationUISettings, Value> & Sendable

    /// How one member is read and written.
    enum Field: Sendable {
        case bool(Key<Bool>)
        case color(Key<Color>)
        /// A night colour: nil follows `day`, and reads as it.
        case nightColor(Key<Color?>, day: Key<Color>)
        case strategy
        case accessory
        case speedometer

        func read(_ settings: NavigationUISettings, effective: Bool = true) -> JSONValue {
            switch self {
            case .bool(let key): return .bool(settings[keyPath: key])
            case .color(let key): return .string(settings[keyPath: key].hex)
            case .nightColor(let key, let day):
                guard let color = settings[keyPath: key] ?? (effective ? settings[keyPath: day] : nil) else { return .null }
                return .string(color.hex)
            case .strategy: return .string(settings.alternateRoutesStrategy.rawValue)
            case .accessory: return .array(settings.headerAccessory.map { .string($0) })
            case .speedometer: return settings.speedometerUIOptions.jsonValue
            }
        }

        func apply(_ value: JSONValue, to settings: inout NavigationUISettings, path: String) throws(JSONInputError) {
            let defaults = NavigationUISettings()
            switch self {
            case .bool(let key):
                settings[keyPath: key] = value == .null ? defaults[keyPath: key] : try JSONField.bool(value, path: path)
            case .color(let key):
                settings[keyPath: key] = value == .null ? defaults[keyPath: key] : try JSONField.color(value, path: path)
            case .nightColor(let key, _):
                settings[keyPath: key] = value == .null ? nil : try JSONField.color(value, path: path)
            case .strategy:
                guard value != .null else {
                    settings.alternateRoutesStrategy = defaults.alternateRoutesStrategy
                    return
                }
                let names = AlternateRoutesStrategy.allCases.map(\.rawValue)
                guard case .string(let text) = value, let strategy = AlternateRoutesStrategy(rawValue: text) else {
                    throw JSONInputError(path: path, message: "expected one of \(names.joined(separator: ", ")), got \(JSONField.show(value))")
                }
                settings.alternateRoutesStrategy = strategy
            case .accessory:
                settings.headerAccessory = value == .null ? [] : try JSONField.accessory(value, path: path)
            case .speedometer:
                settings.speedometerUIOptions =
                    value == .null
                    ? SpeedometerUIOptions() : try settings.speedometerUIOptions.applying(value, path: path)
            }
        }
    }

    /// Every member, in the order documents list them.
    static let fields: [(name: String, field: Field)] = [
        ("navigationHeaderEnabled", .bool(\.navigationHeaderEnabled)),
        ("navigationFooterEnabled", .bool(\.navigationFooterEnabled)),
        ("navigationHeaderPrimaryBackgroundColor", .color(\.navigationHeaderPrimaryBackgroundColor)),
        ("navigationHeaderSecondaryBackgroundColor", .color(\.navigationHeaderSecondaryBackgroundColor)),
        (
            "navigationHeaderPrimaryBackgroundColorNightMode",
            .nightColor(\.navigationHeaderPrimaryBackgroundColorNightMode, day: \.navigationHeaderPrimaryBackgroundColor)
        ),
        (
            "navigationHeaderSecondaryBackgroundColorNightMode",
            .nightColor(\.navigationHeaderSecondaryBackgroundColorNightMode, day: \.navigationHeaderSecondaryBackgroundColor)
        ),
        ("navigationHeaderLargeManeuverIconColor", .color(\.navigationHeaderLargeManeuverIconColor)),
        ("navigationHeaderSmallManeuverIconColor", .color(\.navigationHeaderSmallManeuverIconColor)),
        ("navigationHeaderGuidanceRecommendedLaneColor", .color(\.navigationHeaderGuidanceRecommendedLaneColor)),
        ("navigationHeaderNextStepTextColor", .color(\.navigationHeaderNextStepTextColor)),
        ("navigationHeaderDistanceValueTextColor", .color(\.navigationHeaderDistanceValueTextColor)),
        ("navigationHeaderDistanceUnitsTextColor", .color(\.navigationHeaderDistanceUnitsTextColor)),
        ("navigationHeaderInstructionsTextColor", .color(\.navigationHeaderInstructionsTextColor)),
        ("compassButton", .bool(\.compassButton)),
        ("myLocationButton", .bool(\.myLocationButton)),
        ("recenterButtonEnabled", .bool(\.recenterButtonEnabled)),
        ("navigationTripProgressBarEnabled", .bool(\.navigationTripProgressBarEnabled)),
        ("showsTrafficLights", .bool(\.showsTrafficLights)),
        ("showsStopSigns", .bool(\.showsStopSigns)),
        ("shouldDisplaySpeedometer", .bool(\.shouldDisplaySpeedometer)),
        ("speedometerUIOptions", .speedometer),
        ("showsDestinationMarkers", .bool(\.showsDestinationMarkers)),
        ("alternateRoutesStrategy", .strategy),
        ("headerAccessory", .accessory),
        ("scrollGestures", .bool(\.scrollGestures)),
        ("zoomGestures", .bool(\.zoomGestures)),
        ("tiltGestures", .bool(\.tiltGestures)),
        ("rotateGestures", .bool(\.rotateGestures)),
    ]
}

extension SpeedometerUIOptions {
    /// Every colour, by its member name.
    static let fields: [(name: String, key: any WritableKeyPath<SpeedometerUIOptions, Color> & Sendable)] = [
        ("minorSpeedAlertTextColor", \.minorSpeedAlertTextColor),
        ("minorSpeedAlertBackgroundColor", \.minorSpeedAlertBackgroundColor),
        ("majorSpeedAlertTextColor", \.majorSpeedAlertTextColor),
        ("majorSpeedAlertBackgroundColor", \.majorSpeedAlertBackgroundColor),
        ("minorSpeedAlertTextColorNightMode", \.minorSpeedAlertTextColorNightMode),
        ("minorSpeedAlertBackgroundColorNightMode", \.minorSpeedAlertBackgroundColorNightMode),
        ("majorSpeedAlertTextColorNightMode", \.majorSpeedAlertTextColorNightMode),
        ("majorSpeedAlertBackgroundColorNightMode", \.majorSpeedAlertBackgroundColorNightMode),
    ]

    /// The colours as a JSON object.
    var jsonValue: JSONValue { .object(Self.fields.map { ($0.name, .string(self[keyPath: $0.key].hex)) }) }

    /// These options with the members of an object applied (`null` members restore theirs).
    func applying(_ value: JSONValue, path: String) throws(JSONInputError) -> SpeedometerUIOptions {
        guard case .object(let members) = value else {
            throw JSONInputError(path: path, message: "expected an object, got \(value.kindDescription)")
        }
        var next = self
        for (name, member) in members {
            guard let key = Self.fields.first(where: { $0.name == name })?.key else {
                throw JSONInputError(path: "\(path).\(name)", message: "unknown field")
            }
            next[keyPath: key] =
                member == .null
                ? SpeedometerUIOptions()[keyPath: key]
                : try JSONField.color(member, path: "\(path).\(name)")
        }
        return next
    }
}

/// Reading one JSON member as a setting's type, with messages that say what was expected.
private enum JSONField {
    static func bool(_ value: JSONValue, path: String) throws(JSONInputError) -> Bool {
        guard case .bool(let flag) = value else {
            throw JSONInputError(path: path, message: "expected true or false, got \(show(value))")
        }
        return flag
    }

    static func color(_ value: JSONValue, path: String) throws(JSONInputError) -> Color {
        guard case .string(let text) = value, let color = Color(hex: text) else {
            throw JSONInputError(path: path, message: "expected a colour as #RRGGBB or #RRGGBBAA, got \(show(value))")
        }
        return color
    }

    static func accessory(_ value: JSONValue, path: String) throws(JSONInputError) -> [String] {
        guard case .array(let elements) = value else {
            throw JSONInputError(path: path, message: "expected an array of lines of text, got \(show(value))")
        }
        guard elements.count <= NavigationUISettings.maximumAccessoryLines else {
            throw JSONInputError(
                path: path, message: "has \(elements.count) lines; at most \(NavigationUISettings.maximumAccessoryLines) fit")
        }
        var lines: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let line) = element else {
                throw JSONInputError(path: "\(path)[\(index)]", message: "expected a line of text, got \(show(element))")
            }
            // Bytes too: a character may carry any number of combining scalars.
            guard line.utf8.count <= 4 * NavigationUISettings.maximumAccessoryLineLength,
                line.count <= NavigationUISettings.maximumAccessoryLineLength
            else {
                throw JSONInputError(
                    path: "\(path)[\(index)]",
                    message: "is \(line.count) characters (\(line.utf8.count) bytes in UTF-8); at most "
                        + "\(NavigationUISettings.maximumAccessoryLineLength) characters of up to 4 bytes fit")
            }
            lines.append(line)
        }
        return lines
    }

    /// A value as an error message shows it: strings quoted (and cut short), others by kind.
    static func show(_ value: JSONValue) -> String {
        if case .string(let text) = value { return "\"\(text.prefix(40))\"" }
        return value.kindDescription
    }
}
