// `navigation/layout.json` (DESIGN §9): every rectangle the navigation screen draws, in points
// from the top-left corner, by name — the server's stand-in for the Navigation SDK's layout
// guides, which the driver page uses to place its own controls and tests use to find things.
// The camera the map was drawn with is part of it, so a page can pan from where it is.

import Geo
import Raster

/// Every rectangle of a navigation screen by name, with the screen's size and camera.
package struct NavigationLayout: Hashable, Sendable {
    /// The camera the map is drawn with.
    package struct CameraPosition: Hashable, Codable, Sendable {
        /// The map location at the image's centre.
        package var latitude: Double
        /// The map location at the image's centre.
        package var longitude: Double
        /// The zoom (fractional).
        package var zoom: Double
        /// Degrees clockwise from north at the top of the image.
        package var bearing: Double
        /// The camera mode that placed it (`following`, `free`, `overview`).
        package var mode: String
    }

    /// Width in points.
    package var width: Int
    /// Height in points.
    package var height: Int
    /// Device pixels per point.
    package var scale: Int
    /// `portrait` or `landscape`.
    package var orientation: String
    /// The lighting drawn (`normal` or `lowLight`, after `auto` is resolved).
    package var lighting: String
    /// The camera.
    package var camera: CameraPosition
    /// The rectangles, in drawing order.
    package private(set) var rects: [(name: String, rect: Rect)] = []

    /// The rectangle named `name`, if that element is drawn.
    package subscript(name: String) -> Rect? {
        rects.first { $0.name == name }?.rect
    }

    /// Adds (or replaces) a named rectangle.
    mutating func set(_ name: String, _ rect: Rect) {
        if let index = rects.firstIndex(where: { $0.name == name }) {
            rects[index].rect = rect
        } else {
            rects.append((name, rect))
        }
    }

    /// Removes a named rectangle.
    mutating func remove(_ name: String) {
        rects.removeAll { $0.name == name }
    }

    /// Equal when every field and every rectangle (in order) is equal.
    package static func == (a: NavigationLayout, b: NavigationLayout) -> Bool {
        a.width == b.width && a.height == b.height && a.scale == b.scale && a.orientation == b.orientation
            && a.lighting == b.lighting && a.camera == b.camera
            && a.rects.count == b.rects.count && zip(a.rects, b.rects).allSatisfy { $0.name == $1.name && $0.rect == $1.rect }
    }

    /// Hashes the size and the names.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(scale)
        for entry in rects { hasher.combine(entry.name) }
    }
}

extension NavigationLayout: Encodable {
    private enum CodingKeys: String, CodingKey {
        case width, height, scale, orientation, lighting, camera, rects
    }

    /// `{"width", "height", "scale", "orientation", "lighting", "camera": {...},
    /// "rects": {"header": {"x", "y", "width", "height"}, ...}}`, rectangles in drawing order.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(scale, forKey: .scale)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(lighting, forKey: .lighting)
        try c.encode(camera, forKey: .camera)
        var members = c.nestedContainer(keyedBy: NameKey.self, forKey: .rects)
        for entry in rects { try members.encode(entry.rect, forKey: NameKey(stringValue: entry.name)) }
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
