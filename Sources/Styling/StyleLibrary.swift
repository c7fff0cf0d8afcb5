// The read-only base styles: every `NAME.json` in a styles folder. `default.json` is
// complete (it names every property) and is the base of every other style, which names
// only what it overrides. Loaded once at start-up; a bad file is a StyleError naming the
// file and the JSON path.

import Foundation
import JSON
import TripModel

/// The style files of a styles folder, resolved.
public struct StyleLibrary: Sendable {
    /// The folder.
    public let directory: URL
    /// Resolves icon references relative to the folder.
    public let icons: IconResolver
    /// The complete default style (`default.json`).
    public let defaultStyle: StyleSheet
    /// A digest of every file in the folder, so caches notice a changed deployment.
    package let fingerprint: Fingerprint
    private let styles: [String: StyleSheet]

    /// The name of the style every other style is based on.
    package static let defaultName = "default"

    /// Loads every style in `directory`.
    public init(directory: URL) throws(StyleError) {
        self.directory = directory
        icons = IconResolver(directory: directory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        } catch {
            throw StyleError(path: directory.path, message: "the styles folder cannot be read")
        }
        func read(_ name: String) throws(StyleError) -> StyleSheetPatch {
            let file = "\(name).json"
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
                throw StyleError(path: file, message: "cannot be read from \(directory.path)")
            }
            return try Self.decodePatch(data, root: file)
        }
        guard names.contains(Self.defaultName) else {
            throw StyleError(path: directory.path, message: "the styles folder has no \(Self.defaultName).json")
        }
        let base = try read(Self.defaultName).resolved(over: nil, icons: icons, root: "\(Self.defaultName).json")
        var styles = [Self.defaultName: base]
        for name in names where name != Self.defaultName {
            guard Self.isValidName(name) else {
                throw StyleError(path: "\(name).json", message: "style names are 1–64 letters, digits, '-' or '_'")
            }
            styles[name] = try read(name).resolved(over: base, icons: icons, root: "\(name).json")
        }
        defaultStyle = base
        self.styles = styles
        fingerprint = Self.digest(of: directory)
    }

    /// The styles shipped with tripshare (Sources/Styling/styles).
    public static func bundled() throws(StyleError) -> StyleLibrary {
        guard let url = Bundle.module.url(forResource: "styles", withExtension: nil) else {
            throw StyleError(path: "styles", message: "the styles folder is missing from the Styling resources (\(Bundle.module.bundlePath))")
        }
        return try StyleLibrary(directory: url)
    }

    /// The names of the styles, sorted.
    public var names: [String] { styles.keys.sorted() }

    /// A style by name; nil when there is no such file.
    public func style(named name: String) -> StyleSheet? { styles[name] }

    /// A style file from anywhere (`tripshare render --style PATH`), over the default
    /// style; its PNG icons are relative to the file's folder.
    public func style(file url: URL) throws(StyleError) -> StyleSheet {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw StyleError(path: url.path, message: "cannot be read")
        }
        let resolver = IconResolver(directory: url.deletingLastPathComponent())
        return try Self.decodePatch(data, root: url.lastPathComponent).resolved(over: defaultStyle, icons: resolver, root: url.lastPathComponent)
    }

    /// True for 1–64 ASCII letters, digits, `-` and `_`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// Decodes a partial style strictly; `root` prefixes error paths.
    static func decodePatch(_ bytes: some Collection<UInt8>, root: String) throws(StyleError) -> StyleSheetPatch {
        do {
            return try StrictJSONDecoder().decode(StyleSheetPatch.self, from: bytes, root: root)
        } catch {
            throw StyleError(path: error.path, message: error.message)
        }
    }

    /// A digest of the names and contents of every file under `directory`.
    private static func digest(of directory: URL) -> Fingerprint {
        var fingerprint = Fingerprint()
        let files = (FileManager.default.subpaths(atPath: directory.path) ?? []).sorted()
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else { continue }
            fingerprint.add(file)
            fingerprint.add(data)
        }
        return fingerprint
    }
}
