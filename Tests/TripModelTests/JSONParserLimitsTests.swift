import JSON
import Testing

/// The parser's bounds (issue 29): duplicate members found however many an object has,
/// objects and documents with too many members refused at the first one too many.
@Suite struct JSONParserLimitsTests {
    /// An object of `count` members `"k0":0, "k1":1, ...`, with `extra` appended inside it.
    static func object(members count: Int, extra: String = "") -> [UInt8] {
        var text = "{"
        for index in 0..<count {
            if index > 0 { text += "," }
            text += "\"k\(index)\":\(index)"
        }
        if !extra.isEmpty { text += (count > 0 ? "," : "") + extra }
        return Array((text + "}").utf8)
    }

    /// A duplicate is found in a small object, where names are compared one by one.
    @Test func duplicateInSmallObject() throws {
        let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Self.object(members: 3, extra: #""k1":5"#)) }
        #expect(error.reason == "duplicate member 'k1'")
        #expect(!error.exceedsLimit)
    }

    /// A duplicate is found in a large object, where names are kept in a set, at the byte of
    /// the second occurrence; the first member and the last are both checked.
    @Test func duplicateInLargeObject() throws {
        for name in ["k0", "k4999", "k9"] {
            let bytes = Self.object(members: 5_000, extra: "\"\(name)\":1")
            let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
            #expect(error.reason == "duplicate member '\(name)'")
            #expect(error.offset == bytes.count - name.count - 5)
        }
    }

    /// Escaped and plain spellings of the same name are the same member.
    @Test func escapedDuplicateIsFound() throws {
        let bytes = Self.object(members: 20, extra: #""k\u0031":1"#)
        let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
        #expect(error.reason == "duplicate member 'k1'")
    }

    /// An object of exactly the limit parses; one more member is refused as too large, at
    /// that member's name, whatever follows.
    @Test func membersPerObjectBound() throws {
        let limits = JSONParser.Limits(membersPerObject: 100, membersPerDocument: 1_000)
        guard case .object(let members) = try JSONParser.parse(Self.object(members: 100), limits: limits) else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 100)
        let bytes = Self.object(members: 101)
        let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes, limits: limits) }
        #expect(error.exceedsLimit)
        #expect(error.reason == "an object has more than 100 members")
        #expect(error.description.hasPrefix("JSON too large at byte"))
        #expect(Array(bytes[error.offset..<error.offset + 6]) == Array(#""k100""#.utf8))
    }

    /// Members of nested objects count toward the document's bound.
    @Test func membersPerDocumentBound() throws {
        let limits = JSONParser.Limits(membersPerObject: 10, membersPerDocument: 25)
        let inner = String(decoding: Self.object(members: 8), as: UTF8.self)
        let three = Array("[\(inner),\(inner),\(inner)]".utf8)
        _ = try JSONParser.parse(three, limits: limits)
        let four = Array("[\(inner),\(inner),\(inner),\(inner)]".utf8)
        let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(four, limits: limits) }
        #expect(error.exceedsLimit)
        #expect(error.reason == "the document has more than 25 members")
    }

    /// The standard limit holds 10,000 members an object; the probe's 160,000-member body is
    /// refused.
    @Test func standardLimits() throws {
        _ = try JSONParser.parse(Self.object(members: 10_000))
        let error = try #require(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Self.object(members: 160_000)) }
        #expect(error.reason == "an object has more than 10000 members")
        _ = try JSONParser.parse(Self.object(members: 160_000), limits: .none)
        #expect(JSONParser.Limits.perObject(50_000).membersPerDocument == 200_000)
        #expect(JSONParser.Limits.perObject(500_000).membersPerDocument == 500_000)
    }

    /// The strict decoder's errors for a body past the bound say so (INVALID_ARGUMENT at the
    /// HTTP edge).
    @Test func decoderReportsTheBound() throws {
        let error = try #require(throws: JSONInputError.self) {
            try StrictJSONDecoder().decode([String: Int].self, from: Self.object(members: 10_001), root: "vehicle")
        }
        #expect(error.path == "vehicle")
        #expect(error.message.contains("an object has more than 10000 members"))
    }
}
