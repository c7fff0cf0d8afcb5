import NIOCore
import NIOPosix
import Synchronization

/// Where the server draws its pictures (previews, the driver's screen, turn cards): on threads
/// of their own, as many as the machine has cores less one, with a bounded queue in front.
///
/// Why: drawing a large picture is tens to hundreds of milliseconds of CPU. Drawn in the
/// request's task it holds one of Swift's cooperative threads (one per core) all that time,
/// and a few pictures at once leave none for anything else: `/healthz` then waited seconds
/// behind one token's maximal pictures (issue 29, item 5 of the probe). Here at most
/// ``threadCount`` pictures are drawn at once and the cooperative threads stay free; the
/// pictures beyond wait their turn, and beyond ``maximumWaiting`` of them a request is answered
/// 503 at once rather than queued without end. One queue serves the whole process.
final class RenderQueue: Sendable {
    /// The queue every route draws on.
    static let shared = RenderQueue(threadCount: defaultThreadCount, maximumWaiting: 64)

    /// The queue map tiles are drawn on: a thread per core (a web map asks for a screenful of
    /// tiles at once, and the first map waits for all of them), apart from the cooperative
    /// threads, so that the page's other requests are answered meanwhile.
    static let tiles = RenderQueue(threadCount: max(1, System.coreCount), maximumWaiting: 256)

    /// Threads for drawing: the cores less one, at least one.
    static var defaultThreadCount: Int { max(1, System.coreCount - 1) }

    /// Pictures drawn at once.
    let threadCount: Int
    /// Pictures that may wait for a thread.
    let maximumWaiting: Int
    private let pool: NIOThreadPool
    private let admitted = Atomic<Int>(0)

    init(threadCount: Int, maximumWaiting: Int) {
        self.threadCount = max(1, threadCount)
        self.maximumWaiting = max(0, maximumWaiting)
        pool = NIOThreadPool(numberOfThreads: self.threadCount)
        pool.start()
    }

    /// Pictures being drawn or waiting now.
    var pictures: Int { admitted.load(ordering: .relaxed) }

    /// `draw()`'s result, drawn on the queue's threads in turn; UNAVAILABLE when the queue is
    /// full.
    func draw<T: Sendable>(_ draw: @escaping @Sendable () throws -> T) async throws -> T {
        let count = admitted.wrappingAdd(1, ordering: .relaxed).newValue
        defer { admitted.wrappingSubtract(1, ordering: .relaxed) }
        guard count <= threadCount + maximumWaiting else {
            var error = APIError(.unavailable, "the server is drawing as many pictures as it can; retry in a moment")
            error.headers[.retryAfter] = "1"
            throw error
        }
        return try await pool.runIfActive(draw)
    }
}
