import JSON

/// A request the model refuses, with the Google API status it maps to and a message that
/// names the field path.
public struct StatusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The Google API error status of the failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Kind: String {
            case invalidArgument, failedPrecondition, notFound, alreadyExists, resourceExhausted, permissionDenied, unauthenticated
            case aborted, unavailable, unimplemented, unknown, `internal`
        }
        fileprivate let kind: Kind

        /// The request is malformed; the message names the field.
        package static let invalidArgument = Code(kind: .invalidArgument)
        /// The request is well-formed but the resource's state forbids it.
        package static let failedPrecondition = Code(kind: .failedPrecondition)
        /// The resource does not exist.
        package static let notFound = Code(kind: .notFound)
        /// A resource with that ID exists already.
        package static let alreadyExists = Code(kind: .alreadyExists)
        /// A quota or size limit was reached.
        package static let resourceExhausted = Code(kind: .resourceExhausted)
        /// The caller may not do this.
        package static let permissionDenied = Code(kind: .permissionDenied)
        /// The caller did not prove who it is.
        package static let unauthenticated = Code(kind: .unauthenticated)
        /// A concurrent change won; retry.
        package static let aborted = Code(kind: .aborted)
        /// The service cannot do this now (storage full or failing); retry later.
        package static let unavailable = Code(kind: .unavailable)
        /// The method is not implemented for the resource (a path that exists, asked with
        /// another HTTP method).
        package static let unimplemented = Code(kind: .unimplemented)
        /// An error with no better code (one from outside the model, such as the HTTP layer's).
        package static let unknown = Code(kind: .unknown)
        /// Something broke on our side.
        @usableFromInline package static let `internal` = Code(kind: .internal)

        /// The Google spelling: `INVALID_ARGUMENT`, `NOT_FOUND`, ...
        package var status: String {
            switch kind {
            case .invalidArgument: return "INVALID_ARGUMENT"
            case .failedPrecondition: return "FAILED_PRECONDITION"
            case .notFound: return "NOT_FOUND"
            case .alreadyExists: return "ALREADY_EXISTS"
            case .resourceExhausted: return "RESOURCE_EXHAUSTED"
            case .permissionDenied: return "PERMISSION_DENIED"
            case .unauthenticated: return "UNAUTHENTICATED"
            case .aborted: return "ABORTED"
            case .unavailable: return "UNAVAILABLE"
            case .unimplemented: return "UNIMPLEMENTED"
            case .unknown: return "UNKNOWN"
            case .internal: return "INTERNAL"
            }
        }

        public var description: String { status }
    }

    /// What kind of failure.
    package var code: Code
    /// What was wrong and where.
    package var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// An invalid argument at a field path: "`path`: `message`".
    package static func invalid(_ path: String, _ message: String) -> StatusError {
        StatusError(.invalidArgument, path.isEmpty ? message : "\(path): \(message)")
    }

    /// A resource that does not exist: "`kind` '`id`' does not exist". Also what a caller
    /// gets for a resource it may not see where saying so would tell it that the resource
    /// exists (a driver asking for another vehicle's trip).
    package static func notFound(_ kind: String, _ id: String) -> StatusError {
        StatusError(.notFound, "\(kind) '\(id)' does not exist")
    }

    /// Turns a refused input (a JSON decoding failure, a style or route error) into an
    /// invalid-argument error naming the field.
    public init(_ error: FieldError) {
        self = .invalid(error.path, error.message)
    }

    public var description: String { "\(code.status): \(message)" }
}
