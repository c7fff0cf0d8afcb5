// An event stream's client for tests: opens a stream on a server's router without a socket and
// reads it as a browser's EventSource does, frame by frame, hanging up when the test has seen
// what it waits for.

import Fleet
import Foundation
import Hummingbird
import Logging
import NIOEmbedded
import Synchronization
import Testing
import TripServer
import TripStore

/// One parsed Server-Sent Events frame.
package struct SSEFrame: Sendable {
    /// The log's ID of the event (the stream's `id:` mapped back), to compare with the store.
    package var id: Int64?
    /// The `id:` as the stream sent it.
    package var streamID: String?
    /// The `event:` type.
    package var event: String?
    /// The `data:` lines, joined.
    package var data: String
    /// Whether the frame is a comment (a heartbeat).
    package var isComment: Bool
}

/// A response body writer that plays an SSE client: it parses frames as they arrive and
/// hangs up (throws, as a dropped connection does) when `hangUp` says so, keeping only the
/// frames before that point, as a client whose connection broke would.
package struct SSEClientWriter: ResponseBodyWriter {
    /// Thrown to hang up, as a dropped connection does.
    package struct HungUp: Error {}

    /// The frames read so far (safe to look at while the stream is read).
    package final class Received: Sendable {
        let state = Mutex((pending: "", frames: [SSEFrame]()))
        /// Nothing read yet.
        package init() {}
        /// The frames so far, oldest first.
        package var frames: [SSEFrame] { state.withLock { $0.frames } }
        /// The log's IDs of the events so far.
        package var eventIDs: [Int64] { frames.compactMap(\.id) }
        /// The last `id:` the stream sent: what a client resumes with.
        package var lastStreamID: String? { frames.last(where: { $0.streamID != nil })?.streamID }
    }

    let received: Received
    /// The stream's numbering, to map its IDs back to the log's.
    let ids: EventStreamIDs?
    /// Given the frames so far (the newest last), true to hang up after the newest.
    let hangUp: @Sendable ([SSEFrame]) -> Bool

    /// Parses `buffer`'s frames; throws ``HungUp`` once `hangUp` holds.
    package mutating func write(_ buffer: ByteBuffer) async throws {
        let done = received.state.withLock { state -> Bool in
            state.pending += String(buffer: buffer)
            while let end = state.pending.range(of: "\n\n") {
                let block = state.pending[..<end.lowerBound]
                state.pending = String(state.pending[end.upperBound...])
                var frame = SSEFrame(id: nil, event: nil, data: "", isComment: false)
                for line in block.split(separator: "\n") {
                    if line.hasPrefix(":") { frame.isComment = true }
                    if line.hasPrefix("id: ") {
                        frame.streamID = String(line.dropFirst(4))
                        frame.id = ids.flatMap { $0.logID(from: String(line.dropFirst(4))) } ?? Int64(line.dropFirst(4))
                    }
                    if line.hasPrefix("event: ") { frame.event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { frame.data += line.dropFirst(6) }
                }
                state.frames.append(frame)
                if hangUp(state.frames) { return true }
            }
            return false
        }
        if done { throw HungUp() }
    }

    /// The stream ended.
    package func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// An event stream's response, with the stream's numbering when the request named one.
package struct OpenedStream: Sendable {
    /// The response, whose body is the stream.
    package let response: Response
    /// The stream's numbering, to map its IDs back to the log's.
    package let ids: EventStreamIDs?
    /// The response's status.
    package var status: HTTPResponse.Status { response.status }
    /// The response's headers.
    package var headers: HTTPFields { response.headers }
}

/// Opens event streams on a router without a socket.
package struct StreamOpener: Sendable {
    let responder: RouterResponder<TripRequestContext>
    let fleet: Fleet

    /// An opener of `app`'s streams.
    package init(_ app: TripServerApp) {
        responder = app.makeRouter().buildResponder()
        fleet = app.fleet
    }

    /// The numbering of the stream `uri` names (`.../trips/ID/events`, `.../vehicles/ID/events`).
    package func ids(of uri: String) async throws -> EventStreamIDs? {
        let parts = uri.split(separator: "?")[0].split(separator: "/").map(String.init)
        guard parts.count == 6, parts[5] == "events" else { return nil }
        let filter: EventFilter =
            parts[3] == "trips" ? .trip(provider: parts[2], tripId: parts[4]) : .vehicle(provider: parts[2], vehicleId: parts[4])
        return try await fleet.eventStreamIDs(for: filter)
    }

    /// Opens the stream `uri` with `token` (and `headers`: Last-Event-ID, say).
    package func open(_ uri: String, token: String, headers: HTTPFields = [:]) async throws -> OpenedStream {
        OpenedStream(response: try await respond(uri, token: token, headers: headers), ids: try await ids(of: uri))
    }

    private func respond(_ uri: String, token: String, headers: HTTPFields) async throws -> Response {
        var fields = headers
        fields[.authorization] = "Bearer \(token)"
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: uri, headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        let context = TripRequestContext(
            source: ApplicationRequestContextSource(
                channel: EmbeddedChannel(),
                logger: Logger(label: "test")))
        return try await responder.respond(to: request, context: context)
    }

    /// Reads a stream until its writer hangs up, failing the test after 60 s (a watchdog for
    /// a stream that never delivers what the test waits for, not a timing assertion).
    /// `received` shows the frames as they arrive, to a test that looks while it reads.
    @discardableResult
    package func read(
        _ stream: OpenedStream, into received: SSEClientWriter.Received = .init(), hangUp: @escaping @Sendable ([SSEFrame]) -> Bool
    ) async throws -> SSEClientWriter.Received {
        let writer = SSEClientWriter(received: received, ids: stream.ids, hangUp: hangUp)
        let response = stream.response
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await response.body.write(writer)
                } catch is SSEClientWriter.HungUp {}
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            let finished = try await group.next() ?? false
            group.cancelAll()
            #expect(finished, "the stream did not deliver what the test waited for")
        }
        return received
    }
}
