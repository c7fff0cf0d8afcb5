// Display list: a Codable recording of drawing operations in device pixels. Contract: a
// canvas executing a list draws exactly what the same calls would; the JSON form is stable
// and plain (colours as #RRGGBB[AA], points as [x, y], paths as [["M",x,y],...], images as
// base64 PNG), so that IntegrationTests/cairo/cairo_compare.py can replay the same list with Cairo. Render
// builds previews as display lists.

import Foundation
import Synchronization

/// A canvas size, a background and drawing operations in order.
public struct DisplayList: Hashable, Sendable, Codable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// What the canvas starts as (transparent when nil).
    public var background: Color?
    /// The operations, drawn in order.
    package var operations: [Operation]

    /// A list from its parts.
    public init(width: Int, height: Int, background: Color? = nil, operations: [Operation] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.operations = operations
    }

    enum CodingKeys: String, CodingKey {
        case width, height, background
        case operations = "ops"
    }

    /// One drawing operation.
    public enum Operation: Hashable, Sendable {
        /// Fill a path.
        case fill(Fill)
        /// Stroke a path.
        case stroke(Stroke)
        /// Stroke an open polyline (routes).
        case polyline(Polyline)
        /// A circle, filled and/or outlined.
        case circle(Circle)
        /// A rounded rectangle, filled and/or outlined.
        case roundedRectangle(RoundedRectangle)
        /// An image under an affine transform.
        case image(ImageBlit)
        /// One line of text.
        case text(Text)
    }

    /// Fill `path` (mapped by `transform`) with `color` under `rule`.
    public struct Fill: Hashable, Sendable, Codable {
        /// The path, in user space.
        package var path: Path
        /// The colour (straight sRGB).
        package var color: Color
        /// Which regions are inside.
        package var rule: FillRule = .nonZero
        /// User space → canvas pixels (identity when absent).
        package var transform: Transform?
        /// Global opacity 0–1 (1 when absent).
        package var opacity: Double?

        /// A fill operation.
        package init(path: Path, color: Color, rule: FillRule = .nonZero, transform: Transform? = nil, opacity: Double? = nil) {
            self.path = path
            self.color = color
            self.rule = rule
            self.transform = transform
            self.opacity = opacity
        }
    }

    /// Stroke `path` (widths in user space, mapped by `transform`).
    public struct Stroke: Hashable, Sendable, Codable {
        /// The path, in user space.
        package var path: Path
        /// The colour (straight sRGB).
        package var color: Color
        /// Width, caps, joins, miter limit.
        package var style: StrokeStyle
        /// User space → canvas pixels (identity when absent).
        package var transform: Transform?
        /// Global opacity 0–1 (1 when absent).
        package var opacity: Double?

        /// A stroke operation.
        package init(path: Path, color: Color, style: StrokeStyle, transform: Transform? = nil, opacity: Double? = nil) {
            self.path = path
            self.color = color
            self.style = style
            self.transform = transform
            self.opacity = opacity
        }
    }

    /// Stroke an open polyline in device pixels.
    public struct Polyline: Hashable, Sendable, Codable {
        /// The vertices, in canvas pixels.
        package var points: [Point]
        /// The colour (straight sRGB).
        package var color: Color
        /// Width, caps, joins, miter limit.
        package var style: StrokeStyle
        /// Global opacity 0–1 (1 when absent).
        package var opacity: Double?

        /// A polyline operation.
        package init(points: [Point], color: Color, style: StrokeStyle, opacity: Double? = nil) {
            self.points = points
            self.color = color
            self.style = style
            self.opacity = opacity
        }
    }

    /// A circle; the outline (if any) is centred on the circle's edge.
    public struct Circle: Hashable, Sendable, Codable {
        /// Centre, in canvas pixels.
        package var center: Point
        /// Radius in pixels.
        package var radius: Double
        /// Fill colour (no fill when absent).
        package var fill: Color?
        /// Outline colour (no outline when absent).
        package var stroke: Color?
        /// Outline width in pixels.
        package var strokeWidth: Double?

        /// A circle operation.
        package init(center: Point, radius: Double, fill: Color? = nil, stroke: Color? = nil, strokeWidth: Double? = nil) {
            self.center = center
            self.radius = radius
            self.fill = fill
            self.stroke = stroke
            self.strokeWidth = strokeWidth
        }
    }

    /// A rounded rectangle; the outline (if any) is centred on its edge.
    public struct RoundedRectangle: Hashable, Sendable, Codable {
        /// Left edge.
        package var x: Double
        /// Top edge.
        package var y: Double
        /// Width in pixels.
        package var width: Double
        /// Height in pixels.
        package var height: Double
        /// Radius in pixels.
        package var radius: Double
        /// Fill colour (no fill when absent).
        package var fill: Color?
        /// Outline colour (no outline when absent).
        package var stroke: Color?
        /// Outline width in pixels.
        package var strokeWidth: Double?

        /// A rounded-rectangle operation.
        package init(
            x: Double, y: Double, width: Double, height: Double, radius: Double,
            fill: Color? = nil, stroke: Color? = nil, strokeWidth: Double? = nil
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.radius = radius
            self.fill = fill
            self.stroke = stroke
            self.strokeWidth = strokeWidth
        }
    }

    /// An image mapped by `transform` (image pixels → canvas pixels); JSON holds it as
    /// base64 PNG under "png".
    public struct ImageBlit: Hashable, Sendable, Codable {
        /// The image (premultiplied).
        package var image: Image
        /// User space → canvas pixels (identity when absent).
        package var transform: Transform
        /// Global opacity 0–1 (1 when absent).
        package var opacity: Double?

        /// An image operation.
        package init(image: Image, transform: Transform, opacity: Double? = nil) {
            self.image = image
            self.transform = transform
            self.opacity = opacity
        }

        enum CodingKeys: String, CodingKey { case png, transform, opacity }

        /// Decodes, rejecting PNG data the decoder refuses.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let text = try container.decode(String.self, forKey: .png)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .png, in: container, debugDescription: "not base64")
            }
            do {
                image = try PNGCodec.decode(Array(data))
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .png, in: container, debugDescription: error.description)
            }
            transform = try container.decode(Transform.self, forKey: .transform)
            opacity = try container.decodeIfPresent(Double.self, forKey: .opacity)
        }

        /// Encodes the image as base64 PNG (lossless).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let png = try PNGCodec.encode(image, options: PNGEncodingOptions(filter: .sub, compressionLevel: 6, strategy: .default))
            try container.encode(Data(png).base64EncodedString(), forKey: .png)
            try container.encode(transform, forKey: .transform)
            try container.encodeIfPresent(opacity, forKey: .opacity)
        }
    }

    /// One line of text with its baseline origin; `font` is a font file path (DejaVu Sans,
    /// or its bold face when `bold`, when absent).
    public struct Text: Hashable, Sendable, Codable {
        /// The characters, one line.
        public var text: String
        /// Left end of the baseline, in canvas pixels.
        package var origin: Point
        /// Em size in pixels.
        public var size: Double
        /// The colour (straight sRGB).
        public var color: Color
        /// Font file path (DejaVu Sans when absent).
        public var font: String?
        /// Use DejaVu Sans Bold when `font` is absent.
        public var bold: Bool?

        /// A text operation.
        package init(text: String, origin: Point, size: Double, color: Color, font: String? = nil, bold: Bool? = nil) {
            self.text = text
            self.origin = origin
            self.size = size
            self.color = color
            self.font = font
            self.bold = bold
        }

        /// The font file this text uses.
        package var fontPath: String {
            font ?? (bold == true ? Font.dejaVuSansBoldPath : Font.dejaVuSansPath)
        }
    }
}

