// Editing the members of an encoded object without decoding it: the answer to a location
// update is the stored vehicle with its route put back and the members the caller did not ask
// for left out, and encoding the vehicle again for that cost about as much as the whole store
// write (issues 30 and 31).

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
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            var kept: [Range<Int>] = []
            var removedAny = false
            scanner.skipSpace()
            if !scanner.take(UInt8(ascii: "}")) {
                while true {
                    scanner.skipSpace()
                    let start = scanner.position
                    guard let key = scanner.string() else { return nil }
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: ":")), scanner.skipValue() else { return nil }
                    if unwanted.contains(where: { $0.elementsEqual(bytes[key]) }) {
                        removedAny = true
                    } else {
                        kept.append(start..<scanner.position)
                    }
                    scanner.skipSpace()
                    if scanner.take(UInt8(ascii: ",")) { continue }
                    guard scanner.take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
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

    /// `object` with the member `name` added last, its value `valueJSON` (JSON text, written
    /// as it is); nil when `object` does not end an object. `name` must not need escaping.
    package static func appending(_ name: String, valueJSON: [UInt8], to object: [UInt8]) -> [UInt8]? {
        guard object.last == UInt8(ascii: "}") else { return nil }
        var result = object
        result.removeLast()
        result.reserveCapacity(result.count + name.utf8.count + valueJSON.count + 5)
        while let last = result.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { result.removeLast() }
        if result.last != UInt8(ascii: "{") { result.append(UInt8(ascii: ",")) }
        result.append(UInt8(ascii: "\""))
        result.append(contentsOf: name.utf8)
        result.append(contentsOf: "\":".utf8)
        result.append(contentsOf: valueJSON)
        result.append(UInt8(ascii: "}"))
        return result
    }

    /// `object` with the member `name` added right before its first top-level member named in
    /// `followers`, or last when it has none of them, so that the member lands where an encoder
    /// that writes `followers` after `name` would have put it; nil when `object` is not one
    /// well-formed JSON object. `name` must not need escaping.
    package static func inserting(_ name: String, valueJSON: [UInt8], before followers: Set<String>, in object: [UInt8]) -> [UInt8]? {
        let found: Int?? = object.withUnsafeBufferPointer { bytes -> Int?? in
            var scanner = Scanner(bytes: bytes)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: "}")) { return .some(nil) }
            while true {
                scanner.skipSpace()
                let start = scanner.position
                guard let key = scanner.string() else { return nil }
                if followers.contains(where: { $0.utf8.elementsEqual(bytes[key]) }) { return .some(start) }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")), scanner.skipValue() else { return nil }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "}")) else { return nil }
                return .some(nil)
            }
        }
        guard let found else { return nil }
        guard let offset = found else { return appending(name, valueJSON: valueJSON, to: object) }
        var member: [UInt8] = [UInt8(ascii: "\"")]
        member.reserveCapacity(name.utf8.count + valueJSON.count + 4)
        member.append(contentsOf: name.utf8)
        member.append(contentsOf: "\":".utf8)
        member.append(contentsOf: valueJSON)
        member.append(UInt8(ascii: ","))
        var result = object
        result.insert(contentsOf: member, at: offset)
        return result
    }

    /// `object` with its top-level member `name`, an array, starting with `edit`'s result for
    /// its first element (an object's bytes) instead of that element, all else byte for byte as
    /// it was; nil when `object` does not open an object, has no such member, the array does not
    /// start with an object, or `edit` gives nil. The text after that member is not looked at.
    package static func editingFirstElement(of name: String, in object: [UInt8], _ edit: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        let element: Range<Int>? = object.withUnsafeBufferPointer { bytes -> Range<Int>? in
            var scanner = Scanner(bytes: bytes)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            while true {
                scanner.skipSpace()
                guard let key = scanner.string() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                if name.utf8.elementsEqual(bytes[key]) {
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: "[")) else { return nil }
                    scanner.skipSpace()
                    let start = scanner.position
                    guard start < bytes.count, bytes[start] == UInt8(ascii: "{"), scanner.skipValue() else { return nil }
                    return start..<scanner.position
                }
                guard scanner.skipValue() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ",")) else { return nil }
            }
        }
        guard let element, let edited = edit(Array(object[element])) else { return nil }
        var result = object
        result.replaceSubrange(element, with: edited)
        return result
    }

    /// A cursor over JSON text that steps over values without building them.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

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

        /// Steps over an object or array, strings inside included.
        private mutating func skipContainer() -> Bool {
            var closers: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"): closers.append(UInt8(ascii: "}"))
                case UInt8(ascii: "["): closers.append(UInt8(ascii: "]"))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard closers.popLast() == byte else { return false }
                    if closers.isEmpty {
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
