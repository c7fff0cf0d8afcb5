import NIOCore
import Synchronization

/// How many client connections the server holds at once, shared by every listener of the
/// process (REST and gRPC): beyond ``maximum``, a few more are let in for health probes
/// (``reserve``), and the rest are refused at once, so the process never spends the last of
/// its open-file limit and a load balancer's `/healthz` still gets through while slow clients
/// hold every regular place.
package final class ConnectionBudget: Sendable {
    /// What a new connection may do.
    package enum Admission: Sendable, Equatable {
        /// Anything: it holds one of the ``maximum`` regular places.
        case admitted
        /// Only health probes (`/healthz`, `/readyz`), once, briefly: it holds a reserve place.
        case reserved
        /// Nothing: it is to be answered "too many connections" and closed.
        case refused
    }

    /// Connections held for any request.
    package let maximum: Int
    /// Connections beyond ``maximum`` let in for health probes.
    package let reserve: Int
    private let open = Atomic<Int>(0)

    /// A budget of `maximum` regular connections and `reserve` more for health probes.
    package init(maximum: Int, reserve: Int = ConnectionBudget.healthReserve) {
        self.maximum = max(1, maximum)
        self.reserve = max(0, reserve)
    }

    /// Places beyond the maximum for health probes. Attackers beyond the maximum take them
    /// too, each until its request is read and refused: 300 connections opened in a second
    /// kept 8 places busy often enough that 3 of 253 probes met a full reserve (a 503); with
    /// 32, none did.
    package static let healthReserve = 32

    /// Descriptors left for everything but client connections: the database's connections
    /// (the PostgreSQL pool holds up to 12, SQLite a few files), the basemap and fonts, the
    /// event loops' and libdispatch's own, and the connection being refused.
    package static let otherFiles = 96

    /// The most connections a default budget allows, whatever the file limit: each costs
    /// memory too (tens of kilobytes while it waits, more while it is answered).
    package static let defaultCeiling = 10_000

    /// The regular connections a process with `fileLimit` open files may hold: what is left
    /// after ``otherFiles`` and the ``healthReserve``, at most ``defaultCeiling``.
    package static func defaultMaximum(fileLimit: Int) -> Int {
        max(1, min(defaultCeiling, fileLimit - otherFiles - healthReserve))
    }

    /// Connections open now (each admitted or reserved one until it is released).
    package var openConnections: Int { open.load(ordering: .relaxed) }

    /// Takes a place for a new connection; ``release()`` gives back an admitted or reserved
    /// one (a refused one takes none).
    package func admit() -> Admission {
        let count = open.wrappingAdd(1, ordering: .relaxed).newValue
        if count <= maximum { return .admitted }
        if count <= maximum + reserve { return .reserved }
        open.wrappingSubtract(1, ordering: .relaxed)
        return .refused
    }

    /// Gives back a place taken by ``admit()``.
    package func release() {
        open.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Takes a place for `channel`, given back when it closes. A refused channel is left to the
    /// caller to answer and close.
    package func admit(_ channel: any Channel) -> Admission {
        let admission = admit()
        if admission != .refused { channel.closeFuture.whenComplete { _ in self.release() } }
        return admission
    }
}