extension DisplayList.Operation: Codable {
    private enum Kind: String, Codable {
        case fill, stroke, polyline, circle, roundedRect, image, text
    }

    private enum KindKey: String, CodingKey { case op }

    /// Decodes from an object whose "op" names the operation, its fields beside it.
    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .op)
        switch kind {
        case .fill: self = .fill(try DisplayList.Fill(from: decoder))
        case .stroke: self = .stroke(try DisplayList.Stroke(from: decoder))
        case .polyline: self = .polyline(try DisplayList.Polyline(from: decoder))
        case .circle: self = .circle(try DisplayList.Circle(from: decoder))
        case .roundedRect: self = .roundedRectangle(try DisplayList.RoundedRectangle(from: decoder))
        case .image: self = .image(try DisplayList.ImageBlit(from: decoder))
        case .text: self = .text(try DisplayList.Text(from: decoder))
        }
    }

    /// Encodes as `{"op": kind, ...fields}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: KindKey.self)
        switch self {
        case .fill(let value):
            try container.encode(Kind.fill, forKey: .op)
            try value.encode(to: encoder)
        case .stroke(let value):
            try container.encode(Kind.stroke, forKey: .op)
            try value.encode(to: encoder)
        case .polyline(let value):
            try container.encode(Kind.polyline, forKey: .op)
            try value.encode(to: encoder)
        case .circle(let value):
            try container.encode(Kind.circle, forKey: .op)
            try value.encode(to: encoder)
        case .roundedRectangle(let value):
            try container.encode(Kind.roundedRect, forKey: .op)
            try value.encode(to: encoder)
        case .image(let value):
            try container.encode(Kind.image, forKey: .op)
            try value.encode(to: encoder)
        case .text(let value):
            try container.encode(Kind.text, forKey: .op)
            try value.encode(to: encoder)
        }
    }
}

