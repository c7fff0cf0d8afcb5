import Dispatch

/// A task executor on a concurrent dispatch queue of its own: work preferred onto it
/// (`withTaskExecutorPreference`) runs off the event loops that `tripshare` makes Swift
/// concurrency's global executor. ``VerificationExecutor``, the gRPC listener's
/// `CallExecutor` and TripServer's `BodyDecodingExecutor` are three.
package final class DispatchTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor on a new concurrent queue named `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
