// Fleet Engine's `filter` on ListVehicles and SearchVehicles: the subset of AIP-160
// (https://google.aip.dev/160) it documents. Only restrictions on attributes,
// `attributes.KEY = "VALUE"`, joined with AND, OR (and AIP-160's implicit AND between
// neighbours) and grouped with parentheses. Values are strings: a number or a boolean must
// be quoted (`attributes.seats = "4"`); a bare word is AIP-160 text and means itself.
//
// Precedence is AIP-160's, not C's: OR binds tighter than AND, so
// `a = "1" AND b = "2" OR c = "3"` means `a = "1" AND (b = "2" OR c = "3")`.
//
//   filter      = [ expression ]
//   expression  = sequence { "AND" sequence }
//   sequence    = factor { factor }
//   factor      = term { "OR" term }
//   term        = "(" expression ")" | restriction
//   restriction = "attributes" "." key "=" value
//
// Errors name the character position (1-based) where the filter went wrong.

/// Parses a `filter` into an ``AttributeCondition``.
package struct AttributeFilterParser {
    /// Restrictions one filter may hold (Fleet Engine's documented maximum).
    package static let maximumRestrictions = 50
    /// Characters a filter may have: 50 restrictions of the longest keys and values fit.
    package static let maximumLength = 60_000
    /// How deep parentheses may nest.
    package static let maximumDepth = 32

    private let text: [Character]
    private let field: String
    private var position = 0
    private var restrictions = 0
    private var depth = 0

    private init(_ filter: String, field: String) {
        text = Array(filter)
        self.field = field
    }

    /// The condition `filter` states, or nil when it is empty (only spaces). `field` names the
    /// request field in errors ("filter").
    package static func parse(_ filter: String, field: String = "filter") throws(StatusError) -> AttributeCondition? {
        if filter.utf8.count > maximumLength {
            throw .invalid(field, "is \(filter.utf8.count) bytes long; at most \(maximumLength) are allowed")
        }
        var parser = AttributeFilterParser(filter, field: field)
        parser.skipSpaces()
        if parser.atEnd { return nil }
        let condition = try parser.expression()
        parser.skipSpaces()
        if !parser.atEnd { throw parser.failure("expected AND, OR or the end of the filter, found \(parser.describeNext())") }
        return condition
    }

    // MARK: Grammar

    private mutating func expression() throws(StatusError) -> AttributeCondition {
        var parts = [try sequence()]
        while keyword("AND") { parts.append(try sequence()) }
        return Self.joined(parts, all: true)
    }

    private mutating func sequence() throws(StatusError) -> AttributeCondition {
        var parts = [try factor()]
        while startsTerm { parts.append(try factor()) }
        return Self.joined(parts, all: true)
    }

    private mutating func factor() throws(StatusError) -> AttributeCondition {
        var parts = [try term()]
        while keyword("OR") { parts.append(try term()) }
        return Self.joined(parts, all: false)
    }

    private mutating func term() throws(StatusError) -> AttributeCondition {
        skipSpaces()
        guard !atEnd else { throw failure("expected a restriction such as attributes.key = \"value\", found the end of the filter") }
        if text[position] == "(" {
            let open = position
            depth += 1
            if depth > Self.maximumDepth { throw failure("parentheses nest deeper than \(Self.maximumDepth) levels") }
            position += 1
            let inner = try expression()
            skipSpaces()
            guard !atEnd, text[position] == ")" else {
                throw failure("expected ')' to close the '(' at position \(open + 1), found \(describeNext())")
            }
            position += 1
            depth -= 1
            return inner
        }
        return try restriction()
    }

    private mutating func restriction() throws(StatusError) -> AttributeCondition {
        skipSpaces()
        let start = position
        if text[position] == "-" || word() == "NOT" {
            throw failure("negation is not supported; a filter may only require attributes to equal values", at: start)
        }
        position = start
        let name = word()
        guard name == "attributes", !atEnd, text[position] == "." else {
            position = start
            throw failure("only restrictions on attributes are supported (attributes.key = \"value\"), found \(describeNext())")
        }
        position += 1
        let key = try attributeKey()
        skipSpaces()
        guard !atEnd else { throw failure("expected '=' after attributes.\(key), found the end of the filter") }
        if text[position] != "=" {
            let found = describeNext()
            if "!<>:~".contains(text[position]) {
                throw failure("only '=' is supported; attributes compare as strings, found \(found)")
            }
            throw failure("expected '=' after attributes.\(key), found \(found)")
        }
        position += 1
        let value = try attributeValue()
        restrictions += 1
        if restrictions > Self.maximumRestrictions {
            throw failure("has more than \(Self.maximumRestrictions) restrictions", at: start)
        }
        return .restriction(AttributeRestriction(key: key, value: value))
    }

    private mutating func attributeKey() throws(StatusError) -> String {
        if !atEnd, text[position] == "`" {
            let quoted = try quoted("`")
            if quoted.isEmpty { throw failure("the attribute key is empty", at: position - 2) }
            return quoted
        }
        let key = bareText()
        if key.isEmpty { throw failure("expected an attribute key after 'attributes.', found \(describeNext())") }
        return key
    }

    private mutating func attributeValue() throws(StatusError) -> String {
        skipSpaces()
        guard !atEnd else { throw failure("expected a quoted value after '=', found the end of the filter") }
        if text[position] == "\"" || text[position] == "'" { return try quoted(text[position]) }
        let start = position
        let value = bareText()
        if value.isEmpty { throw failure("expected a quoted value after '=', found \(describeNext())") }
        if value == "AND" || value == "OR" || value == "NOT" {
            throw failure("expected a value after '=', found the keyword \(value)", at: start)
        }
        if value == "true" || value == "false" || Double(value) != nil {
            throw failure("attributes compare as strings: quote the value (\"\(value)\")", at: start)
        }
        return value
    }

    // MARK: Lexing

    private var atEnd: Bool { position >= text.count }

    private mutating func skipSpaces() {
        while !atEnd, text[position].isWhitespace { position += 1 }
    }

    /// Whether another term follows (AIP-160's implicit AND), without consuming it.
    private var startsTerm: Bool {
        mutating get {
            skipSpaces()
            guard !atEnd else { return false }
            if text[position] == ")" { return false }
            let start = position
            defer { position = start }
            let next = word()
            return next != "AND" && next != "OR"
        }
    }

    /// Consumes `keyword` when it comes next as a whole word.
    private mutating func keyword(_ keyword: String) -> Bool {
        skipSpaces()
        let start = position
        if word() == keyword { return true }
        position = start
        return false
    }

    /// A run of letters, digits and underscores.
    private mutating func word() -> String {
        var result = ""
        while !atEnd, text[position].isLetter || text[position].isNumber || text[position] == "_" {
            result.append(text[position])
            position += 1
        }
        return result
    }

    /// AIP-160 text: everything up to a space or an operator character.
    private mutating func bareText() -> String {
        var result = ""
        while !atEnd, !text[position].isWhitespace, !"()=!<>:~\"'`".contains(text[position]) {
            result.append(text[position])
            position += 1
        }
        return result
    }

    /// A string in `quote`s with backslash escapes (`\"`, `\\`, `\n`, `\t`).
    private mutating func quoted(_ quote: Character) throws(StatusError) -> String {
        let open = position
        position += 1
        var result = ""
        while !atEnd {
            let character = text[position]
            position += 1
            if character == quote { return result }
            if character == "\\" {
                guard !atEnd else { break }
                let escaped = text[position]
                position += 1
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                default: result.append(escaped)
                }
            } else {
                result.append(character)
            }
        }
        throw failure("the string opened at position \(open + 1) is not closed", at: open)
    }

    private func describeNext() -> String {
        guard !atEnd else { return "the end of the filter" }
        let rest = String(text[position...].prefix(20))
        return "'\(rest)'"
    }

    private func failure(_ message: String, at index: Int? = nil) -> StatusError {
        .invalid(field, "at position \(min(index ?? position, text.count) + 1): \(message)")
    }

    private static func joined(_ parts: [AttributeCondition], all: Bool) -> AttributeCondition {
        if parts.count == 1 { return parts[0] }
        return all ? .all(parts) : .any(parts)
    }
}
