import Foundation
import ServiceLifecycle

#if canImport(Glibc)
    import CMalloc
#endif

/// glibc malloc's settings for a server process (issue 30; docs/operations.md, "Memory").
///
/// By default glibc gives each thread that allocates while another holds an arena an arena of
/// its own, up to eight per core, and keeps what is freed inside each for reuse. The server's
/// threads (event loops, SQLite's writer and readers, the group commit) all allocate and free
/// decoded rows and views that move between them, so the caches' entries end up spread over
/// many arenas whose free space no other thread reuses: at 50,000 vehicles the process held
/// about 1.5 times its cache budget. Fewer arenas and a regular trim keep resident memory
/// near what is in use.
enum AllocatorSettings {
    /// Limits the arenas to one per core (as many threads as allocate at once), unless
    /// `MALLOC_ARENA_MAX` is set in the environment (an operator's choice wins). Must run
    /// before the process starts its threads.
    static func apply() {
        #if canImport(Glibc)
            guard Allocator.current == .glibc, ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
            _ = mallopt(M_ARENA_MAX, Int32(max(1, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }
}

/// The allocator `malloc` resolves to: glibc's own, or one the operator preloaded
/// (`LD_PRELOAD`; docs/operations.md, "The allocator"). With glibc's, a location update at
/// 50,000 vehicles cost 1.7 times one at 1,000, its caches' entries scattered over a heap of
/// 300 MB; with tcmalloc 1.3 times, and 0.7 of glibc's (docs/performance.md, stop 58).
enum Allocator {
    case glibc
    case tcmalloc
    case jemalloc

    /// The allocator of this process, told by the functions only it exports.
    static let current: Allocator = {
        if tcmallocRelease != nil { return .tcmalloc }
        return symbol("mallctl") != nil ? .jemalloc : .glibc
    }()

    /// tcmalloc's `MallocExtension_ReleaseFreeMemory`, where tcmalloc is loaded.
    private static let tcmallocRelease = symbol("MallocExtension_ReleaseFreeMemory").map {
        unsafeBitCast($0, to: (@convention(c) () -> Void).self)
    }

    /// A function of the program or of a library it loaded, preloaded ones first.
    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
            dlsym(dlopen(nil, RTLD_NOW), name)
        #else
            nil
        #endif
    }

    /// Returns the heap's free pages to the operating system: glibc trims its arenas, tcmalloc
    /// releases its free spans; jemalloc returns them itself as they age.
    func releaseFreeMemory() {
        switch self {
        case .glibc:
            #if canImport(Glibc)
                _ = malloc_trim(0)
            #endif
        case .tcmalloc: Self.tcmallocRelease?()
        case .jemalloc: break
        }
    }

    /// For the server's first lines.
    var summary: String {
        switch self {
        case .glibc: "glibc's malloc (preload tcmalloc for a fleet of tens of thousands: docs/operations.md)"
        case .tcmalloc: "tcmalloc, preloaded"
        case .jemalloc: "jemalloc, preloaded"
        }
    }
}

/// Returns the heap's free pages to the operating system every ``interval``: glibc gives back
/// only the free space at the top of an arena, and what the caches let go of in the middle of
/// one (an evicted trip between two kept ones) stays resident until reused.
struct MemoryTrimService: Service {
    /// How often the heap is trimmed: a trim walks the free space of every arena (a few
    /// milliseconds for a heap of 100 MB), and pages given back are faulted in again when reused.
    static let interval = Duration.seconds(10)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: Self.interval)
                } catch {
                    return
                }
                Allocator.current.releaseFreeMemory()
            }
        }
    }
}
