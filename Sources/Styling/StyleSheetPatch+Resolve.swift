// Applying a partial style on top of complete options: every property the patch names
// replaces the base's, the rest stay. Without a base (styles/default.json itself) every
// property must be named. Icon references are resolved here, so a style with a missing or
// corrupt PNG is refused before anything is stored.

import Raster

extension StyleSheetPatch {
    /// The complete sheet this patch makes over `base`; `root` prefixes error paths.
    func resolved(over base: StyleSheet?, icons: IconResolver, root: String) throws(StyleError) -> StyleSheet {
        let map = try (map ?? MapStylePatch()).resolved(over: base?.map, path: join(root, "map"))
        return try StyleSheet(
            map: map,
            markers: { (type) throws(StyleError) in
                try (self.markers?[type] ?? MarkerStylePatch())
                    .resolved(over: base?[marker: type], icons: icons, path: join(root, "markers.\(type.rawValue)"))
            },
            polylines: { (type) throws(StyleError) in
                try (self.polylines?[type] ?? PolylineStylePatch())
                    .resolved(over: base?[polyline: type], path: join(root, "polylines.\(type.rawValue)"))
            })
    }
}

extension MapStylePatch {
    func resolved(over base: MapStyleOptions?, path: String) throws(StyleError) -> MapStyleOptions {
        MapStyleOptions(
            background: try pick(background, base?.background, path, "background"),
            nightBackground: try pick(nightBackground, base?.nightBackground, path, "nightBackground"),
            basemapStyle: try basemap(basemapStyle, base?.basemapStyle, path, "basemapStyle"),
            nightBasemapStyle: try basemap(nightBasemapStyle, base?.nightBasemapStyle, path, "nightBasemapStyle"),
            showsNextTurn: try pick(showsNextTurn, base?.showsNextTurn, path, "showsNextTurn"))
    }

    /// A basemap style name: one of the built-in ones (else an error naming the field).
    private func basemap(_ value: String?, _ base: String?, _ path: String, _ field: String) throws(StyleError) -> String {
        let name = try pick(value, base, path, field)
        guard MapStyleOptions.basemapStyleNames.contains(name) else {
            throw StyleError(
                path: join(path, field),
                message: "'\(name.prefix(64))' is not a built-in basemap style; "
                    + "the built-in ones are \(MapStyleOptions.basemapStyleNames.joined(separator: ", "))")
        }
        return name
    }

    /// Everything `options` holds, as a patch.
    init(_ options: MapStyleOptions) {
        self.init(
            background: options.background, nightBackground: options.nightBackground,
            basemapStyle: options.basemapStyle, nightBasemapStyle: options.nightBasemapStyle, showsNextTurn: options.showsNextTurn)
    }
}

extension MarkerStylePatch {
    func resolved(over base: MarkerStyleOptions?, icons: IconResolver, path: String) throws(StyleError) -> MarkerStyleOptions {
        let icon: MarkerIcon
        if let reference = self.icon {
            icon = try icons.icon(reference, path: join(path, "icon"))
        } else {
            icon = try pick(nil, base?.icon, path, "icon")
        }
        let anchor = try pick(groundAnchor.map { GroundAnchor(x: $0[0], y: $0[1]) }, base?.groundAnchor, path, "groundAnchor")
        return MarkerStyleOptions(
            icon: icon, groundAnchor: anchor,
            zIndex: try pick(zIndex, base?.zIndex, path, "zIndex"),
            isFlat: try pick(isFlat, base?.isFlat, path, "isFlat"),
            isVisible: try pick(isVisible, base?.isVisible, path, "isVisible"),
            etaLabel: try (etaLabel ?? ETALabelPatch()).resolved(over: base?.etaLabel, path: join(path, "etaLabel")))
    }

    /// Everything `options` holds, as a patch.
    init(_ options: MarkerStyleOptions) {
        self.init(
            icon: options.icon.reference, groundAnchor: [options.groundAnchor.x, options.groundAnchor.y],
            zIndex: options.zIndex, isFlat: options.isFlat, isVisible: options.isVisible,
            etaLabel: ETALabelPatch(options.etaLabel))
    }
}

extension ETALabelPatch {
    func resolved(over base: ETALabelStyle?, path: String) throws(StyleError) -> ETALabelStyle {
        ETALabelStyle(
            isVisible: try pick(isVisible, base?.isVisible, path, "isVisible"),
            textColor: try pick(textColor, base?.textColor, path, "textColor"),
            backgroundColor: try pick(backgroundColor, base?.backgroundColor, path, "backgroundColor"),
            outlineColor: try pick(outlineColor, base?.outlineColor, path, "outlineColor"),
            fontSize: try pick(fontSize, base?.fontSize, path, "fontSize"))
    }

    init(_ style: ETALabelStyle) {
        self.init(
            isVisible: style.isVisible, textColor: style.textColor, backgroundColor: style.backgroundColor,
            outlineColor: style.outlineColor, fontSize: style.fontSize)
    }
}

extension PolylineStylePatch {
    func resolved(over base: PolylineStyleOptions?, path: String) throws(StyleError) -> PolylineStyleOptions {
        let colorsPath = join(path, "trafficColors")
        let given = trafficColors ?? TrafficColorsPatch()
        var colors = TrafficColors(uniform: .black)
        for speed in SpeedType.allCases {
            colors[speed] = try pick(given[speed], base?.configuredTrafficColors[speed], colorsPath, speed.rawValue)
        }
        return PolylineStyleOptions(
            color: try pick(color, base?.color, path, "color"),
            width: try pick(width, base?.width, path, "width"),
            isVisible: try pick(isVisible, base?.isVisible, path, "isVisible"),
            zIndex: try pick(zIndex, base?.zIndex, path, "zIndex"),
            isTrafficEnabled: try pick(isTrafficEnabled, base?.isTrafficEnabled, path, "isTrafficEnabled"),
            trafficColors: colors)
    }

    /// Everything `options` holds as a patch: the traffic colours as set (`effective`
    /// false, for storing) or as in effect (`effective` true, for reading).
    init(_ options: PolylineStyleOptions, effective: Bool) {
        let colors = effective ? options.trafficColors : options.configuredTrafficColors
        self.init(
            color: options.color, width: options.width, isVisible: options.isVisible, zIndex: options.zIndex,
            isTrafficEnabled: options.isTrafficEnabled,
            trafficColors: TrafficColorsPatch(
                noData: colors.noData, normal: colors.normal, slow: colors.slow,
                trafficJam: colors.trafficJam))
    }
}

extension StyleSheetPatch {
    /// Everything `sheet` holds, as a patch (traffic colours as in effect or as set).
    init(_ sheet: StyleSheet, effective: Bool) {
        var markers = MarkersPatch()
        for type in MarkerType.allCases { markers[type] = MarkerStylePatch(sheet[marker: type]) }
        var polylines = PolylinesPatch()
        for type in PolylineType.allCases { polylines[type] = PolylineStylePatch(sheet[polyline: type], effective: effective) }
        self.init(map: MapStylePatch(sheet.map), markers: markers, polylines: polylines)
    }
}

/// The patch's value, else the base's, else an error: only a complete style may omit nothing.
private func pick<T>(_ value: T?, _ base: T?, _ path: String, _ field: String) throws(StyleError) -> T {
    if let value { return value }
    if let base { return base }
    throw StyleError(path: join(path, field), message: "required: the base style names every property")
}

/// `a.b`, or `b` when `a` is empty.
func join(_ path: String, _ field: String) -> String {
    path.isEmpty ? field : "\(path).\(field)"
}
