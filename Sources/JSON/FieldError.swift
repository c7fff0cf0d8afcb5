/// Why an input was refused: the path of the field at fault and what was wrong there. The one
/// error shape of the project's parsers and validators (JSON input, style documents, routes
/// with steps); each module names it for its domain (`JSONInputError`, Styling's `StyleError`,
/// Navigation's `NavRouteError`), and ``StatusError/init(_:)`` turns any of them into an
/// INVALID_ARGUMENT that names the field.
public struct FieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Dotted path to the offending value, with `[i]` for array elements; the document's
    /// name (or empty) when the whole document is at fault.
    public var path: String
    /// What was wrong, in words for the input's author.
    package var message: String

    /// An error at a path.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "path: message".
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
