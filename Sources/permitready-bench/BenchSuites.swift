import Drills
import FakeBotAPI
import Foundation
import LearnerSimulation
import TelegramAPI
import TutorBot
import TutorCore
import TutorStore

/// Timing helpers for `permitready bench` (measured by hand in release builds; never in tests).
enum Timing {

    /// Runs `body` `runs` times and returns the median seconds per run.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let t0 = ContinuousClock.now
            try body()
            times.append((ContinuousClock.now - t0).inSeconds)
        }
        return times.sorted()[times.count / 2]
    }

    static func format(_ s: Double) -> String {
        s < 1e-3
            ? String(format: "%.1f µs", s * 1e6)
            : (s < 1 ? String(format: "%.2f ms", s * 1e3) : String(format: "%.2f s", s))
    }
}

/// The figures the issues ask for, each measured on its own.
struct BenchSuites {
    let banksDirectory: String

    func banks() throws -> Banks {
        guard let banks = try BankFiles.load(banksDirectory).banks else { throw BotError.banks(.invalid([])) }
        return banks
    }

    func bankLoad() throws {
        let sources = try BankFiles.read(banksDirectory)
        let bytes = sources.files.values.reduce(0) { $0 + $1.count }
        let t = try Timing.median(runs: 5) { _ = BankLoader.load(try BankFiles.read(banksDirectory)) }
        let banks = try self.banks()
        let lint = Timing.median(runs: 5) {
            _ = BankLint.lint(banks)
            _ = LessonLint.lint(banks)
        }
        print(
            "banks: \(banks.questionCount) questions, \(banks.signs.count) signs, \(banks.allLessons.count) lessons, "
                + "\(bytes / 1024) KiB of JSON; "
                    + """
                    read + load + validate: \(Timing.format(t)), lint (questions and lessons): \
                    \(Timing.format(lint)) (medians of 5)
                    """
        )
    }

    /// Blueprint check for the note: per launch state, the largest gap between a topic's count in
    /// fixed tests 1-4 and its quota, and the state's own questions per test against their quota.
    func blueprintTable() throws {
        let banks = try self.banks()
        print("blueprint (fixed tests 1-4): state · worst topic gap · state questions per test (quota)")
        for state in banks.states where state.launch || state.code == "KY" {
            let pool = banks.pool(for: state.code)
            let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
            var worst = 0
            var own: [Int] = []
            var ownQuota = 0
            let blueprints = SectionBlueprint.forTest(state.test, pool: pool)
            for n in 1...ExamBuilder.fixedTests {
                let exam = try ExamBuilder.fixedTest(n, state: state, pool: pool)
                var ownHere = 0
                for (s, blueprint) in blueprints.enumerated() {
                    let asked = exam.questionIDs.indices.filter { exam.sectionOfQuestion[$0] == s }.compactMap {
                        byID[exam.questionIDs[$0]]
                    }
                    for quota in blueprint.quotas {
                        worst = max(worst, abs(asked.filter { $0.category == quota.topic }.count - quota.total))
                    }
                    ownHere += asked.filter { $0.stateCode != nil }.count
                    if n == 1 { ownQuota += blueprint.quotas.reduce(0) { $0 + $1.stateOwn } }
                }
                own.append(ownHere)
            }
            print(
                "  \(state.code): worst gap \(worst) · own questions \(own.map(String.init).joined(separator: "/")) "
                    + "(quota \(ownQuota))"
            )
        }
    }

