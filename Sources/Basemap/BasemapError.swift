// The one error type Basemap throws: a code to match on and a message for people that names
// the file, tile, layer or property at fault and what is wrong with it.

/// A failure in Basemap: opening or reading a tile archive, decoding a tile, or reading a style.
public struct BasemapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable, so callers can match on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The code's name, e.g. "corruptTile".
        public var description: String { name }

        /// A file could not be opened or read.
        package static let io = Code(name: "io")
        /// The file is not a tile archive (neither PMTiles v3 nor MBTiles).
        package static let notATileArchive = Code(name: "notATileArchive")
        /// The file is a tile archive, but its structure is damaged (directories, tables, metadata).
        package static let corruptArchive = Code(name: "corruptArchive")
        /// The archive uses something this reader does not support (a compression, a tile type).
        package static let unsupported = Code(name: "unsupported")
        /// A compressed stream is invalid, truncated, or inflates past its bound.
        package static let corruptCompression = Code(name: "corruptCompression")
        /// A vector tile breaks the MVT 2.x specification.
        package static let corruptTile = Code(name: "corruptTile")
        /// A map style cannot be used: invalid JSON, a wrong type in a property it draws, an
        /// unknown expression.
        package static let invalidStyle = Code(name: "invalidStyle")
    }

    /// The kind of failure.
    package var code: Code
    /// What went wrong, for people.
    package var message: String

    /// An error with a code and a message.
    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// "code: message".
    public var description: String { "\(code): \(message)" }
}
