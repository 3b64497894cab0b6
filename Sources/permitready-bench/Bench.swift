import ArgumentParser
import Drills
import FakeBotAPI
import Foundation
import Synchronization
import TelegramAPI
import TutorBot
import TutorCore
import TutorStore

/// The benchmarks, their own executable: the fake Bot API and the load learners they need are not
/// linked into the `permitready` that ships (`make bench` builds and runs this).
@main
struct PermitReadyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permitready-bench",
        abstract:
            """
            Measure PermitReady: update throughput (parse → reduce → commit → outbox, no network) and, with \
            flags, every other figure.
            """
    )

    /// The same folders and database the bot takes (flags, else the environment, else defaults).
    struct Paths: ParsableArguments {
        @Option(name: .long, help: "SQLite database file (env PERMITREADY_DB).") var db: String?
        @Option(name: .long, help: "Question banks folder (env PERMITREADY_BANKS).") var banks: String?
        @Option(name: .long, help: "Prompts folder for the locale (env PERMITREADY_PROMPTS).") var prompts: String?

        func config(token: String, defaultDB: String) -> Config {
            Config.resolve(token: token, db: db, banks: banks, prompts: prompts, defaultDB: defaultDB)
        }
    }

    @OptionGroup var paths: Paths
    @Option(help: "Synthetic learners.") var learners: Int = 200
    @Option(help: "Updates per learner.") var updates: Int = 50
    @Option(help: "Updates per getUpdates batch.") var batch: Int = 100
    @Option(
        help:
            """
            Learners already in the database for the engine figure (the --rss figure has 100,000): its tables \
            and indexes at that size.
            """
    )
    var stored = 0
    @Option(
        help:
            """
            SQLite synchronous for the engine figure: full (what the bot runs), normal, or both (alternated, \
            same sitting).
            """
    )
    var synchronous = "full"
    @Flag(help: "Also run the full loop (long poll → commit → send over libcurl) against a fake Bot API on 127.0.0.1.")
    var loopback = false
    @Flag(
        help:
            """
            Every figure: banks, practice tests, readiness, flashcards, reminders for 1M learners, broadcast \
            throughput.
            """
    )
    var all = false
    @Option(help: "Learners for the reminder-list figure.") var nudgeLearners = 1_000_000
    @Option(
        help: "Only the challenge load: this many friends open one challenge link at once and play its ten questions.")
    var loadChallenge: Int?
    @Flag(
        help:
            """
            Only the friends' reads at scale: Daily 5 scores at 10,000 players, a link opened by one of 500 \
            friends, a 500-friend list (also in --all).
            """
    )
    var social = false
    @Option(help: "Recipients for the broadcast figure.") var broadcastRecipients = 1_000
    @Flag(help: "Only the practice tests' blueprint: per launch state (and KY), each fixed test's state questions.")
    var blueprint = false
    @Flag(help: "Only the readiness calibration: simulated learners, predicted vs true pass rate (also in --all).")
    var calibration = false
    @Option(help: "Calibration: states to simulate (comma-separated).") var calibrationStates = "TX,NY,CA,OH"
    @Option(help: "Calibration: learners per study pattern and state.") var calibrationLearners = 40
    @Option(help: "Calibration: simulated days.") var calibrationDays = 21
    @Option(
        help:
            """
            Only the load test: simulated learners running /start → state → Quick quiz → 10 questions at once, \
            e.g. 200,1000 (also in --all).
            """
    )
    var load: String?
    @Option(help: "Load test: with the fake enforcing Telegram's flood limits (off, on, both).") var floodLimits =
        "both"
    @Flag(
        help:
            """
            Only the memory figure: `permitready run` as its own process with 100,000 learners stored and 1,000 \
            mid-quiz.
            """
    )
    var rss = false
    @Flag(
        help:
            """
            Only the retention figure: database size after --retention-learners learners studied daily for 90 \
            days, pruning, backup and restore times.
            """
    )
    var retention = false
    @Option(help: "Learners for the retention figure.") var retentionLearners = 100_000

    @Option(help: "Only the ask-the-tutor figures: this folder's question set (Tests/AskSet), index build, answer CPU.")
    var askSet: String?
    @Flag(help: "With --ask-set: list the questions of the tuning half answered wrong.") var askMisses = false
    @Flag(help: "With --ask-set: search the judge's settings on the tuning half.") var askTune = false
    @Option(help: "Drills only: commit synthetic learners steadily into this database, one line per commit.")
    var writeLoad: String?
    @Option(help: "With --write-load: commits per second.") var perSecond: Double = 20
    @Option(help: "With --write-load: stop after this many seconds (0: until killed).") var seconds: Double = 0
    @Option(help: "With --write-load: first chat id.") var firstChat: Int64 = 1

    func run() async throws {
        if let writeLoad {
            return try DrillData.writeLoad(
                database: writeLoad, perSecond: perSecond, seconds: seconds, firstChat: firstChat)
        }
        if let askSet {
            let suites = BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory)
            if askTune { return try suites.askTune(directory: askSet) }
            return try suites.askSet(directory: askSet, showMisses: askMisses)
        }
        if rss { return try await memoryFigure(stored: 100_000, active: 1_000) }
        if retention {
            return try BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory).retention(
                learners: retentionLearners, days: 90)
        }
        if let load {
            for n in load.split(separator: ",").compactMap({ Int($0) }) {
                for limits in floodLimits == "both" ? [false, true] : [floodLimits == "on"] {
                    try await loadTest(learners: n, floodLimits: limits)
                }
            }
            return
        }
        if let loadChallenge { return try await challengeLoad(friends: loadChallenge) }
        if social {
            return try BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory).social(
                players: 10_000, friends: 500)
        }
        if blueprint {
            return try BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory)
                .blueprintTable()
        }
        if calibration {
            let suites = BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory)
            return try suites.calibration(
                states: calibrationStates.split(separator: ",").map(String.init),
                learners: calibrationLearners, days: calibrationDays)
        }
        let levels = synchronous == "both" ? ["FULL", "NORMAL", "FULL", "NORMAL"] : [synchronous.uppercased()]
        for level in levels { try noNetwork(synchronous: level) }
        if loopback || all { try await loopbackRun() }
        guard all else { return }
        let suites = BenchSuites(banksDirectory: paths.config(token: "", defaultDB: "").banksDirectory)
        try suites.bankLoad()
        try suites.examAndReadiness()
        try suites.calibration(
            states: calibrationStates.split(separator: ",").map(String.init),
            learners: calibrationLearners, days: calibrationDays)
        suites.cards()
        try suites.nudgeList(learners: nudgeLearners)
        try suites.social(players: 10_000, friends: 500)
        try await suites.broadcast(recipients: broadcastRecipients, rate: 25)
    }

    /// Learners all at once through the real bot and libcurl against the fake Bot API (closed loop).
    func loadTest(learners count: Int, floodLimits: Bool) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        if floodLimits { fake.enforceRateLimits(globalPerSecond: 30, perChatSeconds: 1) }
        var config = paths.config(token: "0:fake-token-for-the-bench", defaultDB: "")
        config.databasePath = dir.appendingPathComponent("load.sqlite").path
        config.apiBase = fake.baseURL
        config.pollTimeout = 1
        let bot = try Bot.build(config)
        let task = Task { try await bot.run() }
        let rss0 = PeakMemory.current()
        let learners = LoadLearners(fake: fake, count: count)
        learners.start()
        // Under the limits each learner needs ~23 messages out of ~30/s shared by all (about 20/s
        // is reached with the 429 probing; 1,000 learners at a8c21ae were just short at 20/s).
        let report = learners.finish(timeout: floodLimits ? Double(count) * 23 / 15 + 120 : 600)
        task.cancel()
        _ = await task.result
        print(
            """
            load \(count) learners, flood limits \(floodLimits ? "on (30/s, 1/s per chat, burst 3)" : "off"): \
            \(report.summary); peak RSS \(PeakMemory.peakMiB()) MiB (\(rss0) MiB before)
            """
        )
        for s in report.stuck { print("  stuck: \(s)") }
        let log = fake.rateLimitLog
        if report.earlyRetries > 0 { print("  early: \(log.filter { $0.hasPrefix("early") }.prefix(5))") }
        print(
            "  429s: \(log.filter { $0.hasPrefix("global") }.count) overall, "
                + "\(log.filter { $0.hasPrefix("per-chat") }.count) per chat"
        )
        if !report.rejections.isEmpty { print("  rejected by the fake: \(report.rejections.prefix(3))") }
    }

    /// `friends` learners open one challenge link at the same moment and play its ten questions
    /// (issue #25): first-reply and tap latencies against the quiz load figures, no flood limits.
    func challengeLoad(friends count: Int) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-challenge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = paths.config(token: "0:fake-token-for-the-bench", defaultDB: "")
        config.databasePath = dir.appendingPathComponent("challenge.sqlite").path
        let banks = try BenchSuites(banksDirectory: config.banksDirectory).banks()
        let token = "Bench_Challenge_Token1"
        var maker = DrillData.learner(1, now: Date())
        maker.challengesMade = [
            Challenge(
                token: token, creatorChatID: 1, creatorName: "Maya",
                questionIDs: Array(banks.universal.filter { $0.kind != .fillIn }.prefix(10).map(\.id)),
                creatorCorrect: Array(repeating: true, count: 10), createdAt: Date(), expiresAt: Date() + 86_400)
        ]
        try TutorStore(path: config.databasePath).commit([maker], offset: nil)
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        config.apiBase = fake.baseURL
        config.pollTimeout = 1
        let bot = try Bot.build(config)
        let task = Task { try await bot.run() }
        let learners = LoadLearners(fake: fake, count: count, startPayload: "c" + token)
        learners.start()
        let report = learners.finish(timeout: 600)
        task.cancel()
        _ = await task.result
        let friends = (try? bot.store.friends(of: 1).count) ?? 0
        print(
            """
            challenge load: \(count) friends open one link at once and play its ten: \(report.summary); maker's \
            friends now \(friends)
            """
        )
        for s in report.stuck { print("  stuck: \(s)") }
        if !report.rejections.isEmpty { print("  rejected by the fake: \(report.rejections.prefix(3))") }
    }

    /// The whole runtime over real HTTP on loopback: the fake answers instantly, so this measures us.
    func loopbackRun() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        var config = paths.config(token: "0:fake-token-for-the-bench", defaultDB: "")
        config.databasePath = dir.appendingPathComponent("bench.sqlite").path
        config.apiBase = fake.baseURL
        config.pollTimeout = 1
        config.messagesPerSecond = 100_000  // the fake has no limit here: measure our own ceiling
        config.perChatPerSecond = 100_000
        let bot = try Bot.build(config)
        let learnersHere = min(learners, 200)
        let perLearner = min(updates, 40)
        for step in 0..<perLearner {
            for l in 0..<learnersHere {
                let chat = Int64(20_000 + l)
                switch step {
                case 0: fake.say("/start MA", chat: chat)
                case 1: fake.say("/quiz", chat: chat)
                default: fake.say(step % 2 == 0 ? ["A", "B", "C", "D"][(l + step) % 4] : "next", chat: chat)
                }
            }
        }
        let total = learnersHere * perLearner
        let started = ContinuousClock.now
        let task = Task { try await bot.run() }
        _ = fake.wait(timeout: 600) {
            fake.pendingUpdates == 0 && fake.allUpdatesConfirmed && (try? bot.store.pendingCount()) == 0
        }
        let wall = ContinuousClock.now - started
        task.cancel()
        let seconds = wall.inSeconds
        let sent = fake.calls.count
        print(
            """
            loopback (libcurl → fake Bot API on 127.0.0.1): \(total) updates from \(learnersHere) learners, \
            \(sent) Bot API calls, in \(String(format: "%.2f", seconds)) s: \
            \(String(format: "%.0f", Double(total) / seconds)) updates/s, \
            \(String(format: "%.0f", Double(sent) / seconds)) calls/s; rejected by the fake: \
            \(fake.rejections.count)
            """
        )
    }

    func noNetwork(synchronous: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = paths.config(token: "bench", defaultDB: dir.appendingPathComponent("bench.sqlite").path)
        config.databasePath = dir.appendingPathComponent("bench.sqlite").path
        config.sqliteSynchronous = synchronous
        if stored > 0 {
            // Other learners (ids apart from the synthetic ones), written before the bot opens the file.
            let store = try TutorStore(path: config.databasePath)
            var fill: [ChatChange] = []
            for chat in 1...stored {
                fill.append(DrillData.learner(Int64(1_000_000 + chat), now: Date()))
                if fill.count == 5_000 {
                    try store.commit(fill, offset: nil)
                    fill = []
                }
            }
            try store.commit(fill, offset: nil)
        }
        let bot = try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
        let script = SyntheticLearners(count: learners, updatesEach: updates)
        var timings: [Double] = []
        let started = ContinuousClock.now
        let cpuBefore = processCPUSeconds()
        var total = 0
        for b in script.batches(size: batch) {
            let t0 = ContinuousClock.now
            try bot.process(b)
            let elapsed = ContinuousClock.now - t0
            let perUpdate = elapsed.inSeconds / Double(b.count)
            timings.append(contentsOf: Array(repeating: perUpdate, count: b.count))
            total += b.count
        }
        let wall = ContinuousClock.now - started
        let cpu = processCPUSeconds() - cpuBefore
        let seconds = wall.inSeconds
        timings.sort()
        func pct(_ p: Double) -> String {
            String(format: "%.1f µs", timings[min(timings.count - 1, Int(Double(timings.count) * p))] * 1e6)
        }
        print(
            """
            no-network path (synchronous=\(synchronous)): \(total) updates from \(learners) \
            learners\(stored > 0 ? " (\(stored) more stored)" : "") in batches of \(batch): \
            \(String(format: "%.0f", Double(total) / seconds)) updates/s; per update (batch mean) p50 \
            \(pct(0.5)), p99 \(pct(0.99)); CPU \(String(format: "%.0f", cpu / Double(max(total, 1)) * 1e6)) µs \
            per update (every core: what to take from the loopback figure's bot CPU per update)
            """
        )
        let counted = Double(bot.metrics.updateCPUNanoseconds.load(ordering: .relaxed)) / 1e9
        print(
            "  the bot's own count of that CPU (permitready_update_cpu_seconds_total, what the --rss figure's split "
                + "uses): \(String(format: "%.0f", counted / Double(max(total, 1)) * 1e6)) µs per update"
        )
        print("outbox rows pending: \(try bot.store.pendingCount())")
    }
}

/// Resident memory from /proc/self/status (Linux): now and the peak so far (VmHWM).
enum PeakMemory {
    static func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return (Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "0") ?? 0) / 1024
        }
        return 0
    }
    static func current() -> Int { field("VmRSS:") }
    static func peakMiB() -> Int { field("VmHWM:") }
}

/// A figure that could not be measured, and why.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// User + system CPU this process has used, on every core.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
