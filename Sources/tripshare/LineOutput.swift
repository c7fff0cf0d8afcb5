import Foundation

/// Writes lines to standard output or a file through a 64 KiB buffer: a drive prints
/// hundreds of thousands of events, and a system call per line would dominate.
final class LineOutput {
    private let handle: FileHandle
    private var buffer = Data()

    /// Output to `path`, or standard output when nil or "-".
    init(path: String?) throws {
        if let path, path != "-" {
            try CommandFiles.checkWritable(path)
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CommandError("cannot write \(path): \(String(cString: strerror(errno)).lowercased())")
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } else {
            handle = FileHandle.standardOutput
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `bytes` and a newline.
    func writeLine(_ bytes: Data) {
        buffer.append(bytes)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out what is buffered.
    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
