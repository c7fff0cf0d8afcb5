import Access

/// Where large request bodies are parsed and decoded: a dispatch queue, off the server's
/// event loops.
///
/// NIO's event loops are Swift concurrency's global executor here, so a handler's own CPU
/// work holds a loop and every connection on it: twenty 1.9 MB bodies of 160,000 members at
/// once (refused, but each parsed up to its 10,001st member first) kept `/healthz` waiting up
/// to 900 ms behind them on a two-core machine (issue 29, item 2). Decoded here, they compete
/// with the loops only for the cores, which the kernel shares in slices of milliseconds.
enum BodyDecodingExecutor {
    /// The queue's executor.
    static let shared = DispatchTaskExecutor(label: "tripshare.body-decoding")

    /// Bodies at least this large are decoded here; smaller ones (almost every request) take
    /// less time to decode than the hop would.
    static let minimumBytes = 32 * 1024
}
