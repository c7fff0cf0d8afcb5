import NIOHTTP1

extension HTTPParserError {
    /// What was wrong with the request, in words, for the 400 that answers it.
    var reason: String {
        switch self {
        case .headerOverflow: "its head (the request line and headers) is larger than this server accepts"
        case .invalidHeaderToken: "a header contains a character not allowed in headers"
        case .invalidURL: "its URI is not valid"
        case .invalidChunkSize: "its chunked body has a chunk size line that is not a hexadecimal size"
        case .strictModeAssertion, .lfExpected: "its chunked body or head has a line that does not end in CRLF where one must"
        case .invalidEOFState, .closedConnection: "the connection ended before the request did"
        case .invalidContentLength, .unexpectedContentLength: "its Content-Length is not valid, or comes with Transfer-Encoding"
        default: debugDescription
        }
    }

    /// The 400 message for a request the HTTP layer could not read.
    var message: String { "the request is not valid HTTP/1.1: \(reason); the connection is closed" }
}
