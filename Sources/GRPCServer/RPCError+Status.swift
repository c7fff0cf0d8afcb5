import Access
import GRPCCore
import JSON
import Logging
import TripModel

extension RPCError {
    /// The gRPC status of a model or access error, with REST's message (DESIGN §14): Google's
    /// error model has one code per HTTP status REST answers, so the official clients raise
    /// their own exception classes (`NotFound`, `AlreadyExists`, ...).
    init(_ error: StatusError) {
        self.init(code: Self.code(of: error.code), message: error.message)
    }

    /// The gRPC code of a Google status.
    static func code(of code: StatusError.Code) -> RPCError.Code {
        switch code {
        case .invalidArgument: .invalidArgument
        case .failedPrecondition: .failedPrecondition
        case .notFound: .notFound
        case .alreadyExists: .alreadyExists
        case .resourceExhausted: .resourceExhausted
        case .permissionDenied: .permissionDenied
        case .unauthenticated: .unauthenticated
        case .aborted: .aborted
        case .unavailable: .unavailable
        case .unknown: .unknown
        default: .internalError
        }
    }

    /// Any error a call ends with, as the status the client gets: our own errors keep their
    /// code and message, a refusal over the rate limit says when to retry (`retry-after`, in
    /// whole seconds, as REST's header), and anything else is INTERNAL with a message that
    /// leaks nothing, logged.
    static func from(_ error: any Error, logger: Logger) -> RPCError {
        switch error {
        case let error as RPCError: return error
        case let error as StatusError: return RPCError(error)
        case let error as AccessDenied:
            var metadata: Metadata = [:]
            if let wait = error.retryAfterSeconds { metadata.addString(String(wait), forKey: "retry-after") }
            return RPCError(code: code(of: error.code), message: error.message, metadata: metadata)
        case let error as FieldError: return RPCError(StatusError(error))
        default:
            logger.error("call failed", metadata: ["error": "\(String(reflecting: error))"])
            return RPCError(code: .internalError, message: "internal error")
        }
    }
}
