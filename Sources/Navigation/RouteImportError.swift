// Why a router response could not be turned into a route.

/// A router response that could not be imported, and why.
public struct RouteImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, naming the JSON path where it helps.
    package var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