    func examAndReadiness() throws {
        let banks = try self.banks()
        try blueprintTable()
        for code in ["CA", "NY", "OH", "NC"] {
            guard let state = banks.state(code) else { continue }
            let pool = banks.pool(for: code)
            let fixed = try Timing.median(runs: 21) { _ = try ExamBuilder.fixedTest(3, state: state, pool: pool) }
            var r = SeededRandom(seed: 1)
            let random = try Timing.median(runs: 21) {
                _ = try ExamBuilder.randomTest(state: state, pool: pool, random: &r)
            }
            print(
                """
                practice test \(code) (\(state.test.questions ?? 0) q): fixed test \(Timing.format(fixed)), \
                random \(Timing.format(random))
                """
            )
        }
        // A learner with 5,000 answers spread over the CA pool.
        let state = banks.state("CA")!
        let pool = banks.pool(for: "CA")
        var rng = SeededRandom(seed: 9)
        var progress: [String: QuestionStats] = [:]
        let now = Date()
        for i in 0..<5_000 {
            let q = pool[Int(rng.next() % UInt64(pool.count))]
            var s = progress[q.id] ?? QuestionStats(lastAnsweredAt: now)
            s.record(correct: rng.unit() < 0.75, at: now.addingTimeInterval(-Double(5_000 - i) * 600), question: q)
            progress[q.id] = s
        }
        let t = Timing.median(runs: 51) {
            _ = Readiness.estimate(progress: progress, pool: pool, format: state.test, now: now)
        }
        print(
            "readiness for a learner with 5,000 answers (\(progress.count) questions): \(Timing.format(t)) per estimate"
        )
    }

    func cards() {
        let scheduler = FSRSScheduler()
        var rng = SeededRandom(seed: 4)
        let now = Date()
        var state = ChatState(learner: Learner(chatID: 1, userID: 1, firstName: "B", joinedAt: now))
        var ids = Set<String>()
        for i in 0..<2_500 {
            var card = FSRSCard.new(due: now.addingTimeInterval(-86_400 * 30))
            for r in 0..<4 {
                card = scheduler.review(
                    card, rating: [.good, .again, .easy, .hard][(i + r) % 4],
                    at: now.addingTimeInterval(Double(r - 30) * 86_400), random: &rng)
            }
            state.cards["q\(i)"] = card
            ids.insert("q\(i)")
        }
        var due = 0
        let pick = Timing.median(runs: 21) { due = state.dueCards(at: now, in: ids).count }
        var one = state.cards["q7"]!
        // Each run reviews the result of the last, so the work cannot be optimised away.
        let review = Timing.median(runs: 1_001) {
            one = scheduler.review(one, rating: .good, at: one.due, random: &rng)
        }
        _ = one.stability
        print(
            """
            flashcards: picking the due cards of 2,500 (\(due) due): \(Timing.format(pick)); rescheduling one \
            after an answer: \(Timing.format(review))
            """
        )
    }

    /// Friends' reads at scale (issue #25): today's Daily 5 scores of a state with `players` played
    /// (one indexed GROUP BY, the read behind "you beat 72%"), a challenge link opened by one of
    /// `friends` who played it (a primary-key lookup and an EXISTS), and the friends of a learner
    /// with `friends` friends (the Friends screen and the league line).
    func social(players: Int, friends: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-social-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try TutorStore(path: dir.appendingPathComponent("s.sqlite").path)
        let now = Date()
        let day = LocalDay(now, in: TimeZone(identifier: "America/Chicago")!)
        let token = String(repeating: "Q", count: 22)
        var batch: [ChatChange] = []
        for chat in 1...Int64(players) {
            var change = DrillData.learner(chat, now: now)
            change.dailyResults = [("TX", day, Int(chat % 6))]
            if chat == 1 {
                change.challengesMade = [
                    Challenge(
                        token: token, creatorChatID: 1, creatorName: "Maya", questionIDs: (1...10).map { "u-\($0)" },
                        creatorCorrect: Array(repeating: true, count: 10), createdAt: now, expiresAt: now + 7 * 86_400)
                ]
            } else if chat <= Int64(friends) + 1 {
                change.challengePlays = [(token, Array(repeating: false, count: 10))]
                change.newFriends = [1]
            }
            batch.append(change)
            if batch.count == 2_000 {
                try store.commit(batch, offset: nil)
                batch = []
            }
        }
        if !batch.isEmpty { try store.commit(batch, offset: nil) }
        var players0 = 0
        var found = false
        var listed = 0
        let scores = Timing.median(runs: 51) {
            players0 = (try? store.dailyScores(stateCode: "TX", day: day, excluding: 7))?.players ?? 0
        }
        let open = Timing.median(runs: 201) {
            if case .found(_, let played)? = try? store.challenge(token: token, openedBy: 3) { found = played }
        }
        let list = Timing.median(runs: 51) { listed = (try? store.friendSummaries(of: 1).count) ?? 0 }
        print(
            "friends at scale: Daily 5 scores of a state's day with \(players0 + 1) players: \(Timing.format(scores)) "
                + "per read; "
                + "a challenge link opened (lookup + played?, \(found ? "played" : "not played")): "
                + "\(Timing.format(open)); "
                + "the friends of a learner with \(listed) friends: \(Timing.format(list))")
    }

