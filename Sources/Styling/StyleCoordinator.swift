// The style coordinator of DESIGN §6, after the Consumer SDK's
// GMTCConsumerMapStyleCoordinator: per marker and polyline type, options that were set
// replace the defaults (the base style's options for that type); setting nil (HTTP `null` or
// DELETE) restores them; reading gives what is in effect. A value type: what is stored is a
// copy, so changing the caller's options afterwards changes nothing here.

import JSON
import Raster
import TripModel

/// The options set over a base style, by type.
public struct StyleCoordinator: Hashable, Sendable {
    /// The options in effect where none are set: the base style.
    public let defaults: StyleSheet
    private var map: MapStyleOptions?
    private var markers: [MarkerType: MarkerStyleOptions] = [:]
    private var polylines: [PolylineType: PolylineStyleOptions] = [:]

    /// A coordinator with nothing set.
    public init(defaults: StyleSheet) {
        self.defaults = defaults
    }

    /// The marker options in effect for a type.
    package func markerStyleOptions(for type: MarkerType) -> MarkerStyleOptions {
        markers[type] ?? defaults[marker: type]
    }

    /// Replaces the options of a marker type; nil restores the defaults.
    public mutating func setMarkerStyleOptions(_ options: MarkerStyleOptions?, for type: MarkerType) {
        markers[type] = options
    }

    /// The polyline options in effect for a type.
    package func polylineStyleOptions(for type: PolylineType) -> PolylineStyleOptions {
        polylines[type] ?? defaults[polyline: type]
    }

    /// Replaces the options of a polyline type; nil restores the defaults.
    public mutating func setPolylineStyleOptions(_ options: PolylineStyleOptions?, for type: PolylineType) {
        polylines[type] = options
    }

    /// The colour runs of `speed` get on a polyline type: its traffic colour while traffic is
    /// enabled there, its stroke colour otherwise.
    package func trafficColor(for speed: SpeedType, polyline type: PolylineType) -> Color {
        polylineStyleOptions(for: type).trafficColor(for: speed)
    }

    /// Sets one traffic colour of a polyline type, keeping its other options; nil restores
    /// the default colour for that speed.
    public mutating func setTrafficColor(_ color: Color?, for speed: SpeedType, polyline type: PolylineType) {
        var options = polylineStyleOptions(for: type)
        options.setTrafficColor(color ?? defaults[polyline: type].configuredTrafficColors[speed], for: speed)
        polylines[type] = options
    }

    /// The map options in effect.
    package var mapStyleOptions: MapStyleOptions { map ?? defaults.map }

    /// Replaces the map options; nil restores the defaults.
    package mutating func setMapStyleOptions(_ options: MapStyleOptions?) {
        map = options
    }

    /// Restores the defaults of every type.
    package mutating func reset() {
        map = nil
        markers = [:]
        polylines = [:]
    }

    /// True when anything is set.
    package var isModified: Bool { map != nil || !markers.isEmpty || !polylines.isEmpty }

    /// The complete style in effect.
    package var styleSheet: StyleSheet {
        var sheet = defaults
        sheet.map = mapStyleOptions
        for type in MarkerType.allCases { sheet[marker: type] = markerStyleOptions(for: type) }
        for type in PolylineType.allCases { sheet[polyline: type] = polylineStyleOptions(for: type) }
        return sheet
    }
}

extension StyleCoordinator {
    // MARK: - JSON, as the HTTP API and the store use it

    /// Replaces everything set with a partial style sheet (each type it names over that
    /// type's defaults); JSON `null` restores every default. Nothing changes on error.
    public mutating func setStyle(json bytes: some Collection<UInt8>, icons: IconResolver) throws(StyleError) {
        guard let value = try Self.parse(bytes, root: "") else {
            reset()
            return
        }
        let patch = try Self.decode(StyleSheetPatch.self, value, root: "")
        var next = StyleCoordinator(defaults: defaults)
        try next.apply(patch, icons: icons)
        self = next
    }

