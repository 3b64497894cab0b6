import FakeBotAPI
import Foundation
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// Nothing one learner or one bad row can do stops the bot: each case has a second chat in the
/// same batches that must keep getting every reply.
@Suite(.serialized) struct FailurePathTests {
    let poisoned: Int64 = 6001
    let bystander: Int64 = 6002

    /// Both learners at home in New York, then their cached chats dropped so the next update
    /// reads what is in the database.
    func twoLearnersAtHome(_ h: Harness) throws {
        for chat in [poisoned, bystander] { h.fake.say("/start NY", chat: chat) }
        for chat in [poisoned, bystander] { #expect(h.waitForText(chat, "Questions seen")) }
    }

    /// One update from each, arriving together, several times: the bystander is answered every time.
    func bothSpeak(_ h: Harness, rounds: Int) -> Bool {
        for round in 1...rounds {
            let before = h.fake.messages(chat: bystander).count
            h.fake.say("/progress", chat: poisoned)
            h.fake.say("/progress", chat: bystander)
            guard h.fake.wait(timeout: 10, { h.fake.messages(chat: bystander).count > before }) else {
                Issue.record("round \(round): the bystander got no answer")
                return false
            }
        }
        return true
    }

    @Test func aRowTheDatabaseRefusesCostsThatChatItsUpdateNeverTheBot() async throws {
        let h = try Harness()
        try h.start()
        try twoLearnersAtHome(h)
        let bot = try #require(h.bot)
        // Any save of this learner fails (standing in for a reducer bug, or a value outside a CHECK).
        try bot.store.execute(
            """
            CREATE TRIGGER poison BEFORE UPDATE ON learner WHEN NEW.chat_id = \(poisoned) BEGIN SELECT RAISE(ABORT, 'poisoned row'); END
            """)
        #expect(bothSpeak(h, rounds: 3))
        #expect(
            h.fake.wait {
                h.fake.messages(chat: poisoned).filter { $0.text.contains("went wrong on our side") }.count == 3
            },
            "the learner hears it was our fault, once per dropped update")
        #expect(h.fake.wait { h.fake.allUpdatesConfirmed }, "the offset moved on past every update")
        #expect(bot.counters.commitFailures == 0)
        #expect(bot.counters.chatFailures == 3)
        #expect(bot.metrics.exposition().contains("permitready_chat_failures_total 3"))
        // Mended (the trigger gone), the learner carries on from the screen they had.
        try bot.store.execute("DROP TRIGGER poison")
        h.fake.say("/progress", chat: poisoned)
        #expect(h.fake.wait { h.fake.messages(chat: poisoned).last?.text.contains("went wrong") == false })
        await h.kill()
    }

