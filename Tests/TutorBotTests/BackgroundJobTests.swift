import FakeBotAPI
import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// Admins, broadcasts, reminders, timers and pictures, end to end through the fake Bot API.
@Suite(.serialized) struct BackgroundJobTests {
    let admin: Int64 = 900
    let learner: Int64 = 5002

    @Test func adminCommandsWorkForAdminsOnly() async throws {
        let h = try Harness()
        h.config.admins = [admin]
        try h.start()
        h.fake.say("/start TX", chat: learner)
        #expect(h.waitForText(learner, "Questions seen"))
        h.fake.say("/stats", chat: learner)
        #expect(h.waitForText(learner, "didn't catch that"), "a learner gets the ordinary answer")
        #expect(!h.fake.messages(chat: learner).contains { $0.text.contains("stats") })

        h.fake.say("/stats", chat: admin)
        #expect(h.waitForText(admin, "PermitReady stats"))
        let stats = try #require(h.fake.messages(chat: admin).last)
        #expect(stats.text.contains("Learners: <b>1</b>") && stats.text.contains("TX: 1"))
        #expect(!stats.text.contains("no state picked yet"))
        // A learner who has not picked a state is counted where the states are listed (issue #39:
        // "Learners: 3" above a list of two).
        h.fake.say("/start", chat: learner + 1)
        #expect(h.waitForText(learner + 1, "Which state"))
        h.fake.say("/stats", chat: admin)
        #expect(
            h.fake.wait { h.fake.messages(chat: admin).last?.text.contains("no state picked yet: 1") == true },
            "\(h.fake.messages(chat: admin).last?.text ?? "")")

