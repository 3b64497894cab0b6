import Drills
import FakeBotAPI
import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

#if canImport(Glibc)
    import Glibc
#endif

/// Running it for real: backups that restore, health, systemd's watchdog, metrics, pruning.
@Suite(.serialized) struct OperationsTests {
    static let binary = "\(repoRoot)/.build/debug/permitready"

    /// Runs the real CLI as a separate process; returns its exit status and output.
    func cli(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = arguments
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aBackupTakenWhileWritingRestoresEveryCommittedLearnerInAFreshProcess() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let store = try TutorStore(path: live)
        for chat in 1...2_000 { try store.commit([DrillData.learner(Int64(chat), now: Date())], offset: nil) }
        // A writer keeps committing while the backup runs, as the bot would.
        let committed = Locked<Int64>(2_000)
        let writing = Task.detached {
            var chat: Int64 = 2_001
            while !Task.isCancelled {
                try? store.commit([DrillData.learner(chat, now: Date())], offset: nil)
                committed.withLock { $0 = chat }
                chat += 1
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let beforeBackup = committed.withLock { $0 }
        let backup = dir.appendingPathComponent("backup.sqlite").path
        let backedUp = try store.backup(to: backup)
        writing.cancel()
        _ = await writing.value
        let afterBackup = committed.withLock { $0 }
        #expect(afterBackup > beforeBackup, "the writer went on during the backup")

        let restored = dir.appendingPathComponent("restored.sqlite").path
        let r = try cli(["restore", "--from", backup, "--db", restored])
        #expect(r.status == 0, "\(r.output)")
        let fresh = try TutorStore(path: restored)
        let counts = try fresh.counts()
        #expect(counts == backedUp)
        #expect(counts.learners >= Int(beforeBackup), "every learner committed before the backup began is there")
        // One snapshot: no learner without their answers and card (no half-written commit).
        #expect(
            counts.answers == counts.learners * 3 && counts.cards == counts.learners
                && counts.progressRows == counts.learners * 3)
        let missing = try fresh.rows(
            """
            SELECT COUNT(*) AS n FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c)
            WHERE x NOT IN (SELECT chat_id FROM learner)
            """, [beforeBackup])
        #expect(missing.first?["n"] == "0")
        let chat = try #require(try fresh.loadChat(42))
        #expect(chat.progress.count == 3 && chat.cards.count == 1)
    }

    /// An operator looking at `top -H` or a profile can tell the curl thread from Swift's workers.
    @Test func theCurlThreadCarriesItsNameWhereOperatorsLook() async throws {
        let transport = CurlTransport(baseURL: "http://127.0.0.1:9", token: "0:unused")
        defer { transport.shutdown() }
        func names() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        var seen: [String] = []
        for _ in 0..<100 where !seen.contains(CurlTransport.threadName) {
            try await Task.sleep(for: .milliseconds(20))
            seen = names()
        }
        #expect(seen.contains(CurlTransport.threadName), "threads: \(Set(seen).sorted())")
    }

    @Test func restoreRefusesABrokenBackupAndARunningBot() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let store = try TutorStore(path: live)
        try store.commit([DrillData.learner(7, now: Date())], offset: nil)
        let garbage = dir.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: garbage))
        let broken = try cli(["restore", "--from", garbage, "--db", live])
        #expect(broken.status != 0)
        #expect(broken.output.contains("not a usable PermitReady backup"), "\(broken.output)")
        #expect(try TutorStore(path: live).counts().learners == 1, "nothing was replaced")

        let backup = dir.appendingPathComponent("b.sqlite").path
        try store.backup(to: backup)
        // A process holding the database (here: this one, as the running bot would) blocks a restore.
        var lock: DatabaseLock? = try DatabaseLock(database: live)
        let running = try cli(["restore", "--from", backup, "--db", live])
        #expect(
            running.status != 0 && running.output.contains("stop it first")
                && running.output.contains("pid \(getpid())"), "\(running.output)")
        lock = nil
        // After a stop (the lock released, however the process ended) no --force is needed.
        let stopped = try cli(["restore", "--from", backup, "--db", live])
        #expect(stopped.status == 0, "\(stopped.output)")
        _ = lock
        #expect(try cli(["backup", "--to", backup, "--db", live]).output.contains("already exists"))
    }

    /// Each restore keeps what it replaced under a name of its own, and a file that is not a
    /// database at all is moved aside, not read.
    @Test func restoreKeepsEveryReplacedDatabaseAndWorksOverADamagedOne() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let backup = dir.appendingPathComponent("b.sqlite").path
        do {
            let store = try TutorStore(path: live)
            try store.commit([DrillData.learner(1, now: Date())], offset: nil)
            try store.backup(to: backup)
            try store.commit([DrillData.learner(2, now: Date())], offset: nil)
        }
        #expect(try cli(["restore", "--from", backup, "--db", live]).status == 0)
        #expect(try cli(["restore", "--from", backup, "--db", live]).status == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("live.sqlite.before-restore-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        #expect(kept.count == 2, "\(kept)")
        let keptLearners = try kept.map { try TutorStore.inspectBackup(dir.appendingPathComponent($0).path).learners }
            .sorted()
        #expect(keptLearners == [1, 2], "the first restore's original (2 learners) is still there")

        // The live file is garbage now: restore still works, and keeps the garbage aside.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: live + suffix) }
        try Data(repeating: 0x42, count: 4_096).write(to: URL(fileURLWithPath: live))
        let over = try cli(["restore", "--from", backup, "--db", live])
        #expect(over.status == 0, "\(over.output)")
        #expect(try TutorStore(path: live).counts().learners == 1)
        let all = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("live.sqlite.before-restore-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        #expect(all.count == 3)
    }

    /// Maintenance never migrates, and nothing touches a database a newer binary migrated.
    @Test func commandsRefuseANewerSchemaAndMaintenanceNeverMigrates() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let store = try TutorStore(path: live)
        try store.commit([DrillData.learner(1, now: Date())], offset: nil)
        try store.execute("INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')")
        let last = try #require(try store.appliedMigrations().last)
        for command in [
            ["health"], ["stats"], ["backup", "--to", dir.appendingPathComponent("x.sqlite").path], ["prune"],
            ["migrate"],
        ] {
            let r = try cli(command + ["--db", live])
            #expect(
                r.status != 0 && r.output.contains("newer PermitReady") && r.output.contains("v99-from-the-future")
                    && r.output.contains(last),
                "\(command[0]): \(r.output)")
        }
        // A database that is not yet migrated: backup copies it as it is (no migration).
        let older = dir.appendingPathComponent("older.sqlite").path
        try TutorStore(path: older).execute("DELETE FROM grdb_migrations WHERE identifier = ?", [last])
        let before = try TutorStore(path: older, access: .readOnly).appliedMigrations()
        #expect(try cli(["backup", "--to", dir.appendingPathComponent("y.sqlite").path, "--db", older]).status == 0)
        #expect(
            try TutorStore(path: older, access: .readOnly).appliedMigrations() == before, "backup did not migrate it")
        let stale = try cli(["prune", "--db", older])
        #expect(stale.status != 0 && stale.output.contains("permitready migrate"), "\(stale.output)")
    }

    @Test func operatorErrorsNameTheFileAndSayWhatHappened() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        _ = try TutorStore(path: live)
        let missing = try cli([
            "backup", "--to", dir.appendingPathComponent("no/such/folder/b.sqlite").path, "--db", live,
        ])
        #expect(
            missing.status != 0 && missing.output.contains("the folder") && missing.output.contains("does not exist"),
            "\(missing.output)")
        // A full disk, as SQLite reports it (SQLITE_FULL), made by capping the file's pages.
        let store = try TutorStore(path: live)
        let pages = try #require(try store.rows("PRAGMA page_count").first?.values.first.flatMap { Int($0) })
        try store.execute("PRAGMA max_page_count = \(pages + 2)")
        var failure: (any Error)?
        for chat in 1...500 where failure == nil {
            do { try store.commit([DrillData.learner(Int64(chat), now: Date())], offset: nil) } catch {
                failure = error
            }
        }
        let said = "\(try #require(failure))"
        #expect(said == "\(live): no space left on the disk", "\(said)")
    }

    /// The command line's broadcast checks exactly what the chat's /broadcast checks.
    @Test func commandLineBroadcastValidatesLikeTheChat() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let store = try TutorStore(path: live)
        try store.commit([DrillData.learner(1, now: Date())], offset: nil)
        let common = ["--db", live, "--banks", "\(repoRoot)/Banks", "--prompts", "\(repoRoot)/Prompts/en"]
        let blank = try cli(["broadcast", "--to", "all", "--text", "   ", "--send"] + common)
        #expect(blank.status != 0 && blank.output.contains("no note"), "\(blank.output)")
        let empty = try cli(["broadcast", "--to", "all", "--text", "", "--send"] + common)
        #expect(
            empty.status != 0 && empty.output.contains("no note") && !empty.output.contains("CHECK"), "\(empty.output)")
        let nowhere = try cli(["broadcast", "--to", "ZZ", "--text", "hi", "--send"] + common)
        #expect(nowhere.status != 0 && nowhere.output.contains("\"ZZ\" is not a state code"), "\(nowhere.output)")
        let nobody = try cli(["broadcast", "--to", "new york", "--text", "hi", "--send"] + common)
        #expect(nobody.status != 0 && nobody.output.contains("nobody would get it"), "\(nobody.output)")
        let preview = try cli(["broadcast", "--to", "texas", "--text", "  New signs are in  "] + common)
        #expect(
            preview.status == 0 && preview.output.contains("To 1 Texas learner.")
                && preview.output.contains("From the PermitReady team"), "\(preview.output)")
        #expect(try store.rows("SELECT COUNT(*) AS n FROM broadcast").first?["n"] == "0", "nothing was queued")
        let sent = try cli(["broadcast", "--to", "TX", "--text", "New signs are in", "--send"] + common)
        #expect(sent.status == 0)
        #expect(try store.rows("SELECT text FROM broadcast").first?["text"] == "New signs are in")
    }

    /// #39 item 12: the command line's stats count "today" by the bot's clock (PERMITREADY_FAKE_NOW
    /// in a demo) and show learners who have no state yet, so the lines add up to the total.
    @Test func commandLineStatsUseTheBotsClockAndCountLearnersWithNoState() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.sqlite").path
        let store = try TutorStore(path: live)
        let demoDay = Date(timeIntervalSince1970: 1_900_000_000)  // 2030, long after the real today
        try store.commit([DrillData.learner(1, now: demoDay), DrillData.learner(2, now: demoDay)], offset: nil)
        try store.execute("UPDATE learner SET state_code = NULL WHERE chat_id = 2")
        let stats = try cli(["stats", "--db", live], environment: ["PERMITREADY_FAKE_NOW": "2030-03-17T18:00:00Z"])
        #expect(stats.status == 0)
        #expect(stats.output.contains("learners 2 · active today 2"), "\(stats.output)")
        #expect(stats.output.contains("TX 1") && stats.output.contains("no state yet 1"), "\(stats.output)")
        let everyone = try cli([
            "broadcast", "--to", "all", "--text", "Hi", "--db", live,
            "--banks", "\(repoRoot)/Banks", "--prompts", "\(repoRoot)/Prompts/en",
        ])
        #expect(everyone.output.contains("To 1 learner (everyone)."), "\(everyone.output)")
    }

    @Test func healthFollowsTheHeartbeatAndSystemdHearsReadyThenWatchdog() async throws {
        // systemd's side of NOTIFY_SOCKET: a datagram socket we read.
        let socketPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "n-\(UUID().uuidString.prefix(8)).sock"
        ).path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer {
            close(fd)
            unlink(socketPath)
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in socketPath.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let h = try Harness()
        h.config.notifySocket = socketPath
        h.config.heartbeatEverySeconds = 0
        let db = h.config.databasePath
        #expect(try cli(["health", "--db", db]).status != 0, "no database yet: unhealthy")
        try h.start()
        func receive() -> String {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        }
        #expect(receive().hasPrefix("READY=1"))
        #expect(receive() == "WATCHDOG=1", "each later good poll pets the watchdog")
        let healthy = try cli(["health", "--db", db])
        #expect(healthy.status == 0 && healthy.output.hasPrefix("healthy"), "\(healthy.output)")
        await h.kill()
        // A bot that stopped polling: its last heartbeat grows old.
        try h.bot?.store.writeHeartbeat(Date().addingTimeInterval(-600))
        let stale = try cli(["health", "--db", db, "--max-age", "120"])
        #expect(stale.status != 0 && stale.output.contains("600 s ago"), "\(stale.output)")
    }

    @Test func metricsAreWrittenInPrometheusTextFormat() async throws {
        let h = try Harness()
        let file = h.dir.appendingPathComponent("permitready.prom").path
        h.config.metricsFile = file
        h.config.metricsEverySeconds = 0.2
        try h.start()
        h.fake.say("/start NY", chat: 77)
        #expect(h.waitForText(77, "Questions seen"))
        #expect(h.fake.press("⚡ Quick quiz", chat: 77))
        #expect(h.waitForText(77, "Q1/10"))
        var text = ""
        #expect(
            h.fake.wait {
                text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                return text.contains(#"permitready_messages_sent_total{kind="tap_answer"} 1"#)
            }, "\(text)")
        #expect(text.contains(#"permitready_updates_total{outcome="processed"} 2"#))
        #expect(text.contains("# TYPE permitready_commit_seconds histogram"))
        #expect(text.contains("permitready_learners 1"))
        #expect(text.contains("permitready_outbox_pending"))
        // The engine's share of the CPU: counted, and part of the process's.
        func sample(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                Double($0.split(separator: " ").last ?? "")
            }
        }
        let engine = try #require(sample("permitready_update_cpu_seconds_total"), "\(text)")
        let process = try #require(sample("process_cpu_seconds_total"), "\(text)")
        #expect(engine > 0 && engine < process, "update CPU \(engine) s, process \(process) s")
        // Every sample line is `name{labels} value`, as the textfile collector requires.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(
                line.range(
                    of: #"^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[0-9.e+\-]+$"#,
                    options: .regularExpression) != nil, "\(line)")
        }
        await h.kill()
    }

    /// The learner gauges scan the learner table: a slow scan is spared for a while, a quick one isn't.
    @Test func aSlowLearnerCountIsNotRepeatedAtEveryMetricsWrite() {
        let now = Date()
        #expect(BotMetrics.nextLearnerCount(afterScanTaking: 0.001, now: now) == now, "a small database: every write")
        #expect(
            BotMetrics.nextLearnerCount(afterScanTaking: 0.010, now: now) == now.addingTimeInterval(10),
            "100,000 learners: 0.1% of a core")
        #expect(
            BotMetrics.nextLearnerCount(afterScanTaking: 2, now: now) == now.addingTimeInterval(300),
            "never older than 5 minutes")
    }

}

/// A 429 names no scope: the sender works it out from which chats get them.
