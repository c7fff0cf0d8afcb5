// Font: one FreeType face with its own FT_Library, guarded by a Mutex, because FreeType
// objects must not be used from two threads at once while renders run concurrently.
// Contract: loading failures and FreeType errors become RasterError (code .font); metrics
// and advances are exact (scaled from font units), so layout does not depend on hinting.

import CFreeType
import Synchronization

/// A scalable font loaded with FreeType from a file (TrueType, OpenType, ...).
public final class Font: Sendable {
    /// The file the font came from.
    public let path: String
    /// Font design units per em.
    let unitsPerEm: Int
    /// Ascender and descender in font units (descender negative), from the face.
    let ascender: Int
    let descender: Int
    let hasKerning: Bool
    /// Distinguishes fonts in the glyph cache.
    let identifier: Int
    private let state: Mutex<FaceState>

    private static let nextIdentifier = Atomic<Int>(1)

    struct FaceState {
        var library: FT_Library?
        var face: FT_Face?
        var glyphIndices: [Unicode.Scalar: UInt32] = [:]
        var advances: [UInt32: Int] = [:]
        var kerning: [UInt64: Int] = [:]
        var outlines: [UInt32: [Path.Element]] = [:]
    }

    /// Runs `body` with the face state under the font's lock.
    func withFace<Result: Sendable>(_ body: (inout FaceState) throws(RasterError) -> Result) throws(RasterError) -> Result {
        try state.withLock { (state) throws(RasterError) -> Result in try body(&state) }
    }

