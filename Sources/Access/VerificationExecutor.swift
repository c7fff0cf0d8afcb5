/// Where new tokens are verified: a dispatch queue, off the server's event loops.
///
/// jwt-kit's `JWTKeyCollection` is an actor. With NIO's event loops as Swift concurrency's
/// global executor, the actor ran on whichever loop called it first and, while riders'
/// new tokens kept arriving, went on draining its queue there: that loop served none of
/// its connections meanwhile (after a restart with 10,000 riders, GET trip p99 was about
/// a second for the first seconds). Run with this executor as the task's preference, the
/// actor's work happens here instead; a verified token is cached, so this is paid once
/// per token.
enum VerificationExecutor {
    static let shared = DispatchTaskExecutor(label: "tripshare.token-verification")
}