    /// Replaces a marker type's options with JSON options over its defaults; `null`
    /// restores the defaults. Nothing changes on error.
    public mutating func setMarkerStyleOptions(
        json bytes: some Collection<UInt8>, for type: MarkerType,
        icons: IconResolver
    ) throws(StyleError) {
        let root = "markers.\(type.rawValue)"
        guard let value = try Self.parse(bytes, root: root) else { return setMarkerStyleOptions(nil, for: type) }
        let patch = try Self.decode(MarkerStylePatch.self, value, root: root)
        setMarkerStyleOptions(try patch.resolved(over: defaults[marker: type], icons: icons, path: root), for: type)
    }

    /// Replaces a polyline type's options with JSON options over its defaults; `null`
    /// restores the defaults. Nothing changes on error.
    public mutating func setPolylineStyleOptions(json bytes: some Collection<UInt8>, for type: PolylineType) throws(StyleError) {
        let root = "polylines.\(type.rawValue)"
        guard let value = try Self.parse(bytes, root: root) else { return setPolylineStyleOptions(nil, for: type) }
        let patch = try Self.decode(PolylineStylePatch.self, value, root: root)
        setPolylineStyleOptions(try patch.resolved(over: defaults[polyline: type], path: root), for: type)
    }

    /// Sets one traffic colour from a JSON string (`"#D93025"`); `null` restores its default.
    public mutating func setTrafficColor(
        json bytes: some Collection<UInt8>, for speed: SpeedType,
        polyline type: PolylineType
    ) throws(StyleError) {
        let root = "polylines.\(type.rawValue).trafficColors.\(speed.rawValue)"
        guard let value = try Self.parse(bytes, root: root) else { return setTrafficColor(nil, for: speed, polyline: type) }
        setTrafficColor(try Self.decode(Color.self, value, root: root), for: speed, polyline: type)
    }

    /// What is set, as a partial style sheet in JSON (the form the store keeps).
    public func storedOverrides() -> [UInt8] {
        var patch = StyleSheetPatch()
        patch.map = map.map(MapStylePatch.init)
        if !markers.isEmpty {
            var all = MarkersPatch()
            for (type, options) in markers { all[type] = MarkerStylePatch(options) }
            patch.markers = all
        }
        if !polylines.isEmpty {
            var all = PolylinesPatch()
            for (type, options) in polylines { all[type] = PolylineStylePatch(options, effective: false) }
            patch.polylines = all
        }
        return StyleJSON.encodeValue(patch)
    }

    /// A coordinator over `defaults` with what ``storedOverrides()`` wrote set again.
    public init(defaults: StyleSheet, storedOverrides bytes: some Collection<UInt8>, icons: IconResolver) throws(StyleError) {
        self.init(defaults: defaults)
        guard let value = try Self.parse(bytes, root: "stored") else { return }
        try apply(try Self.decode(StyleSheetPatch.self, value, root: "stored"), icons: icons)
    }

    /// Sets every type a patch names, over that type's defaults.
    private mutating func apply(_ patch: StyleSheetPatch, icons: IconResolver) throws(StyleError) {
        if let map = patch.map { setMapStyleOptions(try map.resolved(over: defaults.map, path: "map")) }
        for type in MarkerType.allCases {
            guard let options = patch.markers?[type] else { continue }
            let path = "markers.\(type.rawValue)"
            setMarkerStyleOptions(try options.resolved(over: defaults[marker: type], icons: icons, path: path), for: type)
        }
        for type in PolylineType.allCases {
            guard let options = patch.polylines?[type] else { continue }
            setPolylineStyleOptions(try options.resolved(over: defaults[polyline: type], path: "polylines.\(type.rawValue)"), for: type)
        }
    }

    /// Parses JSON; nil for a `null` document.
    private static func parse(_ bytes: some Collection<UInt8>, root: String) throws(StyleError) -> JSONValue? {
        guard !bytes.isEmpty else { throw StyleError(path: root, message: "the body is empty; send JSON (null restores the defaults)") }
        do {
            let value = try JSONParser.parse(bytes)
            return value == .null ? nil : value
        } catch {
            throw StyleError(path: root, message: error.description)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, root: String) throws(StyleError) -> T {
        do {
            return try StrictJSONDecoder().decode(type, from: value, root: root)
        } catch {
            throw StyleError(path: error.path, message: error.message)
        }
    }
}