extension Canvas {
    /// Executes every operation of a display list on this canvas, in order.
    /// Throws only when a text operation's font cannot be loaded or rendered.
    package mutating func execute(_ list: DisplayList) throws(RasterError) {
        for operation in list.operations {
            switch operation {
            case .fill(let fill):
                self.fill(
                    fill.path, color: fill.color, rule: fill.rule, transform: fill.transform ?? .identity,
                    opacity: fill.opacity ?? 1)
            case .stroke(let stroke):
                self.stroke(
                    stroke.path, style: stroke.style, color: stroke.color,
                    transform: stroke.transform ?? .identity, opacity: stroke.opacity ?? 1)
            case .polyline(let polyline):
                self.stroke(
                    polyline: polyline.points, style: polyline.style, color: polyline.color,
                    opacity: polyline.opacity ?? 1)
            case .circle(let circle):
                let path = Path.circle(center: circle.center, radius: circle.radius)
                drawShape(path, fill: circle.fill, stroke: circle.stroke, strokeWidth: circle.strokeWidth)
            case .roundedRectangle(let shape):
                let path = Path.roundedRectangle(
                    x: shape.x, y: shape.y, width: shape.width, height: shape.height,
                    radius: shape.radius)
                drawShape(path, fill: shape.fill, stroke: shape.stroke, strokeWidth: shape.strokeWidth)
            case .image(let blit):
                draw(blit.image, transform: blit.transform, opacity: blit.opacity ?? 1)
            case .text(let text):
                let font = try Font.named(text.fontPath)
                try drawText(text.text, font: font, size: text.size, at: text.origin, color: text.color)
            }
        }
    }

    private mutating func drawShape(_ path: Path, fill: Color?, stroke: Color?, strokeWidth: Double?) {
        if let fill { self.fill(path, color: fill) }
        if let stroke, let strokeWidth, strokeWidth > 0 {
            self.stroke(path, style: StrokeStyle(width: strokeWidth, cap: .butt, join: .round), color: stroke)
        }
    }
}

extension DisplayList {
    /// A canvas of the list's size and background with every operation drawn.
    public func render() throws(RasterError) -> Canvas {
        var canvas = Canvas(width: width, height: height, background: background ?? .transparent)
        // Drawn with buffers kept grown from earlier renders: grown anew each time, the scan
        // converter's cells (hundreds of kilobytes for a map tile) are allocated and faulted
        // in again on every render, at a cost that changes with where the allocator puts them.
        var scratch = Self.scratchPool.withLock { $0.popLast() } ?? CanvasScratch()
        canvas.exchangeScratch(&scratch)
        defer {
            canvas.exchangeScratch(&scratch)
            Self.scratchPool.withLock { pool in
                if pool.count < Self.scratchPoolSize { pool.append(scratch) }
            }
        }
        try canvas.execute(self)
        return canvas
    }

    /// Buffers kept for renders: as many as commonly run at once.
    private static let scratchPool = Mutex<[CanvasScratch]>([])
    private static let scratchPoolSize = 4
}
