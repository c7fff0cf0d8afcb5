// Random access to an archive's bytes: a file read with pread (safe from many threads at once,
// no shared file position) or bytes in memory (tests, fuzzing). Contract: a read that would
// run past the end throws, naming the source; nothing is read beyond what is asked for.

import Foundation

/// Bytes readable at any offset, from any thread.
protocol ByteSource: Sendable {
    /// Total size in bytes.
    var count: Int { get }
    /// A name for messages (the file path).
    var name: String { get }
    /// `length` bytes from `offset`.
    func read(offset: Int, length: Int) throws(BasemapError) -> [UInt8]
}

extension ByteSource {
    /// Checks that a range lies inside the source before reading it.
    func checkRange(offset: Int, length: Int) throws(BasemapError) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw BasemapError(
                code: .corruptArchive,
                message: "\(name): a read of \(length) bytes at offset \(offset) runs past the end (\(count) bytes)")
        }
    }
}

/// An open file, read with pread; closed when the last reference goes.
final class FileBytes: ByteSource {
    let name: String
    let count: Int
    /// Size and modification time when opened, for identities.
    let modified: Date
    private let descriptor: Int32

    /// Opens a regular file read-only; throws `io` naming the file when it cannot be read.
    init(path: String) throws(BasemapError) {
        name = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw BasemapError(code: .io, message: "\(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw BasemapError(code: .io, message: "\(path): not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BasemapError(code: .io, message: "\(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        count = Int(info.st_size)
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    deinit {
        close(descriptor)
    }

    func read(offset: Int, length: Int) throws(BasemapError) -> [UInt8] {
        try checkRange(offset: offset, length: length)
        var buffer = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + done }, length - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                let reason = got < 0 ? String(cString: strerror(errno)) : "the file ended early (was it truncated while open?)"
                throw BasemapError(code: .io, message: "\(name): reading \(length) bytes at \(offset): \(reason)")
            }
            done += got
        }
        return buffer
    }
}

/// Bytes held in memory.
struct MemoryBytes: ByteSource {
    let bytes: [UInt8]
    let name: String
    var count: Int { bytes.count }

    func read(offset: Int, length: Int) throws(BasemapError) -> [UInt8] {
        try checkRange(offset: offset, length: length)
        return Array(bytes[offset..<(offset + length)])
    }
}
