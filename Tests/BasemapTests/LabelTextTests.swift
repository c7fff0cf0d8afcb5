import Testing

@testable import Basemap

/// The text a symbol layer draws: trimmed of outer white space (any kind), then transformed.
@Suite struct LabelTextTests {
    @Test(arguments: [
        ("Market Street", "none", "Market Street"),
        ("  Market Street\n", "none", "Market Street"),
        ("\u{00A0}Mannerheimintie\u{3000}", "none", "Mannerheimintie"),
        ("\tÄijälänkatu", "uppercase", "ÄIJÄLÄNKATU"),
        ("Øresund", "lowercase", "øresund"),
        ("42", "none", "42"),
        ("(Pier 39)", "none", "(Pier 39)"),
        ("中央通り ", "none", "中央通り"),
        (" \n ", "none", ""),
        ("", "uppercase", ""),
    ])
    func textIsTrimmedThenTransformed(_ input: String, _ transform: String, _ expected: String) {
        #expect(MapPainter.transformText(input, transform) == expected)
    }
}
