// Leaving members out of an encoded object without decoding it: the answer to a location
// update is the stored vehicle without the members the caller did not ask for (and with its
// route put back, JSONObjectInsertions), and encoding the vehicle again for that cost about as
// much as the whole store write (issues 30 and 31).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The top-level members of an encoded JSON object, worked on as bytes.
package enum JSONObjectMembers {
    /// `object` without the top-level members named in `names`, the others byte for byte as
    /// they were and in their order; nil when `object` is not one well-formed JSON object.
    /// Nested objects are copied whole: only the outermost object's members are looked at.
    package static func removing(_ names: Set<String>, from object: [UInt8]) -> [UInt8]? {
        let unwanted = names.map { Array($0.utf8) }
        return object.withUnsafeBufferPointer { bytes -> [UInt8]? in
            var scanner = Scanner(bytes: bytes)
            scanner.skipSpace()
            var kept: [Range<Int>] = []
            var removedAny = false
            let wellFormed = scanner.walkMembers { member, key in
                if unwanted.contains(where: { $0.elementsEqual(bytes[key]) }) {
                    removedAny = true
                } else {
                    kept.append(member)
                }
                return true
            }
            guard wellFormed else { return nil }
            scanner.skipSpace()
            guard scanner.atEnd else { return nil }
            guard removedAny else { return object }
            var result: [UInt8] = [UInt8(ascii: "{")]
            result.reserveCapacity(kept.reduce(2) { $0 + $1.count + 1 })
            for (index, range) in kept.enumerated() {
                if index > 0 { result.append(UInt8(ascii: ",")) }
                result.append(contentsOf: bytes[range])
            }
            result.append(UInt8(ascii: "}"))
            return result
        }
    }

    /// A cursor over JSON text that steps over values without building them (also finds
    /// where ``JSONObjectInsertions`` puts members).
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Steps over the object whose opening brace is next, calling `visit` with each of its
        /// members (from its name's opening quote to its value's end) and the member's name
        /// (between the quotes), in order, until `visit` returns false: then the position is
        /// after that member's value, else after the object's closing brace. False when the
        /// object is not well formed up to there.
        mutating func walkMembers(_ visit: (_ member: Range<Int>, _ name: Range<Int>) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                let start = position
                guard let key = string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")), skipValue() else { return false }
                if !visit(start..<position, key) { return true }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// From the start of the text, steps to the first element of the top-level array
        /// member `name` of the object the text opens; false when there is no such member, the
        /// array does not start with an object, or that object is not well formed. The text
        /// after that member is not looked at.
        mutating func enterFirstElement(of name: String) -> Bool {
            position = 0
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            while true {
                skipSpace()
                guard let key = string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                if name.utf8.elementsEqual(bytes[key]) {
                    skipSpace()
                    guard take(UInt8(ascii: "[")) else { return false }
                    skipSpace()
                    var element = self
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "{"), element.skipValue() else { return false }
                    return true
                }
                guard skipValue() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        mutating func skipSpace() {
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        }

        /// Steps over a string; the range of its contents, between the quotes. The closing
        /// quote is found with `memchr`: the strings stepped over include routes and paths of
        /// kilobytes, and a byte-by-byte loop over them was most of the cost of leaving out the
        /// members an update's caller did not ask for. A quote after an odd number of
        /// backslashes is part of the string.
        mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return nil }
            let start = position
            while position < bytes.count {
                guard let found = memchr(base + position, Int32(UInt8(ascii: "\"")), bytes.count - position) else { return nil }
                let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                var backslashes = 0
                while quote - backslashes > start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                position = quote + 1
                if backslashes.isMultiple(of: 2) { return start..<quote }
            }
            return nil
        }

        /// Steps over one value of any kind; false when the text ends first or a bracket
        /// does not match.
        mutating func skipValue() -> Bool {
            skipSpace()
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["): return skipContainer()
            default:
                let start = position
                while position < bytes.count, !Self.endsScalar(bytes[position]) { position += 1 }
                return position > start
            }
        }

        /// Steps over an object or array, strings inside included. The open brackets are
        /// kept as bits of a word (1 for a brace) while they nest at most 64 deep, as stored
        /// rows do: a stack array cost an allocation for every nested value a decoder stepped
        /// over (issue 30).
        private mutating func skipContainer() -> Bool {
            var open: UInt64 = 0
            var depth = 0
            var deeper: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth >= 64 { deeper.append(byte) } else { open = open << 1 | (byte == UInt8(ascii: "{") ? 1 : 0) }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    let opener: UInt8
                    if depth > 64 {
                        opener = deeper.removeLast()
                    } else {
                        opener = open & 1 == 1 ? UInt8(ascii: "{") : UInt8(ascii: "[")
                        open >>= 1
                    }
                    guard (opener == UInt8(ascii: "{")) == (byte == UInt8(ascii: "}")) else { return false }
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return true
                    }
                default: break
                }
                position += 1
            }
            return false
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        private static func endsScalar(_ byte: UInt8) -> Bool {
            isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        }
    }
}
