import TripModel

/// A call that Access refuses, the same on both wires: a token that does not prove who calls
/// (UNAUTHENTICATED: 401 on REST), a caller whose role or provider may not do this
/// (PERMISSION_DENIED: 403), a resource it may not see answered as one that does not exist
/// (NOT_FOUND: 404), or a token over its rate (RESOURCE_EXHAUSTED: 429, with when to retry).
/// Each says what was wrong and never whether another provider's resource exists.
package struct AccessDenied: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Google status.
    package var code: StatusError.Code
    /// What was wrong, for the caller.
    package var message: String
    /// Whole seconds until a rate-limited token may call again; nil for other refusals.
    package var retryAfterSeconds: Int?

    /// A token that does not prove who calls.
    package static func unauthenticated(_ message: String) -> AccessDenied {
        AccessDenied(code: .unauthenticated, message: message)
    }

    /// A caller that may not do this.
    package static func denied(_ message: String) -> AccessDenied {
        AccessDenied(code: .permissionDenied, message: message)
    }

    /// A token over its rate, which may call again after `seconds` (rounded up, at least 1).
    package static func rateLimited(retryAfter seconds: Double) -> AccessDenied {
        let wait = max(1, Int(seconds.rounded(.up)))
        return AccessDenied(
            code: .resourceExhausted, message: "this token is making requests faster than this server allows; retry after \(wait) s",
            retryAfterSeconds: wait)
    }

    package var description: String { "\(code.status): \(message)" }
}

extension AccessDenied {
    /// A resource the caller may not see, refused as the store refuses one that does not exist.
    package init(_ missing: StatusError) {
        self.init(code: missing.code, message: missing.message)
    }
}
