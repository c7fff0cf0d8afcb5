import Fleet
import Logging
import Prometheus
import ServiceLifecycle

/// Runs Fleet's event-log trimmer (``Fleet/EventLogTrimmer``) beside the HTTP server, a pass
/// every ``Fleet/EventRetention/passInterval``, until graceful shutdown. A pass that fails (a
/// full disk, say) is logged and tried again at the next interval.
struct EventRetentionService: Service {
    let trimmer: EventLogTrimmer
    let deleted: Counter
    let logger = Logger(label: "tripshare.retention")

    init(fleet: Fleet, retention: EventRetention, metrics: RequestMetrics) {
        trimmer = EventLogTrimmer(fleet: fleet, retention: retention)
        deleted = metrics.registry.makeCounter(
            descriptor: .init(
                metricName: "tripshare_events_deleted", unitName: "total",
                helpText: "Events the event log's retention deleted"))
    }

    func run() async throws {
        let interval = trimmer.retention.passInterval
        logger.info("event retention: keeping events for \(trimmer.retention) and each vehicle's newest \(EventRetention.locationsKept) locations")
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let started = ContinuousClock.now
                    let pass = try await trimmer.trim()
                    let took = ContinuousClock.now - started
                    deleted.increment(by: Int64(pass.deleted))
                    // A first pass over a long log deletes for a while: say so.
                    if pass.deleted > 0 {
                        logger.log(
                            level: pass.deleted >= 10_000 ? .info : .debug,
                            "event retention pass",
                            metadata: [
                                "head": "\(pass.head)", "examined": "\(pass.examined)", "floors": "\(pass.floorsRead)",
                                "deleted": "\(pass.deleted)", "batches": "\(pass.batches)",
                                "seconds": "\((took / .milliseconds(10)).rounded() / 100)",
                            ])
                    }
                } catch {
                    logger.warning("event retention pass failed; retrying in \(interval): \(error)")
                }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }
}
