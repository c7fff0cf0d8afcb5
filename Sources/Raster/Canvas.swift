// Canvas: a premultiplied RGBA8 pixel buffer plus the drawing pipeline. Contract: every
// drawing call runs path → (stroker) → EdgeBuilder → ScanConverter → Blitter/Compositor
// and composites source-over in sRGB; geometry with NaN or infinite coordinates draws
// nothing; anything outside the canvas is clipped. Scratch buffers (cells, contours) are
// part of the value and reused from draw to draw, so steady-state drawing allocates little;
// a copy of a canvas shares nothing mutable with the original.

/// A premultiplied RGBA8 drawing surface.
public struct Canvas: Sendable {
    /// The largest width or height a canvas takes (256 MB of pixels at most); larger
    /// requests, e.g. from a display list read from a file, are clamped.
    public static let maximumDimension = 8192

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    var pixels: [UInt32]
    var converter = ScanConverter()
    var contours = Contours()

    /// A canvas filled with `background` (transparent by default); sizes are clamped to
    /// 0…`maximumDimension`.
    public init(width: Int, height: Int, background: Color = .transparent) {
        self.width = min(max(width, 0), Self.maximumDimension)
        self.height = min(max(height, 0), Self.maximumDimension)
        pixels = [UInt32](repeating: background.premultiplied.packed, count: self.width * self.height)
    }

    /// A canvas holding a copy of an image.
    public init(image: Image) {
        width = image.width
        height = image.height
        pixels = image.pixels
    }

    /// Replaces every pixel with a colour (no blending).
    package mutating func clear(to color: Color) {
        let packed = color.premultiplied.packed
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: packed) }
    }

    /// The canvas content as an image (no copy until the canvas is drawn on again).
    public var image: Image { Image(width: width, height: height, pixels: pixels) }

    /// The premultiplied pixel at (x, y); transparent outside the canvas.
    public func pixel(x: Int, y: Int) -> PremultipliedColor {
        guard x >= 0, y >= 0, x < width, y < height else { return PremultipliedColor(packed: 0) }
        return PremultipliedColor(packed: pixels[y * width + x])
    }

    // MARK: - Fills and strokes

    /// Fills a path (mapped by `transform`) with a colour under a fill rule. Coverage is
    /// summed, as FreeType's is: exact wherever the path does not overlap itself inside a
    /// pixel (see ScanConverter); resolving would double the cost of a map's display list.
    package mutating func fill(
        _ path: Path, color: Color, rule: FillRule = .nonZero,
        transform: Transform = .identity, opacity: Double = 1
    ) {
        var contours = takeContours()
        for polyline in path.flattened(transform: transform) {
            contours.append(polyline)
        }
        composite(contours, color: color, rule: rule, opacity: opacity, resolvesOverlaps: false)
        self.contours = contours
    }

    /// Strokes a path: the width, caps and joins are in user space, mapped by `transform`.
    /// Coverage is summed: the Stroker keeps one line's outline from overlapping itself where
    /// it can, and resolving overlaps (PolygonSet does, for map lines) would triple the cost
    /// of a long route for a few pixels at its tightest joins.
    package mutating func stroke(
        _ path: Path, style: StrokeStyle, color: Color,
        transform: Transform = .identity, opacity: Double = 1
    ) {
        let scale = Self.scaleFactor(transform)
        guard scale > 0 else { return }
        let tolerance = 0.1 / scale
        var contours = takeContours()
        let stroker = Stroker(style: style, tolerance: tolerance)
        for polyline in path.flattened(tolerance: tolerance) {
            stroker.stroke(polyline, dash: style.dash, into: &contours)
        }
        contours.apply(transform)
        composite(contours, color: color, rule: .nonZero, opacity: opacity, resolvesOverlaps: false)
        self.contours = contours
    }

    /// Strokes an open polyline given in device pixels.
    package mutating func stroke(polyline points: [Point], style: StrokeStyle, color: Color, opacity: Double = 1) {
        guard !points.isEmpty else { return }
        var contours = takeContours()
        Stroker(style: style).stroke(Polyline(points: points, isClosed: false), dash: style.dash, into: &contours)
        composite(contours, color: color, rule: .nonZero, opacity: opacity, resolvesOverlaps: false)
        self.contours = contours
    }

    /// Runs the scan converter over contours, blending with a solid colour; overlapping parts
    /// of the contours are covered once unless `resolvesOverlaps` is false (see ScanConverter).
    mutating func composite(_ contours: Contours, color: Color, rule: FillRule, opacity: Double, resolvesOverlaps: Bool = true) {
        let alpha = alphaByte(opacity)
        guard color.alpha != 0, alpha != 0, !contours.ends.isEmpty, width > 0, height > 0 else { return }
        var converter = self.converter
        self.converter = ScanConverter()
        converter.reset(width: width, height: height, resolvesOverlaps: resolvesOverlaps)
        if EdgeBuilder.add(contours, to: &converter) {
            let stride = width
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var blitter = SolidBlitter(pixels: base, stride: stride, color: color.source(opacity: opacity), globalAlpha: 255)
                converter.sweep(fillRule: rule, into: &blitter)
            }
        }
        self.converter = converter
    }

    /// The coverage (0–255 per pixel) a fill would give, without touching the pixels.
    func coverage(of path: Path, rule: FillRule = .nonZero, transform: Transform = .identity) -> [UInt8] {
        var contours = Contours()
        for polyline in path.flattened(transform: transform) { contours.append(polyline) }
        return coverage(of: contours, rule: rule)
    }

    /// The coverage a stroke would give, without touching the pixels.
    func coverage(ofStroke path: Path, style: StrokeStyle) -> [UInt8] {
        var contours = Contours()
        let stroker = Stroker(style: style)
        for polyline in path.flattened() { stroker.stroke(polyline, dash: style.dash, into: &contours) }
        return coverage(of: contours, rule: .nonZero)
    }

    func coverage(of contours: Contours, rule: FillRule) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        var converter = ScanConverter()
        converter.reset(width: width, height: height)
        guard EdgeBuilder.add(contours, to: &converter) else { return mask }
        let stride = width
        mask.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var blitter = MaskBlitter(mask: base, stride: stride)
            converter.sweep(fillRule: rule, into: &blitter)
        }
        return mask
    }

    private mutating func takeContours() -> Contours {
        var contours = self.contours
        self.contours = Contours()
        contours.removeAll()
        return contours
    }

    /// How much a transform scales lengths (its larger axis), for tolerances.
    static func scaleFactor(_ transform: Transform) -> Double {
        let x = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let y = (transform.c * transform.c + transform.d * transform.d).squareRoot()
        let scale = max(x, y)
        return scale.isFinite ? scale : 0
    }
}
