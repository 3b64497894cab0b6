import CoreMetrics
import Foundation
import Prometheus
import TutorStore

/// What an operator graphs, recorded through swift-metrics into this bot's own Prometheus
/// registry (so tests and the bench each get a fresh one; no process-wide bootstrap), and written
/// as Prometheus text to a file that node_exporter's textfile collector reads (no HTTP server).
/// Names and alert examples: deploy/README.md "Metrics".
public final class BotMetrics: @unchecked Sendable {
    // @unchecked Sendable: swift-metrics' handles are thread-safe (the Prometheus backend uses atomics).
    public let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    let updatesProcessed, updatesSkipped, updatesGarbled: CoreMetrics.Counter
    let repliesSent, bulkSent, tapsAnswered: CoreMetrics.Counter
    let rateLimitedChat, rateLimitedBot: CoreMetrics.Counter
    let blocked, sendFailures: CoreMetrics.Counter
    let remindersDue, remindersSent: CoreMetrics.Counter
    let commitTime: CoreMetrics.Timer
    let outboxPending, oldestPendingSeconds, broadcastRemaining, learnersActiveToday, learnersTotal: CoreMetrics.Gauge
    let lastPoll, pacedRate: CoreMetrics.Gauge

    public init() {
        var f = PrometheusMetricsFactory(registry: registry)
        f.durationHistogramBuckets["permitready_commit_seconds"] =
            [.microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
             .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1)]
        factory = f
        func counter(_ name: String, _ dims: [(String, String)] = []) -> CoreMetrics.Counter { CoreMetrics.Counter(label: name, dimensions: dims, factory: f) }
        func gauge(_ name: String) -> CoreMetrics.Gauge { CoreMetrics.Gauge(label: name, factory: f) }
        updatesProcessed = counter("permitready_updates_total", [("outcome", "processed")])
        updatesSkipped = counter("permitready_updates_total", [("outcome", "skipped")])
        updatesGarbled = counter("permitready_updates_total", [("outcome", "garbled")])
        repliesSent = counter("permitready_messages_sent_total", [("kind", "reply")])
        bulkSent = counter("permitready_messages_sent_total", [("kind", "bulk")])
        tapsAnswered = counter("permitready_messages_sent_total", [("kind", "tap_answer")])
        rateLimitedChat = counter("permitready_rate_limited_total", [("scope", "chat")])
        rateLimitedBot = counter("permitready_rate_limited_total", [("scope", "bot")])
        blocked = counter("permitready_blocked_total")
        sendFailures = counter("permitready_send_failures_total")
        remindersDue = counter("permitready_reminders_due_total")
        remindersSent = counter("permitready_reminders_sent_total")
        commitTime = CoreMetrics.Timer(label: "permitready_commit_seconds", dimensions: [], factory: f)
        outboxPending = gauge("permitready_outbox_pending")
        oldestPendingSeconds = gauge("permitready_outbox_oldest_pending_seconds")
        broadcastRemaining = gauge("permitready_broadcast_remaining")
        learnersActiveToday = gauge("permitready_learners_active_today")
        learnersTotal = gauge("permitready_learners")
        lastPoll = gauge("permitready_last_poll_timestamp_seconds")
        pacedRate = gauge("permitready_send_rate_limit_per_second")
    }

    /// Reads the gauges that live in the database (queue depth, broadcasts, learners).
    func refreshGauges(store: TutorStore, now: Date) {
        guard let g = try? store.operatorGauges(now: now) else { return }
        outboxPending.record(g.outboxPending)
        oldestPendingSeconds.record(g.oldestPendingSeconds)
        broadcastRemaining.record(g.broadcastRemaining)
        learnersActiveToday.record(g.learnersActiveToday)
        learnersTotal.record(g.learners)
    }

    /// The Prometheus text exposition of everything recorded so far.
    public func exposition() -> String { registry.emitToString() }

    /// Writes the exposition atomically (temporary file, then rename), as the textfile collector
    /// requires: it must never read half a file.
    public func write(to path: String) throws {
        let temporary = path + ".tmp"
        try Data(exposition().utf8).write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
