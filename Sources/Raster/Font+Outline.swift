// Glyph outlines: a glyph's contours in font units (y up), read with FT_Outline_Decompose
// and cached per font. Outlines let text be drawn at any angle (labels along roads) and
// stroked (halos) by the same scan converter as everything else.

import CFreeType

extension Font {
    /// A glyph's outline in font units, y up; contours closed. Empty for glyphs without one
    /// (spaces). Throws when FreeType cannot load the glyph.
    func outline(_ glyph: UInt32) throws(RasterError) -> [Path.Element] {
        try withFace { (state) throws(RasterError) -> [Path.Element] in
            if let cached = state.outlines[glyph] { return cached }
            guard let face = state.face else { return [] }
            let flags = FreeTypeFlags.noScale | FreeTypeFlags.noHinting | FreeTypeFlags.noBitmap
            let error = FT_Load_Glyph(face, glyph, FT_Int32(flags))
            guard error == 0 else {
                throw RasterError(code: .font, message: "FreeType error \(error) loading the outline of glyph \(glyph) in \"\(path)\"")
            }
            guard let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return [] }
            let collector = OutlineCollector()
            var functions = FT_Outline_Funcs(
                move_to: { to, user in
                    guard let to, let user else { return 1 }
                    let collector = Unmanaged<OutlineCollector>.fromOpaque(user).takeUnretainedValue()
                    if !collector.elements.isEmpty { collector.elements.append(.close) }
                    collector.elements.append(.move(OutlineCollector.point(to.pointee)))
                    return 0
                },
                line_to: { to, user in
                    guard let to, let user else { return 1 }
                    Unmanaged<OutlineCollector>.fromOpaque(user).takeUnretainedValue().elements
                        .append(.line(OutlineCollector.point(to.pointee)))
                    return 0
                },
                conic_to: { control, to, user in
                    guard let control, let to, let user else { return 1 }
                    Unmanaged<OutlineCollector>.fromOpaque(user).takeUnretainedValue().elements
                        .append(.quad(control: OutlineCollector.point(control.pointee), to: OutlineCollector.point(to.pointee)))
                    return 0
                },
                cubic_to: { control1, control2, to, user in
                    guard let control1, let control2, let to, let user else { return 1 }
                    Unmanaged<OutlineCollector>.fromOpaque(user).takeUnretainedValue().elements
                        .append(
                            .cubic(
                                control1: OutlineCollector.point(control1.pointee),
                                control2: OutlineCollector.point(control2.pointee), to: OutlineCollector.point(to.pointee)))
                    return 0
                },
                shift: 0, delta: 0)
            let decomposed = withExtendedLifetime(collector) {
                FT_Outline_Decompose(&slot.pointee.outline, &functions, Unmanaged.passUnretained(collector).toOpaque())
            }
            guard decomposed == 0 else {
                throw RasterError(code: .font, message: "FreeType error \(decomposed) reading the outline of glyph \(glyph) in \"\(path)\"")
            }
            if !collector.elements.isEmpty { collector.elements.append(.close) }
            state.outlines[glyph] = collector.elements
            return collector.elements
        }
    }
}

/// Receives FreeType's outline callbacks.
private final class OutlineCollector {
    var elements: [Path.Element] = []

    static func point(_ vector: FT_Vector) -> Point {
        Point(x: Double(vector.x), y: Double(vector.y))
    }
}