    /// Today's reminder list for 1,000,000 learners: an indexed range scan in SQL (next_nudge_at).
    func nudgeList(learners: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-nudges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try TutorStore(path: dir.appendingPathComponent("n.sqlite").path)
        let now = Date()
        let fill0 = ContinuousClock.now
        var batch: [ChatChange] = []
        var rng = SeededRandom(seed: 2)
        for i in 0..<learners {
            var l = Learner(chatID: Int64(i + 1), userID: Int64(i + 1), firstName: "L", stateCode: "TX", joinedAt: now)
            // Spread reminders over the next 24 hours: about 1/24 are due in any hour.
            l.nextNudgeAt = now.addingTimeInterval(rng.unit() * 86_400 - 3_600)
            batch.append(ChatChange(before: nil, after: ChatState(learner: l), answers: [], outbox: []))
            if batch.count == 10_000 {
                try store.commit(batch, offset: nil)
                batch = []
            }
        }
        try store.commit(batch, offset: nil)
        let fill = (ContinuousClock.now - fill0).inSeconds
        var due = 0
        let t = try Timing.median(runs: 5) { due = try store.dueNudges(now: now, limit: 1_000_000).count }
        print(
            """
            reminders: \(learners) learners written in \(Timing.format(fill)); today's due list (\(due) due now) \
            in SQL via the next_nudge_at index: \(Timing.format(t))
            """
        )
    }

    /// Broadcast throughput against the fake Bot API enforcing 30/s overall and per-chat pacing.
    func broadcast(recipients: Int, rate: Double) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-bcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        fake.enforceRateLimits(globalPerSecond: 30, perChatSeconds: 1)
        var config = Config(
            token: "0:fake-token-for-the-bench", apiBase: fake.baseURL,
            databasePath: dir.appendingPathComponent("b.sqlite").path, banksDirectory: banksDirectory,
            promptsDirectory: "Prompts/en", pollTimeout: 1, messagesPerSecond: rate)
        config.admins = [1]
        let bot = try Bot.build(config)
        var seeded: [ChatChange] = []
        for i in 0..<recipients {
            let l = Learner(
                chatID: Int64(10_000 + i), userID: Int64(10_000 + i), firstName: "L", stateCode: "TX", joinedAt: Date())
            seeded.append(ChatChange(before: nil, after: ChatState(learner: l), answers: [], outbox: []))
        }
        try bot.store.commit(seeded, offset: nil)
        let id = try bot.store.createBroadcast(
            stateCode: nil, text: "Bench note", adminChatID: nil, status: "sending", now: Date())
        let t0 = ContinuousClock.now
        let task = Task { try await bot.run() }
        _ = fake.wait(timeout: 3_600) { (try? bot.store.broadcast(id))??.status == "done" }
        let seconds = (ContinuousClock.now - t0).inSeconds
        task.cancel()
        _ = await task.result
        let achieved = Double(recipients) / seconds
        print(
            """
            broadcast: \(recipients) learners in \(String(format: "%.1f", seconds)) s = \
            \(String(format: "%.1f", achieved)) msg/s at a configured \(Int(rate))/s \
            (\(Int(achieved / rate * 100))%); 429s from the fake: \(fake.rateLimited)
            """
        )
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