    @Test func aValueOutsideItsCheckIsMendedOnLoadAndTheLearnerGoesOn() async throws {
        let h = try Harness()
        try h.start()
        try twoLearnersAtHome(h)
        let bot = try #require(h.bot)
        // The issue's case: a row SQLite's CHECK would refuse, written with the checks off.
        try bot.store.execute(
            """
            PRAGMA ignore_check_constraints = ON;
            UPDATE learner SET streak_freezes = 5, nudge_minute = 5000 WHERE chat_id = \(poisoned);
            PRAGMA ignore_check_constraints = OFF;
            """)
        bot.forget(chatID: poisoned)
        #expect(bothSpeak(h, rounds: 3))
        #expect(
            h.fake.wait { h.fake.messages(chat: poisoned).filter { $0.text.contains("Questions seen") }.count >= 2 })
        #expect(bot.counters.chatsRepaired == 1)
        #expect(bot.counters.chatFailures == 0 && bot.counters.commitFailures == 0)
        let row = try #require(
            try bot.store.rows("SELECT streak_freezes, nudge_minute FROM learner WHERE chat_id = ?", [poisoned]).first)
        #expect(row["streak_freezes"] == "2" && row["nudge_minute"] == "1439", "the mended values were written back")
        await h.kill()
    }

    @Test func aSessionThatDoesNotDecodeStartsAfreshAndKeepsProgress() async throws {
        let h = try Harness()
        try h.start()
        try twoLearnersAtHome(h)
        let bot = try #require(h.bot)
        #expect(h.fake.press("⚡ Quick quiz", chat: poisoned))
        #expect(h.waitForText(poisoned, "Q1/10"))
        try bot.store.execute(
            "UPDATE session SET body = '{\"screen\": 42, \"nextQuizID\": \"x\"}' WHERE chat_id = ?", [poisoned])
        bot.forget(chatID: poisoned)
        #expect(bothSpeak(h, rounds: 2))
        #expect(bot.counters.chatsRepaired == 1)
        let chat = try #require(try bot.store.loadChat(poisoned))
        #expect(chat.learner.stateCode == "NY", "the learner's own row is kept")
        #expect(h.fake.messages(chat: poisoned).last?.text.contains("went wrong") == false)
        await h.kill()
    }

    /// The sender meets a 403 while batches keep running: the learner is marked blocked through the
    /// reducer, so the cached chat and the row agree and no later batch writes the block away.
    @Test func aBlockIsMarkedThroughTheReducerAndNoLaterBatchUndoesIt() async throws {
        let h = try Harness()
        try h.start()
        try twoLearnersAtHome(h)
        let bot = try #require(h.bot)
        h.fake.block([poisoned])
        h.fake.say("/progress", chat: poisoned)
        #expect(h.fake.wait { (try? bot.store.loadChat(poisoned))??.learner.blocked == true })
        #expect(bot.chatCache.get(poisoned)?.state.learner.blocked != false, "memory says the same as the row")
        // A reminder comes due for them: its batch must not write the old, unblocked row back.
        try bot.store.execute("UPDATE learner SET next_nudge_at = 1 WHERE chat_id = ?", [poisoned])
        _ = try bot.sendDueNudges()
        #expect(try bot.store.loadChat(poisoned)?.learner.blocked == true)
        await h.kill()
    }

    /// One chat sends 1,000 messages in 10 s: it costs a handful of replies, and another learner's
    /// first reply is as quick as ever.
    @Test func aChatSendingHundredsOfMessagesGetsAFewRepliesAndSlowsNobody() async throws {
        let h = try Harness()
        h.config.perChatPerSecond = 1
        try h.start()
        try twoLearnersAtHome(h)
        let before = h.fake.messages(chat: poisoned).count
        let started = Date()
        for i in 0..<1_000 {
            h.fake.say("spam \(i)", chat: poisoned)
            if i % 100 == 99 { try await Task.sleep(for: .seconds(1)) }
        }
        let asked = Date()
        let bystanderHad = h.fake.messages(chat: bystander).count
        h.fake.say("/progress", chat: bystander)
        #expect(h.fake.wait { h.fake.messages(chat: bystander).count > bystanderHad })
        let bystanderWaited = Date().timeIntervalSince(asked)
        #expect(h.fake.wait { h.fake.allUpdatesConfirmed })
        let elapsed = Date().timeIntervalSince(started)
        try await Task.sleep(for: .seconds(2))
        let replies = h.fake.messages(chat: poisoned).count - before
        #expect(replies <= 20, "\(replies) replies to 1,000 stray messages in \(Int(elapsed)) s")
        #expect(replies >= 2, "stray input still gets an answer")
        #expect(bystanderWaited < 2, "the other learner waited \(bystanderWaited) s")
        print(
            "1,000 stray messages in \(Int(elapsed)) s: \(replies) replies; the other learner's reply came after \(String(format: "%.3f", bystanderWaited)) s"
        )
        await h.kill()
    }
}

/// A session stored by an earlier version must always decode: a new field that is not optional
/// (or has no default) would otherwise start every stored learner afresh.
@Suite struct StoredSessionTests {
    /// Written by the 0.4 bot mid-quiz (New York, first question of a quick quiz).
    static let quizSession = #"""
        {"screen":"quiz","quiz":{"id":1,"mode":{"quick":{}},"questionIDs":["u-fill-012","u-sgn-003","u-alc-001","u-ctl-005","u-sign-087","u-sign-020","u-park-007","u-alc-015","u-sign-006","u-safe-005"],"index":0,"order":[0],"phase":"asking","answers":[],"startedAt":817380911.9195979,"xpAtStart":0},"nextQuizID":2}
        """#

    @Test func aSessionStoredByAnEarlierVersionStillDecodes() throws {
        let session = try JSONDecoder().decode(Session.self, from: Data(Self.quizSession.utf8))
        #expect(session.screen == .quiz)
        #expect(session.quiz?.questionIDs.count == 10)
        #expect(session.nextQuizID == 2)
    }
}
