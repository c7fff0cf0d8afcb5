import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// The process entry point: runs ``Tripshare`` with Swift concurrency's jobs on NIO's event loops.
///
/// Hummingbird reads a request on an event loop and, by default, runs its handler on the
/// global concurrent pool, which costs two thread switches per request and, on a small
/// machine, puts twice as many busy threads as cores in the scheduler's hands (on 2 cores:
/// GET trip p99 about 100 ms instead of about 12 ms). With the event loops as the global
/// executor, a handler runs on the thread that read its request. The handlers' blocking work
/// (SQLite reads, rendering) is CPU work that would occupy a core on either pool; waits for
/// the writer are `await`s and leave the loop free. An actor that stays busy, though, holds
/// the loop it runs on (see `VerificationExecutor` in TripServer). This must happen before
/// any task runs.
@main
enum Entry {
    static func main() {
        AllocatorSettings.apply()
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        Task {
            // Tripshare.main(), with Foundation's file errors made readable first.
            do {
                var command = try Tripshare.parseAsRoot()
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            } catch {
                Tripshare.exit(withError: CommandError.readable(error))
            }
            exit(0)
        }
        dispatchMain()
    }
}
