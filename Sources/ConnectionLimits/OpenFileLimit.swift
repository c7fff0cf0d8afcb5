#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`): every connection, database
/// connection, file and event loop takes a descriptor, and a process that runs out fails in
/// places that cannot answer (accepting, and libdispatch's own threads).
package struct OpenFileLimit: Sendable, Equatable, CustomStringConvertible {
    /// The limit in force: opening a file beyond it fails with EMFILE.
    package var soft: Int
    /// How far an unprivileged process may raise ``soft``.
    package var hard: Int

    /// A limit of `soft` descriptors, raisable to `hard`.
    package init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    package var description: String { soft == hard ? "\(soft)" : "\(soft) (raisable to \(hard))" }

    /// The process's limit now; nil where the system does not say.
    package static func current() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as a server that holds many connections should
    /// (the common default soft limit, 1,024, is spent by a thousand idle clients); the
    /// limit in force afterwards, which is the old one when raising failed.
    @discardableResult
    package static func raiseToHard() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        if limit.rlim_cur != limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            _ = setrlimit(Self.resource, &raised)
        }
        return current()
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif

    /// An `rlim_t` as a count; "unlimited" (all bits set) as the largest Int.
    private static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