    /// Loads the first face of a font file.
    public init(path: String) throws(RasterError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw RasterError(code: .font, message: "FreeType could not be initialised")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, 0, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw RasterError(code: .font, message: "cannot load font \"\(path)\" (FreeType error \(error))")
        }
        guard face.pointee.face_flags & FreeTypeFlags.scalable != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw RasterError(code: .font, message: "font \"\(path)\" is not scalable")
        }
        self.path = path
        unitsPerEm = Int(face.pointee.units_per_EM)
        ascender = Int(face.pointee.ascender)
        descender = Int(face.pointee.descender)
        hasKerning = face.pointee.face_flags & FreeTypeFlags.kerning != 0
        identifier = Self.nextIdentifier.add(1, ordering: .relaxed).oldValue
        state = Mutex(FaceState(library: library, face: face))
    }

    deinit {
        state.withLock { state in
            if let face = state.face { FT_Done_Face(face) }
            if let library = state.library { FT_Done_FreeType(library) }
            state.face = nil
            state.library = nil
        }
    }

    /// Where Debian's fonts-dejavu-core puts DejaVu Sans.
    package static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Where Debian's fonts-dejavu-core puts DejaVu Sans Bold.
    package static let dejaVuSansBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Loaded fonts by path. Not a BoundedCache on purpose: there is one entry per font file
    /// (two in this project), and a loaded face must stay the one every render shares.
    private static let loaded = Mutex<[String: Font]>([:])

    /// A shared font for a path, loaded once per process and reused by every render.
    public static func named(_ path: String) throws(RasterError) -> Font {
        if let font = loaded.withLock({ $0[path] }) { return font }
        let font = try Font(path: path)
        return loaded.withLock { fonts in
            if let existing = fonts[path] { return existing }
            fonts[path] = font
            return font
        }
    }

    /// DejaVu Sans (regular or bold) from fonts-dejavu-core, shared.
    public static func dejaVuSans(bold: Bool = false) throws(RasterError) -> Font {
        try named(bold ? dejaVuSansBoldPath : dejaVuSansPath)
    }

    /// Ascent above the baseline at a size in pixels (positive).
    package func ascent(size: Double) -> Double { Double(ascender) * size / Double(unitsPerEm) }
    /// Descent below the baseline at a size in pixels (positive).
    package func descent(size: Double) -> Double { Double(-descender) * size / Double(unitsPerEm) }

    /// True when the font draws `scalar` with a glyph of its own (not its .notdef box).
    package func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        glyphIndices(for: [scalar]).first.map { $0 != 0 } ?? false
    }

    // MARK: - Glyph data, all under the face lock

    /// Glyph indices for scalars (0 for characters the font lacks: its .notdef box).
    func glyphIndices(for scalars: [Unicode.Scalar]) -> [UInt32] {
        state.withLock { state in
            guard let face = state.face else { return [] }
            return scalars.map { scalar in
                if let cached = state.glyphIndices[scalar] { return cached }
                let index = UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
                state.glyphIndices[scalar] = index
                return index
            }
        }
    }

    /// Horizontal advances in font units.
    func advances(for glyphs: [UInt32]) throws(RasterError) -> [Int] {
        try state.withLock { (state) throws(RasterError) -> [Int] in
            guard let face = state.face else { return [] }
            var result: [Int] = []
            result.reserveCapacity(glyphs.count)
            for glyph in glyphs {
                if let cached = state.advances[glyph] {
                    result.append(cached)
                    continue
                }
                var advance: FT_Fixed = 0
                let error = FT_Get_Advance(face, glyph, FT_Int32(FreeTypeFlags.noScale), &advance)
                guard error == 0 else { throw fontError(error, "reading the advance of glyph \(glyph)") }
                state.advances[glyph] = Int(advance)
                result.append(Int(advance))
            }
            return result
        }
    }

    /// Kerning adjustments in font units between consecutive glyphs (count − 1 values).
    func kerning(for glyphs: [UInt32]) throws(RasterError) -> [Int] {
        guard hasKerning, glyphs.count > 1 else { return [Int](repeating: 0, count: max(glyphs.count - 1, 0)) }
        return try state.withLock { (state) throws(RasterError) -> [Int] in
            guard let face = state.face else { return [] }
            var result: [Int] = []
            result.reserveCapacity(glyphs.count - 1)
            for index in 1..<glyphs.count {
                let key = UInt64(glyphs[index - 1]) << 32 | UInt64(glyphs[index])
                if let cached = state.kerning[key] {
                    result.append(cached)
                    continue
                }
                var vector = FT_Vector()
                let error = FT_Get_Kerning(face, glyphs[index - 1], glyphs[index], FT_KERNING_UNSCALED.rawValue, &vector)
                guard error == 0 else { throw fontError(error, "reading kerning") }
                state.kerning[key] = Int(vector.x)
                result.append(Int(vector.x))
            }
            return result
        }
    }

    /// Renders one glyph's coverage mask at a pixel size, shifted right by `subpixel`/4 px.
    func renderGlyph(_ glyph: UInt32, size: Double, subpixel: Int) throws(RasterError) -> GlyphMask {
        try state.withLock { (state) throws(RasterError) -> GlyphMask in
            guard let face = state.face else { return .empty }
            var error = FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
            guard error == 0 else { throw fontError(error, "setting the size to \(size) px") }
            error = FT_Load_Glyph(face, glyph, FT_Int32(FreeTypeFlags.noHinting | FreeTypeFlags.noBitmap))
            guard error == 0 else { throw fontError(error, "loading glyph \(glyph)") }
            guard let slot = face.pointee.glyph else { return .empty }
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(subpixel * 16), 0)
            error = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)
            guard error == 0 else { throw fontError(error, "rendering glyph \(glyph) at \(size) px") }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width)
            let rows = Int(bitmap.rows)
            guard width > 0, rows > 0, let buffer = bitmap.buffer else { return .empty }
            var coverage = [UInt8](repeating: 0, count: width * rows)
            let pitch = Int(bitmap.pitch)
            for row in 0..<rows {
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
                for column in 0..<width { coverage[row * width + column] = source[column] }
            }
            return GlyphMask(
                width: width, height: rows, left: Int(slot.pointee.bitmap_left),
                top: Int(slot.pointee.bitmap_top), coverage: coverage)
        }
    }
}

extension Font {
    /// A FreeType error code as a RasterError naming the font and the step that failed.
    fileprivate func fontError(_ code: FT_Error, _ step: String) -> RasterError {
        RasterError(code: .font, message: "FreeType error \(code) \(step) in \"\(path)\"")
    }
}

/// FreeType flag values (C macros Swift does not import).
enum FreeTypeFlags {
    static let noScale = 1 << 0
    static let noHinting = 1 << 1
    static let noBitmap = 1 << 3
    static let scalable = FT_Long(1 << 0)
    static let kerning = FT_Long(1 << 6)
}
