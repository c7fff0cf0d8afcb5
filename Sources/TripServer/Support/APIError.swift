import Foundation
import HTTPTypes
import Hummingbird
import TripModel

/// An error as the API returns it, in the Google API error model:
/// `{"error": {"code": 404, "message": "...", "status": "NOT_FOUND"}}`.
public struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The Google status string (`INVALID_ARGUMENT`, ...).
    public var googleStatus: String
    /// What went wrong, naming the field path where one is at fault.
    public var message: String

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ googleStatus: String, _ message: String) {
        self.status = status
        self.googleStatus = googleStatus
        self.message = message
    }

    /// 400 INVALID_ARGUMENT.
    public static func invalid(_ message: String) -> APIError { APIError(.badRequest, "INVALID_ARGUMENT", message) }
    /// 401 UNAUTHENTICATED.
    public static func unauthenticated(_ message: String) -> APIError { APIError(.unauthorized, "UNAUTHENTICATED", message) }
    /// 403 PERMISSION_DENIED.
    public static func denied(_ message: String) -> APIError { APIError(.forbidden, "PERMISSION_DENIED", message) }
    /// 404 NOT_FOUND.
    public static func notFound(_ message: String) -> APIError { APIError(.notFound, "NOT_FOUND", message) }

    /// The API form of a model error.
    public init(_ error: FleetError) {
        let status: HTTPResponse.Status
        switch error.code {
        case .invalidArgument, .failedPrecondition: status = .badRequest
        case .notFound: status = .notFound
        case .alreadyExists: status = .conflict
        case .resourceExhausted: status = .tooManyRequests
        case .permissionDenied: status = .forbidden
        case .aborted: status = .conflict
        default: status = .internalServerError
        }
        self.init(status, error.code.status, error.message)
    }

    /// Wraps any error: API and model errors keep their meaning, anything else is INTERNAL
    /// with a message that leaks nothing.
    public static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as FleetError: return APIError(error)
        case let error as HTTPError:
            return APIError(error.status, error.status == .contentTooLarge ? "INVALID_ARGUMENT" : "UNKNOWN", error.body ?? error.status.reasonPhrase)
        default: return APIError(.internalServerError, "INTERNAL", "internal error")
        }
    }

    public var description: String { "\(status.code) \(googleStatus): \(message)" }

    private struct Body: Encodable {
        struct Inner: Encodable {
            var code: Int
            var message: String
            var status: String
        }
        var error: Inner
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(error: .init(code: status.code, message: message, status: googleStatus))
        let data = (try? FleetJSON.encode(body)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
