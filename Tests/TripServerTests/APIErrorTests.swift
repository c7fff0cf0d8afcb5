import Hummingbird
import Testing
import TripModel

@testable import TripServer

@Suite struct APIErrorTests {
    /// Every model error code answers with the HTTP status Google's APIs use for it, and the
    /// body names the code.
    @Test func codesMapToGoogleStatuses() {
        let expected: [(StatusError.Code, Int)] = [
            (.invalidArgument, 400), (.failedPrecondition, 400), (.unauthenticated, 401), (.permissionDenied, 403),
            (.notFound, 404), (.alreadyExists, 409), (.aborted, 409), (.resourceExhausted, 429), (.unknown, 500),
            (.internal, 500), (.unavailable, 503),
        ]
        for (code, status) in expected {
            let error = APIError.from(StatusError(code, "m"))
            #expect(error.status.code == status && error.code == code, "\(code)")
            #expect(error.description == "\(status) \(code.status): m")
        }
    }

    /// An error of the HTTP layer keeps its status; a body too large is the caller's
    /// INVALID_ARGUMENT; anything else is an INTERNAL that says nothing of itself.
    @Test func foreignErrors() {
        let tooLarge = APIError.from(HTTPError(.contentTooLarge))
        #expect(tooLarge.status == .contentTooLarge && tooLarge.code == .invalidArgument)
        let method = APIError.from(HTTPError(.methodNotAllowed))
        #expect(method.status == .methodNotAllowed && method.code == .unknown)
        struct Secret: Error {}
        let hidden = APIError.from(Secret())
        #expect(hidden.status == .internalServerError && hidden.code == .internal && hidden.message == "internal error")
    }
}
