// Members put into an encoded JSON object without decoding it, written out in one pass: the
// answer to a location update is the vehicle's stored body with its route segment and the
// path to its first waypoint put back (issues 30 and 31). At 20,000 points those are some
// 80 KB, and inserting them one after another copied the answer five times over and more.

/// An encoded object and the members to insert into it, each where an encoder that writes its
/// followers after it would have put it; ``write(into:)`` writes the result once, where it is
/// sent from.
package struct JSONObjectInsertions: Sendable {
    /// A member's value.
    package enum Value: Sendable {
        /// JSON text, written as it is.
        case json([UInt8])
        /// A string, written as a JSON string.
        case string(String)

        fileprivate var estimatedCount: Int {
            switch self {
            case .json(let text): text.count
            case .string(let text): JSONStringText.estimatedCount(text)
            }
        }
    }

    /// One member to insert at `offset` of the object's text; where it goes last in its object,
    /// the blank space from `offset` to `resume` (before the closing brace) is left out.
    private struct Insertion: Sendable {
        let offset: Int
        let resume: Int
        let name: String
        let value: Value
        /// Where it goes last: after a comma unless it is the object's first member.
        let last: Bool
        let afterMembers: Bool
    }

    /// Where a member goes in one object of the text.
    private enum Place {
        /// Before the member whose name starts at this offset.
        case before(Int)
        /// Last: the object's members end at `end` (blank space up to the brace at `brace`).
        case last(end: Int, brace: Int, hasMembers: Bool)
    }

    private let object: [UInt8]
    private var insertions: [Insertion] = []
    /// Whether some insertion found no place (the text is not what it should be).
    private var failed = false

    /// Nothing inserted yet into `object`, the text of one JSON object.
    package init(into object: [UInt8]) { self.object = object }

    /// Inserts the top-level member `name` right before the first of its top-level members named
    /// in `followers`, or last when it has none of them. `name` must not need escaping.
    package mutating func insert(_ name: String, _ value: Value, before followers: Set<String>) {
        let place = object.withUnsafeBufferPointer { bytes -> Place? in
            var scanner = JSONObjectMembers.Scanner(bytes: bytes)
            scanner.skipSpace()
            let found = Self.place(before: followers, inObjectAt: &scanner)
            // As an encoder writes it: nothing after the object's closing brace.
            if case .last(_, let brace, _) = found, brace != bytes.count - 1 { return nil }
            return found
        }
        add([(name, value, followers)], at: place.map { [$0] } ?? [])
    }

    /// Inserts members into the first element (an object) of the top-level array member
    /// `array`, each before its followers in that element, or last; `members` in the order an
    /// encoder writes them. All else stays byte for byte as it was.
    package mutating func insert(_ members: [(name: String, value: Value, followers: Set<String>)], inFirstElementOf array: String) {
        let places = object.withUnsafeBufferPointer { bytes -> [Place] in
            var scanner = JSONObjectMembers.Scanner(bytes: bytes)
            guard scanner.enterFirstElement(of: array) else { return [] }
            let element = scanner.position
            return members.compactMap { member in
                scanner.position = element
                return Self.place(before: member.followers, inObjectAt: &scanner)
            }
        }
        add(members, at: places)
    }

    private mutating func add(_ members: [(name: String, value: Value, followers: Set<String>)], at places: [Place]) {
        guard places.count == members.count else {
            failed = true
            return
        }
        for (member, place) in zip(members, places) {
            switch place {
            case .before(let offset):
                insertions.append(
                    Insertion(offset: offset, resume: offset, name: member.name, value: member.value, last: false, afterMembers: true))
            case .last(let end, let brace, let hasMembers):
                // A member already put last in the same object precedes this one.
                let follows = hasMembers || insertions.contains { $0.last && $0.offset == end }
                insertions.append(
                    Insertion(offset: end, resume: brace, name: member.name, value: member.value, last: true, afterMembers: follows))
            }
        }
    }

    /// The place of a member before `followers` in the object whose opening brace is at the
    /// scanner's position; nil when the object is not well formed up to that place.
    private static func place(before followers: Set<String>, inObjectAt scanner: inout JSONObjectMembers.Scanner) -> Place? {
        let bytes = scanner.bytes
        var found: Place?
        var hasMembers = false
        var end = scanner.position + 1
        let wellFormed = scanner.walkMembers { member, key in
            if followers.contains(where: { $0.utf8.elementsEqual(bytes[key]) }) {
                found = .before(member.lowerBound)
                return false
            }
            hasMembers = true
            end = member.upperBound
            return true
        }
        guard wellFormed else { return nil }
        return found ?? .last(end: end, brace: scanner.position - 1, hasMembers: hasMembers)
    }

    /// Whether every member found its place: else the text is not one object, or has no such
    /// array or element, and the result would not be what an encoder writes.
    package var isComplete: Bool { !failed }

    /// About how many bytes the result takes: exact unless the strings hold many escapes.
    package var estimatedCount: Int { object.count + insertions.reduce(0) { $0 + $1.name.utf8.count + $1.value.estimatedCount + 4 } }

    /// The object with the members inserted (only meaningful where ``isComplete``).
    package func bytes() -> [UInt8] {
        if insertions.isEmpty { return object }
        var result: [UInt8] = []
        result.reserveCapacity(estimatedCount)
        write(into: &result)
        return result
    }

    /// Appends the object with the members inserted to `output` (only meaningful where
    /// ``isComplete``).
    package func write(into output: inout some JSONTextOutput) {
        // Stable: members at one offset go in the order they were inserted.
        let ordered = insertions.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
        var copied = 0
        object.withUnsafeBufferPointer { bytes in
            for insertion in ordered {
                if insertion.offset > copied {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<insertion.offset]))
                }
                if insertion.last, insertion.afterMembers { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\""))
                for byte in insertion.name.utf8 { output.append(byte) }
                output.append(UInt8(ascii: "\""))
                output.append(UInt8(ascii: ":"))
                switch insertion.value {
                case .json(let text): text.withUnsafeBufferPointer { output.append(contentsOf: $0) }
                case .string(let text): JSONStringText.append(text, to: &output)
                }
                if !insertion.last { output.append(UInt8(ascii: ",")) }
                copied = max(copied, insertion.resume)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
    }
}
