// Files named on the command line, read and written with errors a person can act on ("no
// such file: route.json", "cannot write out/route.json: no such folder: out") instead of
// Foundation's NSCocoaErrorDomain dumps.

import ArgumentParser
import Foundation

/// Reading and writing the files a command names.
enum CommandFiles {
    /// The bytes of `path`; the error says what is wrong with the path.
    static func read(_ path: String) throws -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandError("no such file: \(path)")
        }
        guard !isFolder.boolValue else { throw CommandError("\(path) is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("cannot read \(path): \(String(cString: strerror(access(path, R_OK) == 0 ? EIO : errno)).lowercased())")
        }
        return data
    }

    /// Writes `data` to `path`; the error says why it cannot be written (a missing folder,
    /// no permission).
    static func write(_ data: Data, to path: String) throws {
        try checkWritable(path)
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno)).lowercased())")
        }
    }

    /// Throws when a file cannot be created at `path` because its folder is missing or is not
    /// a folder.
    static func checkWritable(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw CommandError("cannot write \(path): no such folder: \(folder)")
        }
        guard isFolder.boolValue else { throw CommandError("cannot write \(path): \(folder) is not a folder") }
    }
}
