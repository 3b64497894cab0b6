import FakeBotAPI
import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// The repository root, found from this file's path (Tests/TutorBotTests/…).
let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// A real bot (libcurl, SQLite, prompts, banks) long-polling a fake Bot API on 127.0.0.1.
final class Harness: @unchecked Sendable {
    // @unchecked Sendable: used from one test at a time; the fake and the bot are thread-safe.
    let fake: FakeBotAPI
    let dir: URL
    var config: Config
    var bot: Bot?
    var task: Task<Void, Error>?

    init() throws {
        fake = try FakeBotAPI()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        config = Config(
            token: "0:fake-token-for-tests", apiBase: fake.baseURL,
            databasePath: dir.appendingPathComponent("bot.sqlite").path,
            banksDirectory: ProcessInfo.processInfo.environment["PERMITREADY_TEST_BANKS"] ?? "\(repoRoot)/Banks",
            promptsDirectory: "\(repoRoot)/Prompts/en",
            pollTimeout: 1, messagesPerSecond: 200)
    }

    func start() throws {
        let bot = try Bot.build(config)
        self.bot = bot
        task = Task { try await bot.run() }
    }

    /// Stops the process the way a kill between batches does: no more polling, nothing flushed.
    func kill() async {
        task?.cancel()
        _ = await task?.result
        task = nil
    }

    deinit {
        task?.cancel()
        fake.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    func lastText(_ chat: Int64) -> String { fake.messages(chat: chat).last?.text ?? "" }

    func waitForText(_ chat: Int64, _ needle: String) -> Bool {
        fake.wait { fake.messages(chat: chat).contains { $0.text.contains(needle) } }
    }
}

@Suite(.serialized) struct EndToEndTests {
    let chat: Int64 = 5001

    @Test func learnerGoesFromStartThroughAQuizToReview() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        #expect(h.fake.press("Massachusetts", chat: chat))
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(h.fake.press("⚡ Quick quiz", chat: chat))
        for n in 1...10 {
            #expect(h.waitForText(chat, "Q\(n)/10"), "question \(n) arrives")
            let question = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Q\(n)/10") })
            // Alternate tapping and typing, as teens do.
            // A fill-in question has no buttons and takes no letter: a word answers it (wrongly, here).
            if n % 2 == 0 || !h.fake.press("A", chat: chat) {
                h.fake.say(question.buttons.isEmpty ? "maybe" : "b", chat: chat)
            }
            #expect(
                h.fake.wait {
                    h.fake.messages(chat: chat).contains { $0.messageID == question.messageID && $0.text.contains("📘") }
                },
                "question \(n) is edited to show the answer")
            #expect(h.fake.press(n == 10 ? "See results" : "Next", chat: chat))
        }
        #expect(h.waitForText(chat, "Quick quiz done!"))
        let results = try #require(h.fake.messages(chat: chat).last { $0.text.contains("done!") })
        #expect(results.text.contains("/ 10"))
        #expect(results.text.contains("72%"), "scored against Massachusetts' 72% bar")

