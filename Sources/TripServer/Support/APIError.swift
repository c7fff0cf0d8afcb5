import Access
import Foundation
import HTTPTypes
import Hummingbird
import JSON
import NIOHTTP1
import TripModel

/// An error as the API returns it, in the Google API error model:
/// `{"error": {"code": 404, "message": "...", "status": "NOT_FOUND"}}`.
package struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status.
    package var status: HTTPResponse.Status
    /// The Google status (`INVALID_ARGUMENT`, ...).
    package var code: StatusError.Code
    /// What went wrong, naming the field path where one is at fault.
    package var message: String
    /// Extra response headers (`Retry-After` on a 429).
    package var headers: HTTPFields = [:]

    /// An error with `code`'s HTTP status, or `status` where the HTTP layer decided it.
    package init(_ code: StatusError.Code, _ message: String, status: HTTPResponse.Status? = nil) {
        self.code = code
        self.message = message
        self.status = status ?? Self.httpStatus(of: code)
    }

    /// 400 INVALID_ARGUMENT.
    package static func invalid(_ message: String) -> APIError { APIError(.invalidArgument, message) }
    /// 401 UNAUTHENTICATED.
    package static func unauthenticated(_ message: String) -> APIError { APIError(.unauthenticated, message) }
    /// 403 PERMISSION_DENIED.
    package static func denied(_ message: String) -> APIError { APIError(.permissionDenied, message) }
    /// 404 NOT_FOUND.
    package static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    /// The API form of an access refusal: 401, 403, or 429 with `Retry-After` in whole seconds.
    package init(_ denied: AccessDenied) {
        self.init(denied.code, denied.message)
        if let wait = denied.retryAfterSeconds { headers[.retryAfter] = String(wait) }
    }

    /// The API form of a model error.
    package init(_ error: StatusError) {
        self.init(error.code, error.message)
    }

    /// The HTTP status Google's APIs answer a code with.
    static func httpStatus(of code: StatusError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidArgument, .failedPrecondition: .badRequest
        case .unauthenticated: .unauthorized
        case .permissionDenied: .forbidden
        case .notFound: .notFound
        case .alreadyExists, .aborted: .conflict
        case .resourceExhausted: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .unimplemented: .notImplemented
        default: .internalServerError
        }
    }

    /// Wraps any error: API and model errors keep their meaning, anything else is INTERNAL
    /// with a message that leaks nothing.
    package static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as StatusError: return APIError(error)
        case let error as AccessDenied: return APIError(error)
        case let error as HTTPError:
            return APIError(code(ofHTTP: error.status), error.body ?? error.status.reasonPhrase, status: error.status)
        // A body the HTTP layer could not read (a bad chunk), met while the handler read it.
        case let error as HTTPParserError: return APIError(.invalidArgument, error.message)
        default: return APIError(.internal, "internal error")
        }
    }

    /// The Google status of an error the HTTP layer raised with only an HTTP status.
    static func code(ofHTTP status: HTTPResponse.Status) -> StatusError.Code {
        switch status {
        case .contentTooLarge, .badRequest: .invalidArgument
        case .notFound: .notFound
        case .methodNotAllowed: .unimplemented
        case .unauthorized: .unauthenticated
        case .forbidden: .permissionDenied
        case .tooManyRequests: .resourceExhausted
        case .serviceUnavailable: .unavailable
        default: .unknown
        }
    }

    package var description: String { "\(status.code) \(code.status): \(message)" }

    private struct Body: Encodable {
        struct Inner: Encodable {
            var code: Int
            var message: String
            var status: String
        }
        var error: Inner
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(error: .init(code: status.code, message: message, status: code.status))
        let data = (try? JSONCoding.encode(body)) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
