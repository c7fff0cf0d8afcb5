// What a marker looks like: one of the built-in vector icons Render draws (`builtin:NAME`)
// or a PNG file relative to the styles folder. PNG icons follow the @2x/@3x naming
// convention: `car@2x.png` holds twice as many pixels as it covers at scale 1, so a style
// can ship icons that stay sharp at higher preview scales.

import Raster

/// The vector icons Render draws itself.
package enum BuiltinIcon: String, CaseIterable, Hashable, Sendable {
    /// A car seen from above, nose up (rotated by heading when the marker is flat).
    case vehicle
    /// A pickup pin.
    case pickup
    /// A dropoff pin.
    case dropoff
    /// A round stop marker carrying the stop's number.
    case stop
}

/// A decoded PNG icon and where it came from.
package struct IconImage: Hashable, Sendable {
    /// The path as the style names it, relative to the styles folder.
    package let path: String
    /// The pixels.
    package let image: Image
    /// Pixels per point: 2 for `name@2x.png`, 3 for `@3x`, else 1.
    package let density: Double

    /// An icon from its parts.
    package init(path: String, image: Image, density: Double) {
        self.path = path
        self.image = image
        self.density = density
    }

    /// Width at scale 1, in pixels.
    package var width: Double { Double(image.width) / density }
    /// Height at scale 1, in pixels.
    package var height: Double { Double(image.height) / density }
}

/// A marker's icon.
package enum MarkerIcon: Hashable, Sendable {
    /// A built-in vector icon.
    case builtin(BuiltinIcon)
    /// A PNG icon.
    case image(IconImage)

    /// How a style names it: `builtin:NAME` or the PNG's path.
    package var reference: String {
        switch self {
        case .builtin(let icon): "builtin:\(icon.rawValue)"
        case .image(let icon): icon.path
        }
    }
}
