import Access
import Foundation
import Hummingbird
import JSON
import TripModel

extension Request {
    /// The body, at most `context.maxUploadSize` bytes (else a 400 that says the bound).
    func bodyBytes(context: TripRequestContext) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: context.maxUploadSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.invalid("the request body is larger than \(context.maxUploadSize) bytes")
        }
    }

    /// Decodes the body strictly as `T`; `root` names it in error paths ("vehicle").
    func decodeBody<T: Decodable>(_ type: T.Type, root: String, context: TripRequestContext) async throws -> T {
        let buffer = try await bodyBytes(context: context)
        if buffer.readableBytes == 0 { throw APIError.invalid("\(root): the request body is empty; send a JSON object") }
        do {
            return try StrictJSONDecoder().decode(type, from: buffer.readableBytesView, root: root)
        } catch {
            throw APIError(StatusError(error))
        }
    }

    /// A query parameter, percent-decoded.
    func query(_ name: String) -> String? {
        uri.queryParameters.get(name)
    }

    /// A required query parameter.
    func requiredQuery(_ name: String) throws(APIError) -> String {
        guard let value = query(name), !value.isEmpty else { throw .invalid("query parameter '\(name)' is required") }
        return value
    }

    /// An integer query parameter within `range`, or nil when absent.
    func integerQuery(_ name: String, _ range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = query(name), !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalid("\(name): '\(text.prefix(32))' is not an integer in [\(range.lowerBound), \(range.upperBound)]")
        }
        return value
    }
}

extension TripRequestContext {
    /// A path parameter, percent-decoded.
    func pathParameter(_ name: String) throws(APIError) -> String {
        guard let raw = parameters.get(name) else { throw .invalid("missing path parameter '\(name)'") }
        // Foundation's percent decoding is costly on every request; IDs rarely need it.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }

    /// The authenticated caller (the auth middleware guarantees it on /v1 routes).
    func caller() throws(APIError) -> Principal {
        guard let principal else { throw .unauthenticated("authentication required") }
        return principal
    }
}

/// Responses with JSON bodies.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try JSONCoding.encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func bytes(_ json: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    static func empty() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
    }
}
