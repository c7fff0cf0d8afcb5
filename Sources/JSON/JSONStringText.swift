// A string written as JSON text, shared by the stream encoder and the object edits that put
// strings into encoded JSON (JSONObjectInsertions): an update's answer writes its route and
// path (some 80 KB at 20,000 points) straight into the buffer it is sent from, once (issue 30).

/// Where JSON text is written: an array, or a transport's buffer (through a wrapper of the
/// transport's own), so that a long answer is written once, where it is sent from.
package protocol JSONTextOutput {
    /// Appends `bytes`.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    /// Appends `byte`.
    mutating func append(_ byte: UInt8)
}

extension [UInt8]: JSONTextOutput {}

/// Writes strings as JSON string literals.
enum JSONStringText {
    /// Appends `text` to `bytes` as a JSON string: quoted, with what JSON escapes escaped.
    static func append(_ text: String, to bytes: inout some JSONTextOutput) {
        bytes.append(UInt8(ascii: "\""))
        let copied = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            appendEscaping(buffer, to: &bytes)
            return true
        }
        if copied != true {
            for byte in text.utf8 { appendEscaped(byte, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// About how many bytes `text` takes as a JSON string: exact unless it holds bytes to
    /// escape beyond one in sixteen (an encoded polyline has a backslash every 64 or so).
    static func estimatedCount(_ text: String) -> Int {
        let count = text.utf8.count
        return count + count / 16 + 2
    }

    /// Appends `buffer` with what JSON escapes escaped. Strings are copied in runs between the
    /// bytes that need escaping: most (IDs, enum names) have none, and an encoded polyline
    /// has a backslash every 64 bytes or so; a route of 20,000 points is some 40 KB, written
    /// into every location update's answer (issue 30). The runs are found eight bytes at a
    /// time: a byte-by-byte scan was 5% of such an update's CPU.
    private static func appendEscaping(_ buffer: UnsafeBufferPointer<UInt8>, to bytes: inout some JSONTextOutput) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        var runStart = 0
        var index = 0
        while index < count {
            while index + 8 <= count, !anyNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
            // The word at `index` holds an escape, or fewer than eight bytes are left.
            let wordEnd = min(index + 8, count)
            while index < wordEnd, !needsEscape(base[index]) { index += 1 }
            if index < wordEnd {
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                appendEscaped(base[index], to: &bytes)
                index += 1
                runStart = index
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }

    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes of `word` needs escaping. Each test is exact about
    /// whether some byte matches (a borrow can only mark bytes above a real match).
    @inline(__always) private static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let below0x20 = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (below0x20 | quote | backslash) & highBits != 0
    }

    @inline(__always) private static func appendEscaped(_ byte: UInt8, to bytes: inout some JSONTextOutput) {
        let escaped: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped = byte
        case 0x0A: escaped = UInt8(ascii: "n")
        case 0x0D: escaped = UInt8(ascii: "r")
        case 0x09: escaped = UInt8(ascii: "t")
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            for part in [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]] { bytes.append(part) }
            return
        default:
            bytes.append(byte)
            return
        }
        bytes.append(0x5C)
        bytes.append(escaped)
    }
}
