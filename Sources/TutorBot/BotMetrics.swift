import CoreMetrics
import Foundation
import Prometheus
import Synchronization
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
    let chatFailures, chatsRepaired, strayDropped: CoreMetrics.Counter
    let remindersDue, remindersSent: CoreMetrics.Counter
    let commitTime: CoreMetrics.Timer
    let outboxPending, oldestPendingSeconds, broadcastRemaining, learnersActiveToday, learnersTotal: CoreMetrics.Gauge
    let lastPoll, pacedRate: CoreMetrics.Gauge
    let databaseBytes: CoreMetrics.Gauge
    /// CPU time (ns, every thread) spent turning updates into replies: parsing, the dialogue,
    /// rendering and the batch's commit. The rest of `process_cpu_seconds_total` is the I/O path
    /// (requests and replies, their JSON, the sender, the poll loop) and start-up.
    public let updateCPUNanoseconds = Atomic<UInt64>(0)

    public init() {
        var f = PrometheusMetricsFactory(registry: registry)
        f.durationHistogramBuckets["permitready_commit_seconds"] =
            [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25),
                .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
            ]
        factory = f
        func counter(_ name: String, _ dims: [(String, String)] = []) -> CoreMetrics.Counter {
            CoreMetrics.Counter(label: name, dimensions: dims, factory: f)
        }
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
        chatFailures = counter("permitready_chat_failures_total")
        chatsRepaired = counter("permitready_chats_repaired_total")
        strayDropped = counter("permitready_stray_replies_dropped_total")
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
        databaseBytes = gauge("permitready_database_bytes")
    }

    /// `# HELP` for every metric: what it counts, in a line an operator reads on a dashboard.
    static let help: [String: String] = [
        "permitready_updates_total":
            """
        Telegram updates taken in, by outcome (processed, skipped: no use for it or dropped, garbled: did \
        not decode).
        """,
        "permitready_messages_sent_total":
            "Requests Telegram accepted, by kind (reply, bulk: reminders and broadcasts, tap_answer).",
        "permitready_rate_limited_total": "429 answers from Telegram, by scope (chat or the whole bot).",
        "permitready_blocked_total": "Learners found to have blocked the bot (403).",
        "permitready_send_failures_total": "Messages given up on after their retries.",
        "permitready_reminders_due_total": "Learners whose reminder time came (the dialogue decides whether to send).",
        "permitready_reminders_sent_total": "Reminders queued.",
        "permitready_chat_failures_total":
            """
        Chats whose updates were dropped because their rows could not be loaded or saved (the rest of the \
        batch committed).
        """,
        "permitready_chats_repaired_total":
            "Chats loaded with mended rows (a value outside its CHECK, a session that did not decode).",
        "permitready_stray_replies_dropped_total":
            "Replies to stray input not queued because the chat's earlier replies were still waiting.",
        "permitready_commit_seconds":
            "Time to write one batch (all its chats, outbox rows and the update offset) in one transaction.",
        "permitready_outbox_pending": "Messages waiting to be sent.",
        "permitready_outbox_oldest_pending_seconds": "Age of the oldest message waiting to be sent.",
        "permitready_broadcast_remaining": "Broadcast messages not yet sent.",
        "permitready_learners_active_today": "Learners active in the last 24 hours.",
        "permitready_learners": "Learners (private chats) in the database.",
        "permitready_last_poll_timestamp_seconds": "Unix time of the last successful getUpdates.",
        "permitready_send_rate_limit_per_second":
            "The overall pace the sender holds to after a bot-wide 429 (0: unpaced).",
        "permitready_database_bytes": "Size of the database file and its WAL.",
    ]

    /// The Prometheus text exposition of everything recorded so far, with `# HELP` lines, the
    /// build and the process's own figures (memory, CPU, start time).
    public func exposition() -> String {
        var out = ""
        for line in registry.emitToString().split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first,
                let help = Self.help[String(name)]
            {
                out += "# HELP \(name) \(help)\n"
            }
            if !line.isEmpty { out += line + "\n" }
        }
        out += """
            # HELP permitready_build_info The running build (always 1; the version is a label).
            # TYPE permitready_build_info gauge
            permitready_build_info{version="\(PermitReadyVersion.string)"} 1
            # HELP process_resident_memory_bytes Resident memory of the bot process.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes \(ProcessFigures.residentBytes())
            # HELP process_cpu_seconds_total User and system CPU time the bot process has used.
            # TYPE process_cpu_seconds_total counter
            process_cpu_seconds_total \(String(format: "%.3f", ProcessFigures.cpuSeconds()))
            # HELP permitready_update_cpu_seconds_total CPU time spent turning updates into replies (parsing, the \
            dialogue, rendering, the batch's commit); process_cpu_seconds_total less this is sending, receiving and \
            start-up.
            # TYPE permitready_update_cpu_seconds_total counter
            permitready_update_cpu_seconds_total \
            \(String(format: "%.6f", Double(updateCPUNanoseconds.load(ordering: .relaxed)) / 1e9))
            # HELP process_start_time_seconds Unix time the bot process started.
            # TYPE process_start_time_seconds gauge
            process_start_time_seconds \(String(format: "%.3f", ProcessFigures.started.timeIntervalSince1970))

            """
        return out
    }

    /// Reads the gauges that live in the database (queue depth, broadcasts, learners). The learner
    /// counts scan the whole learner table: a scan that took 5 ms or more is not repeated for
    /// 1,000 times as long (at most 0.1% of a core; at most 5 minutes), so a big database is not
    /// scanned at every write of the file. A smaller database is counted at every write.
    func refreshGauges(store: TutorStore, now: Date) {
        let countingLearners = learnerCountsDue.withLock { due in due.map { now >= $0 } ?? true }
        let started = ContinuousClock.now
        guard let g = try? store.operatorGauges(now: now, countingLearners: countingLearners) else { return }
        if countingLearners {
            let due = Self.nextLearnerCount(afterScanTaking: (ContinuousClock.now - started).inSeconds, now: now)
            learnerCountsDue.withLock { $0 = due }
        }
        outboxPending.record(g.outboxPending)
        oldestPendingSeconds.record(g.oldestPendingSeconds)
        broadcastRemaining.record(g.broadcastRemaining)
        if countingLearners {
            learnersActiveToday.record(g.learnersActiveToday)
            learnersTotal.record(g.learners)
        }
        databaseBytes.record(store.fileSize())
    }

    static let learnerCountsAtMost: TimeInterval = 300
    static let learnerScanWorthSparing: TimeInterval = 0.005
    static func nextLearnerCount(afterScanTaking took: TimeInterval, now: Date) -> Date {
        now.addingTimeInterval(took < learnerScanWorthSparing ? 0 : min(learnerCountsAtMost, took * 1_000))
    }
    private let learnerCountsDue = Mutex<Date?>(nil)

    /// Writes the exposition atomically (temporary file, then rename), as the textfile collector
    /// requires: it must never read half a file.
    public func write(to path: String) throws {
        try Self.writeAtomically(exposition(), to: path)
    }

    /// Text written to a temporary name and renamed: the collector never reads half a file.
    public static func writeAtomically(_ text: String, to path: String) throws {
        let temporary = path + ".tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// The process's own figures for the metrics file (read from the kernel, no dependency).
public enum ProcessFigures {
    static let started = Date()

    /// Resident set size: /proc/self/statm's second field, in pages.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// CPU time the calling thread has used, in ns (a system call: read per batch, not per update).
    public static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
