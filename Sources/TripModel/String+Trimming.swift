extension StringProtocol {
    /// The text without leading and trailing spaces and tabs. Hand-written because
    /// Foundation's `trimmingCharacters(in:)` bridges through NSString on Linux, which
    /// showed up in the profile of every request that parses a header or a mask.
    package var trimmingSpaces: SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start {
            let before = index(before: end)
            guard self[before] == " " || self[before] == "\t" else { break }
            end = before
        }
        return self[start..<end]
    }
}
