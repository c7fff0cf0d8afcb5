/// Why a style could not be read or applied: the JSON path at fault ("style.markers.
/// tripVehicle.icon") and what was wrong there.
public struct StyleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Dotted path to the offending value, or the style's name when the whole document is at fault.
    public var path: String
    /// What was wrong, in words for the style's author.
    public var message: String

    /// An error at a path.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "path: message".
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
