import JSON

/// The members tripshare adds to Fleet Engine's v1 resources, and which of them an answer
/// carries (docs/fleet-engine.md, "What tripshare adds").
///
/// Answers are pure Fleet Engine unless the caller names the extensions it wants, so that
/// code written for Fleet Engine, parsing strictly with Google's own types, runs unchanged.
/// Stored resources keep everything: an encoder whose `userInfo` lacks ``userInfoKey`` writes
/// every extension.
package struct ResourceExtensions: Sendable, Equatable {
    /// Every extension, by its JSON member name.
    package static let names: Set<String> = ["estimateMethod", "estimateBasis"]

    /// The request header in which a caller names the extensions it wants, comma-separated.
    package static let requestHeader = "Tripshare-Extensions"

    /// No extension: the answer Fleet Engine would give.
    package static let none = ResourceExtensions(uncheckedNames: [])
    /// Every extension, as the stores keep resources.
    package static let all = ResourceExtensions(uncheckedNames: names)

    /// The extensions included.
    package let included: Set<String>

    private init(uncheckedNames: Set<String>) { included = uncheckedNames }

    /// The extensions named; `nil` when one of `names` is not an extension.
    package init?(naming names: some Sequence<String>) {
        let named = Set(names)
        guard named.isSubset(of: Self.names) else { return nil }
        included = named
    }

    /// The encoder `userInfo` key under which values find the extensions to write.
    package static let userInfoKey = CodingUserInfoKey(rawValue: "tripshare.resourceExtensions")!

    /// The value of ``requestHeader`` that asks for these extensions.
    package var headerValue: String { included.sorted().joined(separator: ",") }

    /// `userInfo` for an encoder that writes these extensions and no others.
    package var userInfo: [CodingUserInfoKey: any Sendable] { [Self.userInfoKey: self] }

    /// Whether `encoder` is to write the extension `name`: every extension unless its
    /// `userInfo` says which.
    static func writes(_ name: String, to encoder: any Encoder) -> Bool {
        let userInfo = encoder.userInfo
        guard !userInfo.isEmpty, let chosen = userInfo[userInfoKey] as? ResourceExtensions else { return true }
        return chosen.included.contains(name)
    }

    /// The answer with these extensions made from the JSON of `vehicle` as stored (every
    /// extension; its row's body, without the route, is enough: the extensions are top-level
    /// members): that JSON itself when it sets no extension left out, else that JSON with
    /// the others' members left out, without encoding the vehicle again; nil when the stored
    /// bytes are not one JSON object.
    package func answer(fromStored json: [UInt8], of vehicle: Vehicle) -> [UInt8]? {
        var setButLeftOut: Set<String> = []
        if vehicle.estimateMethod != nil, !included.contains("estimateMethod") { setButLeftOut.insert("estimateMethod") }
        if vehicle.estimateBasis != nil, !included.contains("estimateBasis") { setButLeftOut.insert("estimateBasis") }
        return setButLeftOut.isEmpty ? json : JSONObjectMembers.removing(setButLeftOut, from: json)
    }
}
