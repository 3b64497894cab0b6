import ArgumentParser
import Drills
import FakeBotAPI
import Foundation
import Synchronization
import TelegramAPI
import TutorBot
import TutorCore
import TutorStore

extension PermitReadyBench {
    /// Peak resident memory of `permitready run` (its own process, read from /proc) with
    /// `stored` learners in the database and `active` of them in a quiz at once.
    func memoryFigure(stored: Int, active: Int) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-rss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("rss.sqlite").path
        let metricsFile = dir.appendingPathComponent("bot.prom").path
        let store = try TutorStore(path: db)
        var batch: [ChatChange] = []
        for chat in 1...stored {
            batch.append(DrillData.learner(Int64(chat), now: Date()))
            if batch.count == 5_000 {
                try store.commit(batch, offset: nil)
                batch = []
            }
        }
        try store.commit(batch, offset: nil)
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let p = Process()
        // The bot that ships, built beside this executable.
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("permitready")
        let c = paths.config(token: "", defaultDB: db)
        p.arguments = ["run", "--db", db, "--banks", c.banksDirectory, "--prompts", c.promptsDirectory]
        p.environment = [
            "TELEGRAM_BOT_TOKEN": "123456789:" + String(repeating: "A", count: 35), "TELEGRAM_API_BASE": fake.baseURL,
            "PERMITREADY_POLL_TIMEOUT": "1", "PATH": "/usr/bin:/bin",
            // Its own split of its CPU (permitready_update_cpu_seconds_total), read at the end.
            "PERMITREADY_METRICS_FILE": metricsFile, "PERMITREADY_METRICS_EVERY": "1",
            // As deploy/permitready.service runs it (two malloc arenas, not sixteen).
            "MALLOC_ARENA_MAX": ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] ?? "2",
        ]
        // Kept for when the bot stops early (a wrong folder, a broken bank): its last lines say why.
        let botLog = dir.appendingPathComponent("bot.log")
        _ = FileManager.default.createFile(atPath: botLog.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: botLog)
        try p.run()
        defer { p.terminate() }
        /// A bot that exited fails the figure at once, with its own words, instead of leaving the
        /// learners to wait out the 15-minute deadline.
        func stopIfTheBotExited() throws {
            guard !p.isRunning else { return }
            let said = ((try? String(contentsOf: botLog, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5)
                .joined(separator: "\n")
            throw BenchFailure(
                description:
                    """
                    permitready run exited (status \(p.terminationStatus)) before the learners finished; its \
                    last lines:\n\(said)
                    """
            )
        }
        // The split of resident memory when it is highest: heap and stacks (anonymous) against
        // mapped files (the binary's and libraries' pages, ICU's data), which other processes share.
        var split = ""
        var highestNow = 0
        func peak() -> Int {
            let text = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/status", encoding: .utf8)) ?? ""
            func kB(_ key: String) -> Int {
                let line = text.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
                return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
            }
            if kB("VmRSS:") > highestNow {
                highestNow = kB("VmRSS:")
                split =
                    """
                    \(kB("RssAnon:") / 1024) MiB anonymous, \(kB("RssFile:") / 1024) MiB mapped files; largest: \
                    \(largestMappings())
                    """
            }
            return kB("VmHWM:") / 1024
        }
        /// Resident memory by what is mapped (from /proc/PID/smaps): which file, or the heap.
        func largestMappings() -> String {
            // Read to the end: /proc files report no size, and a sized read stopped after a page.
            let file = FileHandle(forReadingAtPath: "/proc/\(p.processIdentifier)/smaps")
            defer { try? file?.close() }
            let text = String(decoding: (try? file?.readToEnd()) ?? Data(), as: UTF8.self)
            var byName: [String: Int] = [:]
            var current = "?"
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if let first = fields.first, first.contains("-"), fields.count >= 5 {
                    current =
                        fields.count >= 6
                        ? String(fields[5...].joined(separator: " ").split(separator: "/").last ?? "") : "anonymous"
                } else if fields.first == "Rss:", fields.count >= 2 {
                    byName[current, default: 0] += Int(fields[1]) ?? 0
                }
            }
            return byName.sorted { $0.value > $1.value }.prefix(5).map {
                "\($0.key) \(String(format: "%.1f", Double($0.value) / 1024))"
            }
            .joined(separator: ", ") + " MiB"
        }
        /// The bot's CPU so far (user and system, from /proc).
        func botCPUSeconds() -> Double {
            let stat =
                ((try? String(contentsOfFile: "/proc/\(p.processIdentifier)/stat", encoding: .utf8)) ?? "")
                .split(separator: ")").last?.split(separator: " ") ?? []
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            return stat.count > 12 ? ((Double(stat[11]) ?? 0) + (Double(stat[12]) ?? 0)) / ticks : 0
        }
        _ = fake.wait(timeout: 30) { !p.isRunning || fake.calls.contains { $0.method == "setMyCommands" } }
        try stopIfTheBotExited()
        let idle = peak()
        // Learner ids from the stored ones: the bot reads them from the database, as in real life.
        let learners = LoadLearners(fake: fake, count: active, firstChat: Int64(stored - active + 1))
        let cpuBeforeLoad = botCPUSeconds()
        learners.start()
        var highest = idle
        let deadline = Date().addingTimeInterval(900)
        while learners.report().finished < active && Date() < deadline {
            try stopIfTheBotExited()
            highest = max(highest, peak())
            try await Task.sleep(for: .milliseconds(200))
        }
        highest = max(highest, peak())
        let r = learners.report()
        // Who used the two cores: the bot's process, and this one (the fake Bot API and the learners).
        let botCPU = botCPUSeconds()
        let harnessCPU = processCPUSeconds()
        // The bot's own count of its engine's CPU, from its metrics file once it has been written
        // after the last update (every second; the bot is idle by then).
        try await Task.sleep(for: .milliseconds(1_500))
        let metrics = (try? String(contentsOfFile: metricsFile, encoding: .utf8)) ?? ""
        let engineCPU = metrics.split(separator: "\n").first { $0.hasPrefix("permitready_update_cpu_seconds_total ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
        print(
            """
            memory: permitready run with \(stored) learners stored \
            (\(ByteCountFormatter.string(fromByteCount: store.fileSize(), countStyle: .file)) database), \
            \(active) in a quiz at once: peak RSS \(highest) MiB (\(idle) MiB after start-up; at the highest \
            sample \(split)); \(r.summary)
            """
        )
        print(
            "  CPU: the bot \(String(format: "%.1f", botCPU)) s ("
                + "\(String(format: "%.0f", botCPU / Double(max(r.updates, 1)) * 1e6)) µs per update), the fake Bot "
                + "API and learners \(String(format: "%.1f", harnessCPU)) s (including filling the database)"
        )
        if let engineCPU {
            let perUpdate = { (seconds: Double) in String(format: "%.0f", seconds / Double(max(r.updates, 1)) * 1e6) }
            let duringLoad = botCPU - cpuBeforeLoad
            print(
                "  the bot's CPU per update during the load \(perUpdate(duringLoad)) µs = turning updates into replies "
                    + "(parsing, dialogue, commit; the bot's own count) \(perUpdate(engineCPU)) µs + the I/O path "
                    + "(requests, replies and their JSON, the sender, the poll loop) "
                    + "\(perUpdate(duringLoad - engineCPU)) µs"
            )
        } else {
            print("  (the bot's metrics file had no permitready_update_cpu_seconds_total: no split of its CPU)")
        }
    }
}
