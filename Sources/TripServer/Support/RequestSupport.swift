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
        let limits = context.limits.json
        guard buffer.readableBytes >= BodyDecodingExecutor.minimumBytes else {
            return try Self.decode(type, from: buffer, root: root, limits: limits)
        }
        return try await withTaskExecutorPreference(BodyDecodingExecutor.shared) {
            try Self.decode(type, from: buffer, root: root, limits: limits)
        }
    }

    /// Decodes `buffer` strictly as `T` within `limits`: INVALID_ARGUMENT naming the field, or
    /// the byte where the JSON is malformed or beyond the limits.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer, root: String, limits: JSONParser.Limits) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(buffer.readableBytesView, limits: limits)
        } catch {
            throw APIError(StatusError(JSONInputError(path: root, message: error.description)))
        }
        do {
            return try StrictJSONDecoder().decode(type, from: value, root: root)
        } catch {
            throw APIError(StatusError(error))
        }
    }

    /// A query parameter, percent-decoded, by its lowerCamel name or its proto field name
    /// (`updateMask`, `update_mask`).
    func query(_ name: String) -> String? {
        guard let text = uri.query else { return nil }
        let mayBeSnakeCase = Self.namesHaveUnderscore(text)
        // A name that cannot be in the text is not looked for: routes ask for up to six
        // parameters, most absent, and parsing the query for each cost a GET trip 4%. Only the
        // names count (`view=JOURNEY_SHARING_V1S` has no proto field name in it).
        guard mayBeSnakeCase || text.utf8.contains(UInt8(ascii: "%")) || Self.bytes(of: text, contain: name) else { return nil }
        let parameters = uri.queryParameters
        if let value = parameters.get(name) { return value }
        guard mayBeSnakeCase else { return nil }
        return parameters.first { ProtoJSONNames.jsonName(String($0.key)) == name }.map { String($0.value) }
    }

    /// Whether `text` contains `name`, compared as bytes: `String.contains` is Foundation's
    /// here, through NSString, and the standard library's generic `firstRange(of:)` was no
    /// faster; either cost a location update about 5 µs (issue 31).
    private static func bytes(of text: String, contain name: String) -> Bool {
        var text = text
        var name = name
        return text.withUTF8 { text in
            name.withUTF8 { name in
                guard let first = name.first else { return true }
                guard name.count <= text.count else { return false }
                for start in 0...(text.count - name.count) where text[start] == first {
                    if UnsafeBufferPointer(rebasing: text[start..<(start + name.count)]).elementsEqual(name) { return true }
                }
                return false
            }
        }
    }

    /// Whether a parameter name in `query` (the text before each `=`) has an underscore, so
    /// that a name may be spelt as its proto field.
    private static func namesHaveUnderscore(_ query: String) -> Bool {
        var inName = true
        for byte in query.utf8 {
            switch byte {
            case UInt8(ascii: "&"): inName = true
            case UInt8(ascii: "="): inName = false
            case UInt8(ascii: "_") where inName: return true
            default: break
            }
        }
        return false
    }

    /// An enum query parameter by name or number (`view=SDK`, `view=1`); nil when absent or
    /// the enum's zero value.
    func enumQuery<E: WireEnum>(_ name: String, _ type: E.Type) throws(APIError) -> E? {
        guard let text = query(name), !text.isEmpty, text != E.unsetName, text != "0" else { return nil }
        guard let value = E(rawValue: text) ?? Int(text).flatMap(E.init(number:)) else {
            let accepted = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalid("\(name): unknown value '\(text.prefix(40))'; expected one of \(accepted)")
        }
        return value
    }

    /// An RFC 3339 timestamp query parameter; nil when absent.
    func timestampQuery(_ name: String) throws(APIError) -> Timestamp? {
        guard let text = query(name), !text.isEmpty else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            throw .invalid("\(name): '\(text.prefix(40))' is not an RFC 3339 timestamp such as 2025-02-05T17:02:31.483Z")
        }
        return time
    }

    /// Decodes the body of a request whose body is the whole request message (Fleet Engine's
    /// `body: "*"`): its `header`, if any, is checked and counted, the rest decoded as `T`.
    func decodeRequestBody<T: Decodable>(_ type: T.Type, context: TripRequestContext, metrics: RequestMetrics) async throws -> T {
        let buffer = try await bodyBytes(context: context)
        if buffer.readableBytes == 0 { throw APIError.invalid("the request body is empty; send a JSON object") }
        let limits = context.limits.json
        guard buffer.readableBytes >= BodyDecodingExecutor.minimumBytes else {
            return try Self.decodeRequest(type, from: buffer, limits: limits, metrics: metrics)
        }
        return try await withTaskExecutorPreference(BodyDecodingExecutor.shared) {
            try Self.decodeRequest(type, from: buffer, limits: limits, metrics: metrics)
        }
    }

    /// ``decodeRequestBody(_:context:metrics:)``'s work on the collected body.
    private static func decodeRequest<T: Decodable>(
        _ type: T.Type, from buffer: ByteBuffer, limits: JSONParser.Limits, metrics: RequestMetrics
    ) throws -> T {
        do {
            var value = try JSONParser.parse(buffer.readableBytesView, limits: limits)
            if case .object(var members) = value, let i = members.firstIndex(where: { $0.key == "header" }) {
                let header = try StrictJSONDecoder().decode(RequestHeader.self, from: members[i].value, root: "header")
                try header.validate(path: "header")
                metrics.recordRequestHeader(header)
                members.remove(at: i)
                value = .object(members)
            }
            return try StrictJSONDecoder().decode(type, from: value, root: "")
        } catch let error as JSONParser.SyntaxError {
            throw APIError.invalid(error.description)
        } catch let error as JSONInputError {
            throw APIError(StatusError(error))
        }
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
    /// `value`'s JSON with the chosen tripshare `extensions` (by default none: pure Fleet Engine).
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], extensions: ResourceExtensions = .none
    ) throws -> Response {
        let data = try JSONCoding.encode(value, userInfo: extensions.userInfo)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func bytes(_ json: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    /// `answer` written straight into the response's buffer: a location update's answer is
    /// some 80 KB at 20,000 points, and copying it there from an array of its own cost more
    /// than writing it (issue 30).
    static func written(_ answer: JSONObjectInsertions, status: HTTPResponse.Status = .ok) -> Response {
        var output = ByteBufferOutput(buffer: ByteBuffer())
        output.buffer.reserveCapacity(answer.estimatedCount)
        answer.write(into: &output)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: output.buffer))
    }

    /// A response buffer as somewhere JSON text is written.
    private struct ByteBufferOutput: JSONTextOutput {
        var buffer: ByteBuffer

        mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { buffer.writeBytes(UnsafeRawBufferPointer(bytes)) }
        mutating func append(_ byte: UInt8) { buffer.writeInteger(byte) }
    }

    static func empty() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
    }
}
