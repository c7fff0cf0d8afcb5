// The one error type Raster throws: a code to match on and a message for people. libpng and
// FreeType failures arrive here from the C shim and FreeType error codes.

/// A failure in Raster: decoding or encoding PNG, loading a font, or an invalid argument.
public struct RasterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases, so callers can match on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The code's name, e.g. "truncated".
        public var description: String { name }

        /// The data is not a PNG file (the signature is missing).
        package static let notPNG = Code(name: "notPNG")
        /// The PNG ended before the image did.
        package static let truncated = Code(name: "truncated")
        /// The PNG's dimensions exceed the decoder's limits.
        package static let tooLarge = Code(name: "tooLarge")
        /// libpng rejected the data (bad CRC, bad chunk, corrupt compressed data, ...).
        package static let corruptPNG = Code(name: "corruptPNG")
        /// Encoding a PNG failed.
        package static let encodeFailed = Code(name: "encodeFailed")
        /// FreeType could not load or use a font.
        public static let font = Code(name: "font")
        /// A caller passed something unusable (sizes, buffers).
        package static let invalidArgument = Code(name: "invalidArgument")
        /// Memory ran out.
        package static let outOfMemory = Code(name: "outOfMemory")
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
