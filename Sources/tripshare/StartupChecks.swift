// What `serve` and `demo` check before they create anything: that the port is free (so a
// second server on the same port says so, naming it, instead of failing after it made a data
// directory), and, should start-up fail anyway, that a data directory made by this start is
// removed again.

import ArgumentParser
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Start-up checks of the server commands.
enum StartupChecks {
    /// Throws when another program listens on `host`:`port` (port 0, "any free port", passes);
    /// the message points at `option`, the flag that chooses the port.
    static func ensurePortFree(host: String, port: Int, option: String = "--port") throws {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw CommandError("--host: cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            defer { entry = info.pointee.ai_next }
            let socket = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            defer { close(socket) }
            // As the server binds: a port left in TIME_WAIT by a server just stopped is free.
            var yes: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            if bind(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                let reason = errno == EADDRINUSE ? "is already in use" : "cannot be used (\(String(cString: strerror(errno))))"
                throw CommandError(
                    "port \(port) on \(host) \(reason): stop the program listening there, or choose another port with \(option)")
            }
        }
    }

    /// Runs `start`; when it fails before the server is listening and `folder` did not exist
    /// before, removes the folder it left behind.
    static func removingNewFolder(_ folder: String?, _ start: (ListeningFlag) async throws -> Void) async throws {
        let existed = folder.map { FileManager.default.fileExists(atPath: $0) } ?? true
        let listening = ListeningFlag()
        do {
            try await start(listening)
        } catch {
            if !existed, let folder, !listening.isSet { try? FileManager.default.removeItem(atPath: folder) }
            throw error
        }
    }
}

/// Set once the server listens: from then on its data directory is in use and stays.
final class ListeningFlag: Sendable {
    private let flag = Mutex(false)

    /// Marks the server as listening.
    func set() { flag.withLock { $0 = true } }

    /// True once the server listened.
    var isSet: Bool { flag.withLock { $0 } }
}
