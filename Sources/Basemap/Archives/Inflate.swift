// gzip and zlib decompression through the system zlib. Contract: the output is bounded by
// a limit the caller gives, so a small "gzip bomb" is an error, never gigabytes of memory;
// truncated or corrupt streams are errors; data that is not compressed is not touched here
// (callers check `isCompressed` first).

import CZlib

/// Inflates gzip (RFC 1952) and zlib (RFC 1950) streams.
public enum Inflate {
    /// The bound used for tiles and directories when the caller gives none: 64 MiB, far above
    /// any real vector tile (a few hundred KB) and far below what would hurt a server.
    public static let defaultLimit = 64 << 20

    /// True when the bytes start like a gzip member (1F 8B).
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// True when the bytes start like a zlib stream (deflate method, valid header checksum).
    package static func isZlib(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] & 0x0F == 8, bytes[0] >> 4 <= 7 else { return false }
        return (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    }

    /// True when the bytes are gzip or zlib compressed.
    package static func isCompressed(_ bytes: [UInt8]) -> Bool { isGzip(bytes) || isZlib(bytes) }

    /// The decompressed bytes of a gzip or zlib stream (detected from its header). Throws
    /// `corruptCompression` when the stream is invalid or truncated, or when it would inflate
    /// past `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = defaultLimit) throws(BasemapError) -> [UInt8] {
        guard !input.isEmpty else { throw error("the compressed stream is empty") }
        var stream = z_stream()
        // 15 window bits + 32: accept both zlib and gzip headers.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw BasemapError(code: .corruptCompression, message: "zlib could not be initialised")
        }
        defer { inflateEnd(&stream) }
        let bound = max(limit, 0)
        var output = [UInt8](repeating: 0, count: min(bound, max(input.count * 4, 16 << 10)))
        var produced = 0
        var status: Int32 = Z_OK
        try input.withUnsafeBufferPointer { (source) throws(BasemapError) in
            // zlib reads next_in and never writes through it (its z_const is not enabled here).
            stream.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.avail_in = uInt(source.count)
            while true {
                if produced == output.count {
                    guard output.count < bound else {
                        throw error("the stream inflates to more than \(bound) bytes")
                    }
                    output.append(contentsOf: repeatElement(0, count: min(output.count, bound - output.count)))
                }
                let room = output.count - produced
                status = output.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress.map { $0 + produced }
                    stream.avail_out = uInt(room)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                produced += room - Int(stream.avail_out)
                switch status {
                case Z_STREAM_END:
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible: either the output is full (grow and go on) or the
                    // input ended before the stream did.
                    if stream.avail_out == 0 { continue }
                    throw error("the compressed stream is truncated")
                case Z_NEED_DICT:
                    throw error("the stream needs a preset dictionary")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw error("the compressed stream is corrupt (\(reason))")
                }
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    private static func error(_ message: String) -> BasemapError {
        BasemapError(code: .corruptCompression, message: message)
    }
}
