// Icons as vector shapes in their own pixel grid (pixels at scale 1, origin top-left), drawn
// through a transform onto the preview: they are as sharp at scale 4 as at scale 1 and turn
// without resampling. Every shape becomes a display-list fill or stroke with that transform,
// so a reference renderer replays them exactly. Other icon sets (maneuvers) can reuse this.

import Raster

/// A vector icon: a size and shapes painted in order.
package struct VectorIcon: Hashable, Sendable {
    /// One shape: a path filled and/or outlined.
    package struct Shape: Hashable, Sendable {
        /// The outline, in icon pixels.
        package var path: Path
        /// Fill colour, if filled.
        package var fill: Color?
        /// Outline colour, if outlined.
        package var stroke: Color?
        /// Outline width in icon pixels.
        package var strokeWidth: Double

        /// A shape from its parts.
        package init(path: Path, fill: Color? = nil, stroke: Color? = nil, strokeWidth: Double = 1) {
            self.path = path
            self.fill = fill
            self.stroke = stroke
            self.strokeWidth = strokeWidth
        }
    }

    /// Width in pixels at scale 1.
    package var width: Double
    /// Height in pixels at scale 1.
    package var height: Double
    /// The shapes, bottom first.
    package var shapes: [Shape]

    /// An icon from its parts.
    package init(width: Double, height: Double, shapes: [Shape]) {
        self.width = width
        self.height = height
        self.shapes = shapes
    }

    /// The display-list operations that draw the icon through `transform` (icon pixels →
    /// canvas pixels).
    package func operations(transform: Transform) -> [DisplayList.Operation] {
        var operations: [DisplayList.Operation] = []
        for shape in shapes {
            if let fill = shape.fill {
                operations.append(.fill(.init(path: shape.path, color: fill, transform: transform)))
            }
            if let stroke = shape.stroke, shape.strokeWidth > 0 {
                operations.append(
                    .stroke(
                        .init(
                            path: shape.path, color: stroke,
                            style: StrokeStyle(width: shape.strokeWidth, cap: .round, join: .round),
                            transform: transform)))
            }
        }
        return operations
    }
}

extension Color {
    /// A colour from 0xRRGGBB and an alpha byte, for icon palettes.
    static func rgb(_ value: UInt32, alpha: UInt8 = 255) -> Color {
        Color(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF), alpha: alpha)
    }
}
