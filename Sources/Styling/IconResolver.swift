// Turns a style's icon reference into an icon: `builtin:NAME` for Render's vector icons, or
// a PNG path relative to the styles folder. Paths may not leave the folder (no absolute
// paths, no `..`, no hidden files), so an API caller cannot make the server read arbitrary
// files; files are size-limited before reading and decoded with tight limits, so a corrupt
// or huge icon is a StyleError naming the icon's JSON path, never a crash. Decoded icons
// are cached (style folders are read-only at run time).

import Caching
import Foundation
import Raster

/// Resolves icon references relative to a styles folder.
public struct IconResolver: Sendable {
    /// The folder PNG paths are relative to.
    public let directory: URL
    /// Decoded icons by reference.
    private let cache: BoundedCache<String, IconImage>

    /// The largest icon file read, in bytes.
    package static let maximumFileSize = 1 << 20
    /// The largest icon accepted, in pixels per side.
    public static let maximumDimension = 512
    /// Decoded icons kept: far more than styles use, and at most 256 MiB of pixels.
    static let cachedIcons = 256

    /// A resolver for PNG paths under `directory`.
    public init(directory: URL) {
        self.directory = directory
        cache = BoundedCache(capacity: Self.cachedIcons)
    }

    /// The icon a reference names; `path` is the reference's JSON path, for errors.
    func icon(_ reference: String, path: String) throws(StyleError) -> MarkerIcon {
        if reference.hasPrefix("builtin:") {
            let name = String(reference.dropFirst("builtin:".count))
            guard let builtin = BuiltinIcon(rawValue: name) else {
                let names = BuiltinIcon.allCases.map { "builtin:\($0.rawValue)" }.joined(separator: ", ")
                throw StyleError(path: path, message: "unknown built-in icon '\(name.prefix(40))'; expected one of \(names)")
            }
            return .builtin(builtin)
        }
        if let cached = cache.value(forKey: reference) { return .image(cached) }
        let image = try load(reference, path: path)
        cache.setValue(image, forKey: reference)
        return .image(image)
    }

    private func load(_ reference: String, path: String) throws(StyleError) -> IconImage {
        let components = reference.split(separator: "/", omittingEmptySubsequences: false)
        guard !reference.isEmpty, reference.utf8.count <= 256, !reference.hasPrefix("/"), !reference.contains("\\"),
            components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") })
        else {
            throw StyleError(path: path, message: "'\(reference.prefix(80))' is neither builtin:NAME nor a PNG path inside the styles folder")
        }
        guard reference.lowercased().hasSuffix(".png") else {
            throw StyleError(path: path, message: "'\(reference.prefix(80))' is not a .png file")
        }
        let url = directory.appendingPathComponent(reference)
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            throw StyleError(path: path, message: "icon file '\(reference)' does not exist in the styles folder")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.maximumFileSize else {
            throw StyleError(path: path, message: "icon file '\(reference)' is \(size) bytes; at most \(Self.maximumFileSize) are read")
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw StyleError(path: path, message: "icon file '\(reference)' cannot be read")
        }
        let image: Image
        do {
            image = try PNGCodec.decode(
                bytes,
                limits: PNGDecodingLimits(
                    maximumDimension: Self.maximumDimension, maximumPixels: Self.maximumDimension * Self.maximumDimension))
        } catch {
            throw StyleError(path: path, message: "icon file '\(reference)' is not a usable PNG: \(error.message)")
        }
        return IconImage(path: reference, image: image, density: Self.density(of: reference))
    }

    /// 2 for `name@2x.png`, 3 for `name@3x.png`, else 1.
    static func density(of reference: String) -> Double {
        let stem = reference.dropLast(4)
        for factor in [2, 3, 4] where stem.hasSuffix("@\(factor)x") { return Double(factor) }
        return 1
    }
}
