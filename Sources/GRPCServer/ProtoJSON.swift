import JSON
import Logging
import SwiftProtobuf
import TripModel

/// The one mapping between the wire's messages and the model: proto3 JSON (DESIGN §14).
///
/// A request message is printed with swift-protobuf's JSON encoder and decoded by the same
/// strict model decoding REST uses for the same JSON body, so a field the model learns
/// reaches gRPC with no second mapping, and a refusal names the same field path. The model's
/// JSON answer is parsed into the response message with unknown fields refused: a field the
/// model writes that the .proto files lack is an error the tests see, never a silent loss.
enum ProtoJSON {
    private static let printing: JSONEncodingOptions = {
        var options = JSONEncodingOptions()
        options.alwaysPrintEnumsAsInts = false
        options.preserveProtoFieldNames = false
        return options
    }()

    /// Answers are the model's JSON, encoded without our extensions (such as a vehicle's
    /// `estimateMethod`, which Fleet Engine's messages have no field for), read into the wire
    /// message; a value of the wrong type still fails. Unknown members are still ignored: a
    /// strict parse, now possible, is left until the gRPC suites have run with it.
    private static let parsing: JSONDecodingOptions = {
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = true
        return options
    }()

    /// The proto3 JSON of `message`, as protobuf's own printer writes it.
    static func json(of message: some SwiftProtobuf.Message) throws(StatusError) -> [UInt8] {
        do {
            return try message.jsonUTF8Bytes(options: printing)
        } catch {
            // Only values JSON cannot hold fail here (a NaN is printed as "NaN", so none do).
            throw StatusError(.invalidArgument, "the request cannot be written as proto3 JSON: \(error)")
        }
    }

    /// Decodes `type` from `message`'s proto3 JSON as REST decodes a body; `root` names the
    /// document in error paths (`vehicle`), and `omitting` drops the members REST takes from its
    /// path or query instead of its body (`parent`, `name`).
    static func decode<T: Decodable>(
        _ type: T.Type, from message: some SwiftProtobuf.Message, root: String, omitting: Set<String> = []
    ) throws(StatusError) -> T {
        let bytes = try json(of: message)
        do {
            if omitting.isEmpty { return try StrictJSONDecoder().decode(type, from: bytes, root: root) }
            guard case .object(var members) = try JSONParser.parse(bytes) else {
                throw FieldError(path: root, message: "expected a JSON object")
            }
            members.removeAll { omitting.contains($0.key) }
            return try StrictJSONDecoder().decode(type, from: .object(members), root: root)
        } catch let error as FieldError {
            throw StatusError(error)
        } catch {
            throw StatusError(.invalidArgument, "\(root): \(error)")
        }
    }

    /// Parses the model's JSON answer into the response message `M`.
    ///
    /// A failure is our bug (the model wrote a field or value the .proto files do not have),
    /// so it is INTERNAL, with the reason logged and nothing of it sent to the client.
    static func message<M: SwiftProtobuf.Message>(_ type: M.Type, json: [UInt8], logger: Logger) throws(StatusError) -> M {
        do {
            return try M(jsonUTF8Bytes: json, options: parsing)
        } catch {
            logger.error(
                "the model's JSON does not fit the wire message",
                metadata: ["message": "\(M.protoMessageName)", "error": "\(error)", "json": "\(String(decoding: json.prefix(2_000), as: UTF8.self))"])
            throw StatusError(.internal, "internal error")
        }
    }

    /// Encodes `value` as the model's JSON and parses it into the response message `M`.
    static func message<M: SwiftProtobuf.Message>(_ type: M.Type, encoding value: some Encodable, logger: Logger) throws(StatusError) -> M {
        let json: [UInt8]
        do {
            json = try JSONStreamEncoder(userInfo: ResourceExtensions.none.userInfo).encode(value)
        } catch {
            logger.error("the model's answer cannot be encoded", metadata: ["error": "\(error)"])
            throw StatusError(.internal, "internal error")
        }
        return try message(type, json: json, logger: logger)
    }
}
