// Errors the commands end with: one line that says what went wrong, without the usage text
// ArgumentParser adds to a ValidationError (the arguments were fine; the world was not), and
// Foundation's file errors turned into the same kind of line.

import ArgumentParser
import Foundation

/// A failure a command reports as one readable line.
struct CommandError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// `error`, or a readable line for what Foundation reports as an NSCocoaErrorDomain dump
    /// (a file that is missing, unreadable or unwritable).
    static func readable(_ error: any Error) -> any Error {
        guard let cocoa = error as? CocoaError else { return error }
        let path = cocoa.filePath ?? cocoa.url?.path ?? "a file"
        switch cocoa.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return CommandError("no such file: \(path)")
        case .fileReadNoPermission, .fileWriteNoPermission: return CommandError("permission denied: \(path)")
        case .fileWriteOutOfSpace: return CommandError("no space left to write \(path)")
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: return CommandError("cannot read \(path): not in the expected format")
        default: return CommandError("\(path): \(cocoa.localizedDescription)")
        }
    }
}