        h.fake.say("/reload", chat: admin)
        // Answered at once; the validation runs off the batch thread and its report follows (#39 item 3).
        #expect(h.waitForText(admin, "Reloading the banks"))
        #expect(h.waitForText(admin, "Banks reloaded"))
        h.fake.say("/broadcast", chat: admin)
        #expect(h.waitForText(admin, "/broadcast all Your note"))
        // A state by name works; a word that is no state says why; nobody to send to means no "Send to 0".
        h.fake.say("/broadcast texas New signs are in", chat: admin)
        #expect(h.waitForText(admin, "to <b>1</b> Texas learner:"))
        h.fake.say("/broadcast new york hello", chat: admin)
        #expect(h.waitForText(admin, "nobody would get this yet"))
        #expect(h.fake.messages(chat: admin).last?.buttons.joined().contains { $0.text.contains("Send to 0") } == false)
        h.fake.say("/broadcast nowhere hello", chat: admin)
        #expect(h.waitForText(admin, "\"nowhere\" is not a state code"))
        h.fake.say("/broadcast all Hi everyone", chat: admin)
        #expect(h.waitForText(admin, "learner (everyone)"))
        #expect(h.fake.rejections.isEmpty)
        await h.kill()
    }

    @Test func aBrokenBankIsRefusedOnReloadAndTheOldOneKept() async throws {
        let h = try Harness()
        let banks = h.dir.appendingPathComponent("Banks")
        try FileManager.default.copyItem(atPath: h.config.banksDirectory, toPath: banks.path)
        h.config.banksDirectory = banks.path
        h.config.admins = [admin]
        try h.start()
        let before = try #require(h.bot?.banks.questionCount)
        try Data(#"{"version": "9", "questions": [ {"id": "u-x"} ]"#.utf8).write(
            to: banks.appendingPathComponent("universal/signals.json"))
        h.fake.say("/reload", chat: admin)
        #expect(h.waitForText(admin, "NOT reloaded"))
        #expect(
            h.fake.messages(chat: admin).last?.text.contains("universal/signals.json") == true,
            "the problem names its file")
        #expect(h.bot?.banks.questionCount == before)
        await h.kill()
    }

    /// A broadcast to 800 learners under Telegram's limits (30/s overall, 1/s per chat):
    /// no 429, blocked learners skipped, and a restart in the middle sends nobody anything twice.
    @Test func broadcastReachesEveryLearnerOnceWithinLimitsAcrossARestart() async throws {
        let h = try Harness()
        h.config.admins = [admin]
        h.config.messagesPerSecond = 25
        let store = try TutorStore(path: h.config.databasePath)
        var seeded: [ChatChange] = []
        for i in 0..<800 {
            let chat = Int64(100_000 + i)
            let l = Learner(
                chatID: chat, userID: chat, firstName: "L\(i)", stateCode: i < 600 ? "TX" : "CA", joinedAt: Date())
            seeded.append(ChatChange(before: nil, after: ChatState(learner: l), answers: [], outbox: []))
        }
        try store.commit(seeded, offset: nil)
        let blocked = Set((0..<10).map { Int64(100_000 + $0 * 7) })
        h.fake.block(blocked)
        h.fake.enforceRateLimits(globalPerSecond: 30, perChatSeconds: 1)
        try h.start()
        h.fake.say("/broadcast TX 12 new Texas questions are in — try a quick quiz!", chat: admin)
        #expect(h.waitForText(admin, "Preview"))
        #expect(h.fake.messages(chat: admin).last?.text.contains("<b>600</b> Texas learners") == true)
        #expect(h.fake.press("📣 Send", chat: admin))
        #expect(
            h.fake.wait(timeout: 30) {
                h.fake.messages.filter {
                    $0.text.hasPrefix("📣 <b>From the PermitReady team</b>") && $0.text.contains("12 new")
                }.count >= 150
            })
        await h.kill()  // the process dies mid-broadcast…
        try await Task.sleep(for: .seconds(1.1))  // a restart takes a moment (and Telegram's window moves on)
        try h.start()  // …and picks up where it stopped
        #expect(h.fake.wait(timeout: 90) { h.fake.messages(chat: admin).last?.text.contains("Finished") == true })
        let notes = h.fake.messages.filter {
            $0.text.hasPrefix("📣 <b>From the PermitReady team</b>") && $0.text.contains("12 new")
        }
        let perChat = Dictionary(grouping: notes, by: \.chatID).mapValues(\.count)
        #expect(perChat.count == 590, "every Texas learner but the 10 who blocked the bot")
        #expect(perChat.values.allSatisfy { $0 == 1 }, "nobody got it twice")
        #expect(perChat.keys.allSatisfy { $0 < 100_600 }, "no Californian got it")
        #expect(h.fake.rateLimited == 0, "stayed within Telegram's limits: \(h.fake.rateLimitLog)")
        let report = try #require(h.fake.messages(chat: admin).last?.text)
        #expect(report.contains("sent 590 / 600") && report.contains("10 blocked"), "\(report)")
        await h.kill()
    }

    /// PERMITREADY_FAKE_NOW: the learner starts at 2:30 pm Eastern; the bot comes back a moment
    /// before 4 pm, so the reminder is due at once (and not within an hour of their last action).
    @Test func theDailyReminderArrivesAtFourPMLocalOnce() async throws {
        let h = try Harness()
        h.config.fakeNow = Config.parseInstant("2026-11-18T19:30:00Z")  // 2:30 pm in New York
        h.config.nudgeCheckSeconds = 0.5
        try h.start()
        h.fake.say("/start NY", chat: learner)
        #expect(h.waitForText(learner, "Questions seen"))
        await h.kill()
        h.config.fakeNow = Config.parseInstant("2026-11-18T20:59:57Z")  // 3:59:57 pm
        try h.start()
        #expect(
            !h.fake.messages(chat: learner).contains { $0.text.contains("Hey Sam") && $0.text.contains("3 minutes") })
        #expect(
            h.fake.wait(timeout: 15) { h.fake.messages(chat: learner).contains { $0.text.contains("got 3 minutes") } })
        try await Task.sleep(for: .seconds(2))
        #expect(h.fake.messages(chat: learner).filter { $0.text.contains("got 3 minutes") }.count == 1, "once a day")
        let state = try #require(try h.bot?.store.loadChat(learner))
        #expect(
            state.learner.ignoredNudges == 1 && state.learner.nextNudgeAt == Config.parseInstant("2026-11-19T21:00:00Z")
        )
        await h.kill()
    }

    /// A timed-challenge question's timer lives in the store: it fires after a restart too.
    @Test func aTimedQuestionRunsOutEvenAcrossARestart() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start MA", chat: learner)
        #expect(h.waitForText(learner, "Questions seen"))
        #expect(h.fake.press("⏱ Think Fast", chat: learner))
        #expect(h.waitForText(learner, "⏱ 20 s"))
        await h.kill()
        // Back up 25 seconds later (the clock runs on from a later instant).
        h.config.fakeNow = Date().addingTimeInterval(25)
        try h.start()
        #expect(h.waitForText(learner, "Time's up"))
        let answers = try #require(try h.bot?.store.rows("SELECT correct FROM answer WHERE chat_id = ?", [learner]))
        #expect(answers == [["correct": "0"]], "counted as missed, once")
        await h.kill()
    }

    /// Flashcards through the real runtime: new cards (the day's cap of 10), reveal by editing,
    /// rate, "Done for now" halfway, and the summary with what the session earned.
    @Test func flashcardsEndToEnd() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start OH", chat: learner)
        #expect(h.waitForText(learner, "Questions seen"))
        #expect(h.fake.press("🃏 Flashcards", chat: learner))
        for n in 1...5 {
            #expect(h.waitForText(learner, "Card \(n)/10"))
            let card = try #require(h.fake.messages(chat: learner).last { $0.text.contains("Card \(n)/10") })
            #expect(h.fake.press("👀 Show answer", chat: learner))
            #expect(
                h.fake.wait {
                    h.fake.messages(chat: learner).contains { $0.messageID == card.messageID && $0.text.contains("💡") }
                },
                "card \(n) turns over in place")
            #expect(h.fake.press(n % 2 == 0 ? "🔁 Need practice" : "✅ Knew it", chat: learner))
        }
        #expect(h.waitForText(learner, "Card 6/10"))
        #expect(h.fake.press("✋ Done for now", chat: learner))
        #expect(h.waitForText(learner, "5 cards reviewed"))
        #expect(h.fake.messages(chat: learner).last?.text.contains("The rest will wait") == true)
        #expect(h.fake.messages(chat: learner).last?.text.contains("+10 XP") == true)
        let cards = try #require(
            try h.bot?.store.rows("SELECT COUNT(*) AS n FROM card WHERE chat_id = ?", [learner]).first?["n"])
        #expect(cards == "5")
        #expect(h.fake.wait { h.fake.unansweredCallbacks.isEmpty } && h.fake.rejections.isEmpty)
        await h.kill()
    }

    /// Sign pictures are uploaded once, then sent by the file_id Telegram gave back.
    @Test func signPicturesAreUploadedOnceThenReused() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start NY", chat: learner)
        #expect(h.waitForText(learner, "Questions seen"))
        #expect(h.fake.press("📚 Topics", chat: learner))
        #expect(h.waitForText(learner, "Pick a topic"))
        #expect(h.fake.press("Road signs", chat: learner))
        // A topic with lessons lists them (✅ when done) with its quiz.
        #expect(h.waitForText(learner, "lessons done"))
        #expect(h.fake.press("⚡ Quiz me on this topic", chat: learner))
        for n in 1...10 {
            #expect(h.waitForText(learner, "Q\(n)/10"))
            // Pick an answer that is probably wrong (the last one; a word where there are no options):
            // the misses come back in review, pictures and all.
            let question = try #require(h.fake.messages(chat: learner).last { $0.text.contains("Q\(n)/10") })
            if let last = question.buttons.joined().last {
                h.fake.pressData(last.data, messageID: question.messageID, chat: learner)
            } else {
                h.fake.say("maybe", chat: learner)
            }
            #expect(h.fake.wait { h.fake.messages(chat: learner).last?.text.contains("📘") == true })
            #expect(h.fake.press(n == 10 ? "See results" : "Next", chat: learner))
        }
        #expect(h.waitForText(learner, "done!"))
        let uploadsAfterQuiz = h.fake.uploads
        #expect(uploadsAfterQuiz > 0)
        if h.fake.press("🔁 Review my misses", chat: learner) {
            #expect(h.waitForText(learner, "Review"))
            #expect(h.fake.wait { h.fake.fileIDSends > 0 } || h.fake.uploads == uploadsAfterQuiz)
        }
        #expect(
            h.fake.uploadedFiles.values.allSatisfy { $0 == 1 }, "no picture uploaded twice: \(h.fake.uploadedFiles)")
        let cached = try #require(try h.bot?.store.rows("SELECT COUNT(*) AS n FROM picture_file").first?["n"])
        #expect(Int(cached) == h.fake.uploadedFiles.count)
        await h.kill()
    }
}
