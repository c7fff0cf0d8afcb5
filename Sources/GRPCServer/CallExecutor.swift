import Access

/// Where the gRPC listener's tasks run: a dispatch queue, off the event loops that
/// `tripshare` makes Swift concurrency's global executor.
///
/// Why: the event loops are the global executor for REST's sake (a Hummingbird handler then
/// runs on the thread that read its request). grpc-swift, though, runs each call as several
/// tasks and async sequences, each step a job; on the event loops a trivial unary call cost
/// the server 417–493 µs of CPU, on Swift's own pool 307–341 µs (`Benchmarks/GRPCFloor`,
/// docs/grpc.md "Speed"). Preferring this executor for the listener gives its calls the
/// cheaper scheduling without changing REST's.
enum CallExecutor {
    static let shared = DispatchTaskExecutor(label: "tripshare.grpc-calls")
}
