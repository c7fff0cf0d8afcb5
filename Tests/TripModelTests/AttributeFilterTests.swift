import Geo
import Testing
import TripModel

/// Fleet Engine's `filter` (AIP-160 on attributes) and the `required*Attribute*` fields.
@Suite struct AttributeFilterTests {
    private func parse(_ filter: String) throws -> AttributeCondition? { try AttributeFilterParser.parse(filter) }

    private func r(_ key: String, _ value: String) -> AttributeCondition { .restriction(AttributeRestriction(key: key, value: value)) }

    /// Restrictions joined by AND and OR, with AIP-160's precedence: OR binds tighter.
    @Test func grammar() throws {
        #expect(try parse("") == nil)
        #expect(try parse("   ") == nil)
        #expect(try parse(#"attributes.color = "black""#) == r("color", "black"))
        #expect(
            try parse(#"attributes.a = "1" AND attributes.b = "2" OR attributes.c = "3""#) == .all([r("a", "1"), .any([r("b", "2"), r("c", "3")])]))
        #expect(
            try parse(#"(attributes.a = "1" AND attributes.b = "2") OR attributes.c = "3""#)
                == .any([.all([r("a", "1"), r("b", "2")]), r("c", "3")]))
        #expect(try parse(#"attributes.a = "1" attributes.b = "2""#) == .all([r("a", "1"), r("b", "2")]), "juxtaposition is AND")
        #expect(try parse(#"attributes.a="1"AND attributes.b='two words'"#) == .all([r("a", "1"), r("b", "two words")]))
        #expect(try parse(#"attributes.tier = gold"#) == r("tier", "gold"), "a bare word is text")
        #expect(try parse(#"attributes.`a key=x` = "say \"hi\"""#) == r("a key=x", #"say "hi""#))
        #expect(try parse(#"attributes.a.b = "1""#) == r("a.b", "1"))
    }

    /// Syntax errors are INVALID_ARGUMENT naming the field and the position.
    @Test func errorsNameThePosition() throws {
        func failure(_ filter: String) -> String? {
            do {
                _ = try parse(filter)
                return nil
            } catch let error as StatusError {
                #expect(error.code == .invalidArgument)
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(#"attributes.seats = 4"#) == #"filter: at position 20: attributes compare as strings: quote the value ("4")"#)
        #expect(failure(#"attributes.pet = true"#) == #"filter: at position 18: attributes compare as strings: quote the value ("true")"#)
        #expect(
            failure(#"attributes.seats > "4""#) == #"filter: at position 18: only '=' is supported; attributes compare as strings, found '> "4"'"#)
        #expect(failure(#"vehicleState = "ONLINE""#)?.hasPrefix("filter: at position 1: only restrictions on attributes") == true)
        #expect(
            failure(#"attributes.a = "1" AND"#)
                == #"filter: at position 23: expected a restriction such as attributes.key = "value", found the end of the filter"#)
        #expect(
            failure(#"(attributes.a = "1""#) == "filter: at position 20: expected ')' to close the '(' at position 1, found the end of the filter")
        #expect(failure(#"attributes.a = "1"#) == "filter: at position 16: the string opened at position 16 is not closed")
        #expect(failure(#"NOT attributes.a = "1""#)?.hasPrefix("filter: at position 1: negation is not supported") == true)
        #expect(failure(#"attributes.a = "1")"#)?.hasPrefix("filter: at position 19: expected AND, OR or the end") == true)
        #expect(failure(#"attributes. = "1""#)?.hasPrefix("filter: at position 12: expected an attribute key") == true)
        #expect(
            failure(String(repeating: "(", count: 40) + #"attributes.a = "1""# + String(repeating: ")", count: 40))?.contains("nest deeper") == true)
    }

    /// At most 50 restrictions.
    @Test func restrictionLimit() throws {
        let fifty = (0..<50).map { #"attributes.k\#($0) = "v""# }.joined(separator: " OR ")
        #expect(try parse(fifty)?.restrictions.count == 50)
        #expect(throws: StatusError.invalid("filter", "at position 1191: has more than 50 restrictions")) {
            try parse(fifty + #" OR attributes.k50 = "v""#)
        }
    }

    /// Attributes compare as text: booleans as true/false, whole numbers without a fraction.
    @Test func attributeText() {
        var number = Attribute(key: "seats", stringValue: "")
        number.stringValue = nil
        number.numberValue = 6
        var fraction = number
        fraction.numberValue = 2.5
        var flag = Attribute(key: "pet", stringValue: "")
        flag.stringValue = nil
        flag.boolValue = true
        #expect([number.filterText, fraction.filterText, flag.filterText] == ["6", "2.5", "true"])
        let condition = AttributeCondition.all([r("seats", "6"), r("pet", "true")])
        #expect(condition.matches([number, flag]))
        #expect(!condition.matches([fraction, flag]))
    }

    /// A restriction appears in a vehicle's index text exactly when it holds, whatever
    /// characters keys and values carry.
    @Test func indexText() {
        let attributes = [Attribute(key: "a=b", stringValue: "c%d"), Attribute(key: "x", stringValue: "1\u{1F}y=2")]
        let text = AttributeCondition.indexText(of: attributes)
        for (key, value, holds) in [("a=b", "c%d", true), ("a", "b=c%d", false), ("x", "1\u{1F}y=2", true), ("y", "2", false), ("x", "1", false)] {
            #expect(text.contains(AttributeRestriction(key: key, value: value).indexNeedle) == holds, "\(key)=\(value)")
        }
    }

    /// ListVehicles: categories are required, the filter excludes the required* fields, and
    /// those combine as Fleet Engine documents.
    @Test func listQueryRules() throws {
        #expect(throws: StatusError.invalid("vehicleTypeCategories", "required field is missing; name at least one category")) {
            try VehicleListQuery(vehicleTypeCategories: []).criteria(now: t0)
        }
        var query = VehicleListQuery(vehicleTypeCategories: [.auto])
        query.filter = #"attributes.a = "1""#
        query.requiredAttributes = ["b:2"]
        #expect(throws: StatusError.self) { try query.criteria(now: t0) }
        query.filter = "  "
        query.requiredOneOfAttributes = ["c:3|d:4:5"]
        query.requiredOneOfAttributeSets = ["e:5|f:6", "g:7"]
        #expect(
            try query.criteria(now: t0).attributes
                == .all([r("b", "2"), .any([r("c", "3"), r("d", "4:5")]), .any([.all([r("e", "5"), r("f", "6")]), .all([r("g", "7")])])]))
        query.requiredAttributes = ["nocolon"]
        #expect(throws: StatusError.invalid("requiredAttributes[0]", "'nocolon' is not of the form key:value")) { try query.criteria(now: t0) }
        query.requiredAttributes = []
        query.maximumStaleness = ProtoDuration(seconds: 0)
        #expect(throws: StatusError.invalid("maximumStaleness", "must be a positive duration, got 0s")) { try query.criteria(now: t0) }
        query.maximumStaleness = nil
        query.viewport = Viewport(low: LatLng(latitude: 38, longitude: 0), high: LatLng(latitude: 37, longitude: 1))
        #expect(throws: StatusError.self) { try query.criteria(now: t0) }
    }

    /// A viewport whose low longitude is east of its high one crosses the 180th meridian.
    @Test func viewports() {
        let pacific = Viewport(low: LatLng(latitude: -10, longitude: 170), high: LatLng(latitude: 10, longitude: -170))
        #expect(pacific.contains(LatLng(latitude: 0, longitude: 179)) && pacific.contains(LatLng(latitude: 0, longitude: -175)))
        #expect(!pacific.contains(LatLng(latitude: 0, longitude: 0)))
        let around = Viewport(around: LatLng(latitude: 0, longitude: 179.99), meters: 5_000)
        #expect(around.crossesAntimeridian && around.contains(LatLng(latitude: 0, longitude: -179.99)))
    }
}
