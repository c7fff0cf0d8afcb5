import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripServer
import TripServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP client socket with time limits, to speak raw (and broken) HTTP.
final class RawSocket {
    private let descriptor: Int32
    /// The client side's port.
    private(set) var localPort = 0

    init(port: Int, timeout: Double = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        localPort = Int(UInt16(bigEndian: bound.sin_port))
    }

    /// Sends what it can of `bytes` before the send time limit; the count sent.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return sent
    }

    /// Reads until the peer closes, the read time limit passes, or `until` is satisfied.
    func receive(until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if n < 0 { return (String(decoding: data, as: UTF8.self), false) }
            data += buffer[0..<n]
            if done(String(decoding: data, as: UTF8.self)) { return (String(decoding: data, as: UTF8.self), false) }
        }
    }

    func close() {
        Glibc.close(descriptor)
    }
}

/// The connections to the clients on `clientPorts` that a server on `port` in this process
/// holds open: its sockets' descriptors, from /proc/self/fd, matched with the kernel's TCP
/// table.
func serverConnections(port: Int, clients clientPorts: Set<Int>) throws -> Int {
    let ours = Set(
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                target.hasPrefix("socket:[")
            else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
    var count = 0
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        for line in procFile(table).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let local = fields[1].split(separator: ":").last, Int(local, radix: 16) == port,
                let remote = fields[2].split(separator: ":").last, let remotePort = Int(remote, radix: 16),
                clientPorts.contains(remotePort), ours.contains(String(fields[9]))
            else { continue }
            count += 1
        }
    }
    return count
}

/// The whole of a /proc file: they report no size, and a single read returns a page at most.
func procFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return "" }
    defer { Glibc.close(descriptor) }
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        data += buffer[0..<n]
    }
    return String(decoding: data, as: UTF8.self)
}

/// The kernel's TCP table rows for `port`, for failure messages.
func tcpTable(port: Int) -> String {
    let hex = String(format: "%04X", port)
    let rows = ["/proc/self/net/tcp", "/proc/self/net/tcp6"].flatMap { procFile($0).split(separator: "\n").filter { $0.contains(":\(hex) ") } }
    return rows.joined(separator: "\n")
}

@Suite(.serialized) struct SocketTests {
    /// Waits up to `seconds` for `condition`, checking every 50 ms (the server closes on its
    /// own schedule; a socket test cannot inject its clock).
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }

    static func app(timeouts: ConnectionTimeouts) async throws -> some ApplicationProtocol {
        let harness = try await Harness()
        return Application(
            router: harness.app.makeRouter(), server: TripServerApp.httpServer(timeouts: timeouts),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// A request whose chunked body is broken (a chunk size that is not hexadecimal, a chunk
    /// longer than it said, a body cut short) is answered 400 INVALID_ARGUMENT saying what
    /// was wrong, not a bare status or a 500 (issue 29, item 8).
    @Test func badChunkedBodyIsAnsweredSayingWhatWasWrong() async throws {
        let harness = try await Harness()
        let token = try await harness.token(harness.server)
        let app = Application(
            router: harness.app.makeRouter(), server: TripServerApp.httpServer(timeouts: .standard),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let head =
                "POST /v1/providers/p/vehicles?vehicleId=v1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            let bodies = [
                ("zz\r\n{}\r\n0\r\n\r\n", "a chunk size line that is not a hexadecimal size"),
                ("2\r\n{}XX\r\n0\r\n\r\n", "a line that does not end in CRLF where one must"),
            ]
            for (body, reason) in bodies {
                let socket = try RawSocket(port: port, timeout: 5)
                socket.send(Array((head + body).utf8))
                let answer = socket.receive { $0.contains("}}") }.text
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(body.debugDescription): \(answer.prefix(300))")
                #expect(answer.contains(#""status":"INVALID_ARGUMENT""#), "\(answer)")
                #expect(answer.contains(reason), "\(body.debugDescription): \(answer)")
                socket.close()
            }
        }
    }

    /// Clients that send a bad request head (a 0x7f byte in a header, an over-long URI),
    /// read the answer while their megabytes of body are still to come, send them, and close:
    /// each got the Google error, and the server's descriptors for them return to none. A
    /// healthy kept-alive client beside them shows the count sees the server's connections.
    @Test func rejectedConnectionsAreClosed() async throws {
        let app = try await Self.app(timeouts: .standard)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let heads = [
                "POST /v1/providers/p/vehicles HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{7f}b\r\nContent-Length: 5000000\r\n\r\n",
                "POST /\(String(repeating: "a", count: 200_000)) HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n",
            ]
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            // 20 s: the first answer of a fresh server, while the whole suite loads two cores.
            let healthy = try RawSocket(port: port, timeout: 20)
            healthy.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(healthy.receive { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
            #expect(try serverConnections(port: port, clients: [healthy.localPort]) == 1, "\(tcpTable(port: port)) client \(healthy.localPort)")
            var sockets = [healthy]
            for index in 0..<20 {
                let socket = try RawSocket(port: port, timeout: 5)
                socket.send(Array(heads[index % 2].utf8) + chunk)
                let answer = socket.receive { $0.contains("}}") }
                #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text.prefix(200))")
                #expect(answer.text.contains(#""status":"INVALID_ARGUMENT""#))
                for _ in 0..<32 { socket.send(chunk) }
                sockets.append(socket)
            }
            let clients = Set(sockets.map(\.localPort))
            for socket in sockets { socket.close() }
            #expect(try await Self.eventually(within: 10) { try serverConnections(port: port, clients: clients) == 0 })
        }
    }

    /// A connection that sends nothing is closed after the head timeout, and a kept-alive
    /// one after the idle timeout.
    @Test func idleConnectionsAreClosed() async throws {
        let app = try await Self.app(timeouts: ConnectionTimeouts(idle: .milliseconds(400), requestHead: .milliseconds(300)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let silent = try RawSocket(port: port, timeout: 5)
            var clients: Set<Int> = [silent.localPort]
            let started = Date()
            #expect(silent.receive().closed)
            #expect(Date().timeIntervalSince(started) < 4)
            silent.close()

            let keptAlive = try RawSocket(port: port, timeout: 5)
            clients.insert(keptAlive.localPort)
            keptAlive.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let answer = keptAlive.receive()
            #expect(answer.text.hasPrefix("HTTP/1.1 200"))
            #expect(answer.closed)
            keptAlive.close()
            #expect(try await Self.eventually(within: 5) { try serverConnections(port: port, clients: clients) == 0 })
        }
    }

    /// A client that pipelines requests for a large answer and reads none is closed at the
    /// write timeout, although its ten answers (1.8 MB) would fit in the kernel's buffers as
    /// the kernel grows them by itself: the server keeps its send buffer small.
    @Test func clientThatReadsNothingIsClosedAtTheWriteTimeout() async throws {
        let app = try await Self.app(timeouts: ConnectionTimeouts(write: .milliseconds(500)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let attacker = try RawSocket(port: port, timeout: 5)
            attacker.send(Array(String(repeating: "GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", count: 10).utf8))
            let closed = try await Self.eventually(within: 5) { try serverConnections(port: port, clients: [attacker.localPort]) == 0 }
            #expect(closed, "\(tcpTable(port: port))")
            attacker.close()
        }
    }
}