        let store = try #require(h.bot?.store)
        let answers = try store.rows("SELECT COUNT(*) AS n, SUM(correct) AS c FROM answer WHERE chat_id = ?", [chat])
        #expect(answers.first?["n"] == "10")
        let missed = 10 - Int(answers.first?["c"] ?? "0")!
        if missed > 0 {
            #expect(h.fake.press("🔁 Review my misses", chat: chat))
            #expect(h.waitForText(chat, "Q1/\(missed)"))
        }
        #expect(h.fake.wait { h.fake.unansweredCallbacks.isEmpty }, "every button press is acknowledged")
        #expect(h.fake.callbacksAnsweredTwice.isEmpty)
        #expect(h.fake.rejections.isEmpty, "the bot sent nothing Telegram would reject: \(h.fake.rejections)")
        await h.kill()
    }

    @Test func strayInputGetsAFriendlyLineAndTheCurrentScreen() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start MA", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        // Home has arrived and its row is marked sent (a reply shown but not yet marked still
        // counts as queued, and stray input behind queued replies gets none: a race on a busy CI).
        #expect(h.fake.wait { (try? h.bot?.store.pendingCount(chatID: chat)) == 0 })
        let before = h.fake.messages(chat: chat).count
        h.fake.sendSticker(chat: chat)
        #expect(h.waitForText(chat, "I can only read text"))
        let home = try #require(h.fake.messages(chat: chat).last)
        h.fake.pressData("1a:999:0:0", messageID: home.messageID, chat: chat)  // a button from a quiz that never was
        h.fake.pressData("not-our-format", messageID: home.messageID, chat: chat)  // forged
        h.fake.say(String(repeating: "x", count: 4000), chat: chat)
        // A sticker gets a line and the home screen; the two bad buttons a popup and the home screen; the
        // long text, arriving while those replies are still queued, is merged into them (backpressure:
        // stray input never queues more replies behind unsent ones).
        #expect(h.fake.wait { h.fake.messages(chat: chat).count >= before + 4 && h.fake.unansweredCallbacks.isEmpty })
        let toasts = h.fake.calls.filter { $0.method == "answerCallbackQuery" }.compactMap {
            $0.body["text"] as? String
        }
        #expect(toasts.contains { $0.contains("earlier screen") })
        #expect(toasts.contains { $0.contains("didn't work") })
        #expect(h.lastText(chat).contains("Questions seen"), "the learner ends on their home screen")
        let session = try #require(try h.bot?.store.loadChat(chat))
        #expect(session.session.quiz == nil)
        #expect(session.learner.stateCode == "MA")
        #expect(h.fake.rejections.isEmpty)
        await h.kill()
    }

    /// "Delete my data" erases the chat's queued rows with it: the sender, which holds its own copy
    /// of the queue, reads the chat again, says goodbye, and a new /start is answered as a newcomer.
    @Test func deletingYourDataEndsWithTheGoodbyeAndStartingAgainWorks() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start MA", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(h.fake.press("⚙️ Settings", chat: chat))
        #expect(h.waitForText(chat, "State: Massachusetts"))
        #expect(h.fake.wait { h.fake.press("🗑 Delete my data", chat: chat) })
        #expect(h.waitForText(chat, "Delete all your data?"))
        #expect(h.fake.press("Yes, delete everything", chat: chat))
        #expect(h.waitForText(chat, "everything PermitReady knew about you is erased"))
        let goodbye = h.fake.messages(chat: chat).count
        let store = try #require(h.bot?.store)
        #expect(try store.loadChat(chat) == nil)
        #expect(h.fake.wait { (try? store.pendingCount(chatID: chat)) == 0 })
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        #expect(
            h.fake.messages(chat: chat).dropFirst(goodbye).allSatisfy { !$0.text.contains("Questions seen") },
            "nothing queued before the erase arrives after it")
        #expect(h.fake.rejections.isEmpty)
        await h.kill()
    }

    @Test func rateLimitIsWaitedOutForExactlyRetryAfter() async throws {
        let h = try Harness()
        h.fake.inject(
            "sendMessage", status: 429,
            body: [
                "ok": false, "error_code": 429,
                "description": "Too Many Requests: retry after 1", "parameters": ["retry_after": 1],
            ])
        try h.start()
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        let sends = h.fake.calls.filter { $0.method == "sendMessage" }
        try #require(sends.count >= 2)
        #expect(sends[1].time.timeIntervalSince(sends[0].time) >= 0.95, "the retry waited for retry_after")
        #expect(h.fake.messages(chat: chat).first?.text.contains("Hey Sam") == true, "order kept: welcome first")
        await h.kill()
    }

    @Test func serverErrorsAndDroppedPollsAreRetried() async throws {
        let h = try Harness()
        h.fake.inject("getUpdates", status: 502, body: ["ok": false, "error_code": 502, "description": "Bad Gateway"])
        h.fake.inject(
            "sendMessage", status: 500, body: ["ok": false, "error_code": 500, "description": "Internal Server Error"])
        try h.start()
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        #expect(h.bot?.counters.commitFailures == 0)
        await h.kill()
    }

    @Test func blockedLearnerIsNeverMessagedAgain() async throws {
        let h = try Harness()
        h.fake.inject(
            "sendMessage", status: 403,
            body: ["ok": false, "error_code": 403, "description": "Forbidden: bot was blocked by the user"])
        try h.start()
        h.fake.say("/start", chat: chat)
        let store = try #require(h.bot?.store)
        #expect(h.fake.wait { (try? store.loadChat(chat))??.learner.blocked == true })
        #expect(h.fake.wait { (try? store.pendingCount()) == 0 }, "the rest of their queue is dropped")
        await h.kill()
    }

    /// A tap is answered at once: never behind the chat's paced messages (the first build
    /// answered taps through the chat's queue and a global bucket, a minute late at 1,000 learners).
    @Test func aTapIsAnsweredBeforeTheChatsPacedMessages() async throws {
        let h = try Harness()
        h.config.perChatPerSecond = 0.25  // one message every 4 s: the quiz's first question waits
        try h.start()
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(h.fake.press("⚡ Quick quiz", chat: chat))
        // Once that tap is answered its question waits for the chat's pace; a second tap now
        // must not wait behind it.
        #expect(h.fake.wait { h.fake.calls.contains { $0.method == "answerCallbackQuery" } })
        #expect(h.fake.press("📊 Progress", chat: chat))
        #expect(h.waitForText(chat, "Q1/10"))
        let calls = h.fake.calls.map(\.method)
        #expect(calls.filter { $0 == "answerCallbackQuery" }.count == 2)
        let lastTap = try #require(calls.lastIndex(of: "answerCallbackQuery"))
        let question = try #require(
            h.fake.calls.lastIndex {
                $0.method.hasPrefix("send")
                    && (($0.body["text"] as? String) ?? ($0.body["caption"] as? String) ?? "").contains("Q1/10")
            })
        #expect(lastTap < question, "the tap was answered before the paced question went out")
        #expect(h.fake.unansweredCallbacks.isEmpty)
        await h.kill()
    }

    /// A chat's messages keep Telegram's per-chat pace (a burst of 3, then one per 1/rate s), and
    /// go on time: the waits are released by the sender's looks, not a timer each, and a release
    /// that missed would leave a message for the loop's 1-second fallback look, or for ever.
    @Test func aChatsMessagesKeepItsPaceAndNoneWaitsLonger() async throws {
        let h = try Harness()
        let rate = 4.0
        h.config.perChatPerSecond = rate
        try h.start()
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        try await Task.sleep(for: .seconds(1))  // the burst refilled
        let before = h.fake.calls.count
        let asks = 9
        for _ in 0..<asks {
            h.fake.say("/help", chat: chat)
            try await Task.sleep(for: .milliseconds(30))
        }
        func sent() -> [Date] {
            h.fake.calls.dropFirst(before).filter { $0.method.hasPrefix("send") || $0.method.hasPrefix("edit") }.map(
                \.time)
        }
        #expect(h.fake.wait { sent().count >= asks }, "every /help answered: \(sent().count)")
        let times = sent()
        for i in times.indices {
            for j in times.indices where j > i {
                // n messages in a row need (n - burst) / rate seconds at least (10 ms for the clocks).
                let needed = Double(j - i + 1 - Int(OutboxSender.chatBurst)) / rate - 0.01
                #expect(
                    times[j].timeIntervalSince(times[i]) >= needed,
                    "messages \(i + 1)...\(j + 1) came in \(times[j].timeIntervalSince(times[i])) s")
            }
        }
        let span = try #require(times.last).timeIntervalSince(try #require(times.first))
        let paced = Double(times.count - Int(OutboxSender.chatBurst)) / rate
        #expect(span < paced + 0.5, "\(times.count) messages took \(span) s; their pace alone needs \(paced) s")
        await h.kill()
    }

    @Test func processKilledBetweenBatchesResumesWithNothingLostOrRepeated() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(h.fake.press("⚡ Quick quiz", chat: chat))
        #expect(h.waitForText(chat, "Q1/10"))
        await h.kill()

        // While the bot is down the learner answers and moves on; Telegram keeps the updates.
        if !h.fake.press("B", chat: chat) { h.fake.say("maybe", chat: chat) }  // a fill-in question is typed (a word, not a letter)
        h.fake.say("next", chat: chat)
        try h.start()
        #expect(h.waitForText(chat, "Q2/10"), "the quiz resumes exactly where it was")
        #expect(h.fake.wait { h.fake.allUpdatesConfirmed && h.fake.unansweredCallbacks.isEmpty })
        let store = try #require(h.bot?.store)
        #expect(
            try store.rows("SELECT COUNT(*) AS n FROM answer WHERE chat_id = ?", [chat]).first?["n"] == "1",
            "answered once, not twice")
        #expect(h.fake.callbacksAnsweredTwice.isEmpty)
        #expect(h.fake.messages(chat: chat).filter { $0.text.contains("Q2/10") }.count == 1)
        #expect(h.fake.rejections.isEmpty)
        await h.kill()
    }

    // MARK: - under load (issue: fast under load). Small here; full size in `permitready bench --load 200,1000`.

    @Test func manyLearnersAtOnceAllFinishWithEveryTapAnsweredAndNothingDoubled() async throws {
        let h = try Harness()
        h.config.perChatPerSecond = 50  // the fake enforces nothing here: measure the flow, not Telegram's pace
        try h.start()
        let learners = LoadLearners(fake: h.fake, count: 60)
        learners.start()
        let r = learners.finish(timeout: 120)
        #expect(r.finished == 60, "every session finishes: \(r.summary) \(r.stuck)")
        #expect(
            r.unansweredTaps == 0 && r.lateTapAnswers == 0 && r.tapsAnsweredTwice == 0,
            "every tap answered once, in time: \(r.summary)")
        #expect(
            r.doubledQuestions == 0 && r.missingQuestions == 0, "each learner saw Q1…Q10 exactly once: \(r.summary)")
        #expect(r.rejections.isEmpty, "\(r.rejections.prefix(3))")
        #expect(LoadLearners.Report.percentile(r.tapAnswer, 0.99) < 15, "Telegram drops a tap answer after 15 s")
        let store = try #require(h.bot?.store)
        #expect(
            try store.rows("SELECT COUNT(*) AS n FROM answer").first?["n"] == "600",
            "ten answers per learner, none lost or doubled")
        // Each answer edits its question in place: the question's id was found though its "sent"
        // mark is written in batches (a miss would send the answer as a new message instead).
        #expect(h.fake.calls.filter { $0.method == "editMessageText" }.count == 600)
        #expect(h.fake.wait { (try? store.pendingCount()) == 0 }, "every delivered row is marked sent")
        await h.kill()
    }

    @Test func underTelegramsFloodLimitsNothingIsRetriedBeforeRetryAfter() async throws {
        let h = try Harness()
        h.fake.enforceRateLimits(globalPerSecond: 30, perChatSeconds: 1)
        h.config.perChatPerSecond = 1
        try h.start()
        let learners = LoadLearners(fake: h.fake, count: 45)
        learners.start()
        let r = learners.finish(timeout: 150)
        #expect(r.finished == 45, "every session finishes: \(r.summary) \(r.stuck)")
        #expect(
            r.earlyRetries == 0,
            "no request before its retry_after: \(h.fake.rateLimitLog.filter { $0.hasPrefix("early") }.prefix(3))")
        // A 429 for the bot as a whole pauses every chat until it ends (issue #39: 153 were sent inside one).
        #expect(h.fake.rateLimited > 0, "the load went over Telegram's limits")
        #expect(h.fake.sendsInsideGlobalWait == 0, "\(h.fake.rateLimitLog.filter { $0.hasPrefix("inside") }.prefix(3))")
        #expect(r.unansweredTaps == 0 && r.lateTapAnswers == 0, "every tap answered in time: \(r.summary)")
        #expect(r.doubledQuestions == 0 && r.missingQuestions == 0, "\(r.summary)")
        #expect(r.rejections.isEmpty, "\(r.rejections.prefix(3))")
        await h.kill()
    }
}
