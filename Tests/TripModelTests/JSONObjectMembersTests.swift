import JSON
import Testing
import TripModel

/// Members left out of an encoded object as bytes: what the answer to a location update is
/// made with when the caller did not ask for tripshare's extensions.
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

    /// A member added last, after other members, in an empty object, or before whitespace;
    /// text that does not end an object gives nil.
    @Test func appendsAMember() {
        func appending(_ object: String) -> String? {
            JSONObjectMembers.appending("z", valueJSON: Array("[1]".utf8), to: Array(object.utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(appending(#"{"a":1}"#) == #"{"a":1,"z":[1]}"#)
        #expect(appending("{}") == #"{"z":[1]}"#)
        #expect(appending("{ }") == #"{"z":[1]}"#)
        #expect(appending(#"{"a":1 }"#) == #"{"a":1,"z":[1]}"#)
        #expect(appending("[1]") == nil)
    }

    /// A member goes before the first top-level member named as a follower, or last when
    /// there is none; names inside nested values and strings do not count; text that is not one
    /// object gives nil.
    @Test func insertsBeforeItsFollowers() {
        func inserting(_ object: String) -> String? {
            JSONObjectMembers.inserting("z", valueJSON: Array("[1]".utf8), before: ["c", "d"], in: Array(object.utf8))
                .map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(inserting(#"{"a":1,"c":3}"#) == #"{"a":1,"z":[1],"c":3}"#)
        #expect(inserting(#"{"a":1,"d":4,"c":3}"#) == #"{"a":1,"z":[1],"d":4,"c":3}"#)
        #expect(inserting(#"{"c":3}"#) == #"{"z":[1],"c":3}"#)
        #expect(inserting(#"{"a":{"c":1},"s":"\"c\":2"}"#) == #"{"a":{"c":1},"s":"\"c\":2","z":[1]}"#)
        #expect(inserting(#"{"a":1}"#) == #"{"a":1,"z":[1]}"#)
        #expect(inserting("{}") == #"{"z":[1]}"#)
        for broken in [#"{"a":1"#, #"{"a":[1}"#, "[1]", #"{a:1}"#, ""] {
            #expect(inserting(broken) == nil, "\(broken)")
        }
    }

    /// The first element of a top-level array member is edited, nothing else: not a same-named
    /// member nested deeper, not the later elements; no such member, an empty array, an array
    /// that does not start with an object, or an edit that fails give nil.
    @Test func editsTheFirstElementOfAnArray() {
        func editing(_ object: String, edit: @escaping ([UInt8]) -> [UInt8]? = { Array($0.dropLast()) + Array(#","z":1}"#.utf8) }) -> String? {
            JSONObjectMembers.editingFirstElement(of: "w", in: Array(object.utf8), edit).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(editing(#"{"a":{"w":[{"x":0}]},"w":[{"x":1},{"x":2}],"b":"]"}"#) == #"{"a":{"w":[{"x":0}]},"w":[{"x":1,"z":1},{"x":2}],"b":"]"}"#)
        #expect(editing(#"{ "w" : [ {"s":"{\"}"} ] }"#) == #"{ "w" : [ {"s":"{\"}","z":1} ] }"#)
        for refused in [#"{"a":[{"x":1}]}"#, #"{"w":[]}"#, #"{"w":[1,{"x":1}]}"#, #"{"w":{"x":1}}"#, "{}", "[1]", #"{"w":[{"x":1"#] {
            #expect(editing(refused) == nil, "\(refused)")
        }
        #expect(editing(#"{"w":[{"x":1}]}"#, edit: { _ in nil }) == nil)
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
