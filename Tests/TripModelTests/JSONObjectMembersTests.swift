import JSON
import Testing
import TripModel

/// Members left out of and put into an encoded object as bytes: what the answer to a location
/// update is made with (its route put back, tripshare's extensions left out where the caller
/// did not ask for them).
@Suite struct JSONObjectMembersTests {
    static func removing(_ names: Set<String>, from text: String) -> String? {
        JSONObjectMembers.removing(names, from: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// First, middle and last members go; same-named members inside nested values and
    /// strings that look like JSON stay, byte for byte.
    @Test(arguments: [
        (#"{"a":1,"b":2,"c":3}"#, #"{"b":2,"c":3}"#),
        (#"{"b":2,"a":1,"c":3}"#, #"{"b":2,"c":3}"#),
        (#"{"b":2,"c":3,"a":{"x":[1,{"y":"}"}]}}"#, #"{"b":2,"c":3}"#),
        (#"{"a":1}"#, "{}"),
        (#"{"n":{"a":1},"s":"\"a\":1,}","a":[{"a":"]"}]}"#, #"{"n":{"a":1},"s":"\"a\":1,}"}"#),
        (#" { "a" : true , "b" : null } "#, #"{"b" : null}"#),
    ])
    func removesTopLevelMembers(_ object: String, _ expected: String) {
        #expect(Self.removing(["a"], from: object) == expected)
    }

    /// Nothing to remove gives the same bytes; text that is not one object gives nil, so the
    /// caller encodes instead of answering something broken.
    @Test func keepsOrRefuses() {
        #expect(Self.removing(["z"], from: #"{"a":1,"b":[2]}"#) == #"{"a":1,"b":[2]}"#)
        #expect(Self.removing(["a"], from: "{}") == "{}")
        for broken in [#"{"a":1"#, #"{"a":"1}"#, #"{"a":[1}"#, #"[1]"#, #"{"a":1}x"#, #"{"a":}"#, #"{a:1}"#, ""] {
            #expect(Self.removing(["a"], from: broken) == nil, "\(broken)")
        }
    }

    static func inserting(_ value: JSONObjectInsertions.Value = .json(Array("[1]".utf8)), into object: String) -> String? {
        var insertions = JSONObjectInsertions(into: Array(object.utf8))
        insertions.insert("z", value, before: ["c", "d"])
        return insertions.isComplete ? String(decoding: insertions.bytes(), as: UTF8.self) : nil
    }

    /// A member goes before the first top-level member named as a follower, or last when
    /// there is none (after other members, in an empty object, before blank space); names
    /// inside nested values and strings do not count; text that is not one object gives nil.
    @Test func insertsBeforeItsFollowers() {
        #expect(Self.inserting(into: #"{"a":1,"c":3}"#) == #"{"a":1,"z":[1],"c":3}"#)
        #expect(Self.inserting(into: #"{"a":1,"d":4,"c":3}"#) == #"{"a":1,"z":[1],"d":4,"c":3}"#)
        #expect(Self.inserting(into: #"{"c":3}"#) == #"{"z":[1],"c":3}"#)
        #expect(Self.inserting(into: #"{"a":{"c":1},"s":"\"c\":2"}"#) == #"{"a":{"c":1},"s":"\"c\":2","z":[1]}"#)
        #expect(Self.inserting(into: #"{"a":1}"#) == #"{"a":1,"z":[1]}"#)
        #expect(Self.inserting(into: #"{"a":1 }"#) == #"{"a":1,"z":[1]}"#)
        #expect(Self.inserting(into: "{}") == #"{"z":[1]}"#)
        #expect(Self.inserting(into: "{ }") == #"{"z":[1]}"#)
        for broken in [#"{"a":1"#, #"{"a":[1}"#, "[1]", #"{a:1}"#, #"{"a":1}x"#, #"{"a":1} "#, ""] {
            #expect(Self.inserting(into: broken) == nil, "\(broken)")
        }
    }

    /// A string value is written as a JSON string, escaped as the encoder escapes it (an
    /// encoded polyline holds backslashes), long or short.
    @Test func insertsAStringAsTheEncoderWritesIt() throws {
        let long = String(repeating: #"_p~iF\"\u{1}"#, count: 500)
        for text in ["", "plain", #"a\b"c"#, "line\nbreak\u{1f}", long] {
            let encoded = String(decoding: try JSONStreamEncoder().encode(text), as: UTF8.self)
            #expect(Self.inserting(.string(text), into: #"{"a":1,"c":3}"#) == #"{"a":1,"z":"# + encoded + #","c":3}"#)
        }
    }

    /// Members go into the first element of a top-level array member, nothing else: not a
    /// same-named member nested deeper, not the later elements. Members given in the order an
    /// encoder writes them keep it where they share a place, before a follower or last. No
    /// such member, an empty array, an array that does not start with an object, or an element
    /// that is not well formed give nil.
    @Test func insertsIntoTheFirstElementOfAnArray() {
        func inserting(into object: String, followers: (Set<String>, Set<String>) = (["y", "q", "r"], ["r"])) -> String? {
            var insertions = JSONObjectInsertions(into: Array(object.utf8))
            insertions.insert(
                [("p", .string("P"), followers.0), ("q", .json(Array("2".utf8)), followers.1)], inFirstElementOf: "w")
            return insertions.isComplete ? String(decoding: insertions.bytes(), as: UTF8.self) : nil
        }
        #expect(
            inserting(into: #"{"a":{"w":[{"x":0}]},"w":[{"x":1},{"x":2}],"b":"]"}"#)
                == #"{"a":{"w":[{"x":0}]},"w":[{"x":1,"p":"P","q":2},{"x":2}],"b":"]"}"#)
        #expect(inserting(into: #"{ "w" : [ {"s":"{\"}" } ] }"#) == #"{ "w" : [ {"s":"{\"}","p":"P","q":2} ] }"#)
        #expect(inserting(into: #"{"w":[{}]}"#) == #"{"w":[{"p":"P","q":2}]}"#)
        #expect(inserting(into: #"{"w":[{"x":1,"r":3}]}"#) == #"{"w":[{"x":1,"p":"P","q":2,"r":3}]}"#)
        #expect(inserting(into: #"{"w":[{"y":1,"r":3}]}"#) == #"{"w":[{"p":"P","y":1,"q":2,"r":3}]}"#)
        for refused in [#"{"a":[{"x":1}]}"#, #"{"w":[]}"#, #"{"w":[1,{"x":1}]}"#, #"{"w":{"x":1}}"#, "{}", "[1]", #"{"w":[{"x":1"#] {
            #expect(inserting(into: refused) == nil, "\(refused)")
        }
    }

    /// Members at the top level and in the first element, inserted in any order, come out as
    /// inserting them one after another would put them.
    @Test func insertsAtTopLevelAndInAnElement() {
        var insertions = JSONObjectInsertions(into: Array(#"{"n":"v","w":[{"x":1},{"x":2}],"t":1}"#.utf8))
        insertions.insert("s", .string("S"), before: ["w", "t"])
        insertions.insert([("p", .string("P"), ["x"])], inFirstElementOf: "w")
        #expect(insertions.isComplete)
        #expect(String(decoding: insertions.bytes(), as: UTF8.self) == #"{"n":"v","s":"S","w":[{"p":"P","x":1},{"x":2}],"t":1}"#)
    }

    /// A vehicle as stored (every extension) minus the extensions not asked for is exactly
    /// the vehicle encoded with those extensions only.
    @Test func storedVehicleGivesTheAnswerWithoutExtensions() throws {
        var vehicle = Vehicle(name: "providers/p/vehicles/v1")
        vehicle.vehicleState = .online
        vehicle.estimateMethod = .straightLine
        vehicle.estimateBasis = EstimateBasis(roadClassCoverage: 0.5, detourFactor: 1.3)
        vehicle.remainingTimeSeconds = 120
        let stored = try JSONStreamEncoder().encode(vehicle)
        for asked in [ResourceExtensions.none, ResourceExtensions(naming: ["estimateMethod"])!, .all] {
            let answer = try #require(asked.answer(fromStored: stored, of: vehicle))
            #expect(answer == (try JSONStreamEncoder(userInfo: asked.userInfo).encode(vehicle)), "\(asked.included)")
        }
    }
}
