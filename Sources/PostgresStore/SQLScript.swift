import Foundation

/// Splits a migration file into its statements: the extended query protocol runs one at a
/// time. Semicolons inside quotes, dollar-quoted bodies and comments do not split.
enum SQLScript {
    static func statements(_ script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var characters = Array(script)[...]
        var quote: Character?
        var dollarTag: String?
        while let character = characters.popFirst() {
            if let tag = dollarTag {
                current.append(character)
                if current.hasSuffix(tag) { dollarTag = nil }
                continue
            }
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "-" where characters.first == "-":
                while let skipped = characters.popFirst(), skipped != "\n" {}
                current.append("\n")
            case "'", "\"":
                quote = character
                current.append(character)
            case "$":
                let rest = characters.prefix { $0 != "$" && ($0.isLetter || $0.isNumber || $0 == "_") }
                if characters.dropFirst(rest.count).first == "$" {
                    let tag = "$" + String(rest) + "$"
                    characters = characters.dropFirst(rest.count + 1)
                    current += tag
                    dollarTag = tag
                } else {
                    current.append(character)
                }
            case ";":
                let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { statements.append(statement) }
                current = ""
            default:
                current.append(character)
            }
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { statements.append(last) }
        return statements
    }
}
