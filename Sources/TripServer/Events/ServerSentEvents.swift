// The text/event-stream wire format (WHATWG HTML, "Server-sent events").

import Fleet
import Foundation
import HTTPTypes
import Hummingbird
import TripModel
import TripStore

/// Frames for a Server-Sent Events response.
enum ServerSentEvents {
    /// Headers of an event stream; proxies are asked not to buffer it.
    static let headers: HTTPFields = {
        var fields: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
        if let name = HTTPField.Name("X-Accel-Buffering") { fields[name] = "no" }
        return fields
    }()

    /// The first bytes: the reconnection delay for EventSource, and a comment so that the
    /// headers and something of the body reach the client at once.
    static let opening = "retry: 3000\n: connected\n\n"

    /// A comment line: keeps idle connections open through proxies, and finds dead clients.
    static let heartbeat = ": heartbeat\n\n"

    /// Appends one event as `id:` (the stream's `id` for it), `event:` and `data:` lines (one
    /// `data:` line per line of the payload, so a payload with line breaks, LF, CR or CRLF,
    /// still arrives whole). It works on UTF-8 bytes: splitting the payload as a String, by
    /// grapheme, took a tenth of the server's time with a thousand subscribers.
    static func append(_ event: StoredEvent, id: String, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("id: ")
        buffer.writeString(id)
        buffer.writeStaticString("\nevent: ")
        buffer.writeString(event.type)
        buffer.writeStaticString("\n")
        var data = event.data
        data.withUTF8 { bytes in
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
                buffer.writeStaticString("data: ")
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
                buffer.writeStaticString("\n")
                guard end < bytes.count else { break }
                start = end + 1
                if bytes[end] == UInt8(ascii: "\r"), start < bytes.count, bytes[start] == UInt8(ascii: "\n") { start += 1 }
            }
        }
        buffer.writeStaticString("\n")
    }

    /// The event that tells a client it missed events retention deleted (DESIGN §11): read
    /// the trip or vehicle anew, then go on with the stream, which resumes after `through`
    /// (the stream's ID of the last deleted event, so that a reconnect does not hear it again).
    static let expiredType = "eventsExpired"

    /// Appends an ``expiredType`` event; `through` is the stream's ID of the log's start.
    static func appendExpired(through: String, to buffer: inout ByteBuffer) {
        let message =
            "Events before this one are past the server's event retention and were deleted; "
            + "read the trip or vehicle again, then follow this stream."
        let data = #"{"expiredThroughEventId":"# + through + #","message":""# + message + #""}"#
        append(
            StoredEvent(
                id: 0, time: Timestamp(microseconds: 0), provider: "", vehicleId: nil, tripIds: [], type: expiredType, data: data),
            id: through, to: &buffer)
    }

    /// Parses the resume point a client sends: the `Last-Event-ID` header (EventSource's
    /// reconnect), else the `lastEventId` query parameter (for a fresh EventSource): an ID the
    /// stream sent, or 0 for the log's start. The log's ID it stands for. Both are checked
    /// when both are sent: a malformed parameter is refused even beside a good header.
    static func resumeID(_ request: Request, ids: EventStreamIDs) throws(APIError) -> Int64? {
        let header = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
        let fromQuery = try logID(request.uri.queryParameters.get("lastEventId").map { String($0) }, "lastEventId", ids)
        return try logID(header, "Last-Event-ID", ids) ?? fromQuery
    }

    /// The log's ID for an event ID a client sent under `name`; nil when it sent none.
    private static func logID(_ text: String?, _ name: String, _ ids: EventStreamIDs) throws(APIError) -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = ids.logID(from: String(text.trimmingSpaces)) else {
            throw .invalid("\(name): '\(text.prefix(32))' is not an event ID (an ID the stream sent, or 0 for its start)")
        }
        return id
    }
}
