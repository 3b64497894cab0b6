import FakeBotAPI
import Foundation
import Testing
import TutorStore

@testable import TutorBot

/// #39 item 4: the sender keeps its database work off the cooperative pool, and what it cannot
/// write never turns a delivered message into a failed one.
@Suite(.serialized) struct SenderOffPoolTests {
    let chat: Int64 = 7101

    /// Starts a ten-question road-signs quiz (sign pictures in it) and waits for its first question.
    func startSignQuiz(_ h: Harness) {
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(h.fake.press("📚 Topics", chat: chat))
        #expect(h.waitForText(chat, "Pick a topic"))
        #expect(h.fake.press("Road signs", chat: chat))
        #expect(h.waitForText(chat, "lessons done"))
        #expect(h.fake.press("⚡ Quiz me on this topic", chat: chat))
        #expect(h.waitForText(chat, "Q1/10"))
    }

    /// Answers the question on screen with its first option (or a word where it has none).
    func answer(_ h: Harness, _ n: Int) throws {
        let question = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Q\(n)/10") })
        if let first = question.buttons.joined().first {
            h.fake.pressData(first.data, messageID: question.messageID, chat: chat)
        } else {
            h.fake.say("stop", chat: chat)
        }
        #expect(h.fake.wait { h.fake.messages(chat: chat).last?.text.contains("📘") == true })
    }

    @Test func aSignPictureDeliveredButNotRecordedIsNotAFailure() async throws {
        let h = try Harness()
        try h.start()
        let bot = try #require(h.bot)
        // The picture table refuses every write (standing in for a busy or full database).
        try bot.store.execute(
            """
            CREATE TRIGGER refuse_pictures BEFORE INSERT ON picture_file BEGIN SELECT RAISE(ABORT, 'disk full'); END
            """)
        startSignQuiz(h)
        for n in 1...10 {
            #expect(h.waitForText(chat, "Q\(n)/10"), "question \(n) arrived")
            try answer(h, n)
            #expect(h.fake.press(n == 10 ? "See results" : "Next", chat: chat))
        }
        #expect(h.waitForText(chat, "done!"))
        #expect(h.fake.uploads > 0, "the quiz had sign pictures")
        let failed = try bot.store.rows("SELECT COUNT(*) AS n FROM outbox WHERE status = 'failed'").first?["n"]
        #expect(failed == "0", "a picture the learner got is not marked failed")
        #expect(
            h.fake.uploadedFiles.values.allSatisfy { $0 == 1 },
            "each picture uploaded once: its file_id is kept in memory (\(h.fake.uploadedFiles))")
        let recorded = try bot.store.rows("SELECT COUNT(*) AS n FROM picture_file").first?["n"]
        #expect(recorded == "0")
        await h.kill()
    }

    @Test func anAnswerEditsItsQuestionWithoutReadingTheDatabase() async throws {
        let h = try Harness()
        try h.start()
        let bot = try #require(h.bot)
        startSignQuiz(h)
        // The question's mark (and its message_ref row) is written within milliseconds of delivery.
        #expect(h.fake.wait { (try? bot.store.rows("SELECT COUNT(*) AS n FROM message_ref").first?["n"]) != "0" })
        try bot.store.execute("DELETE FROM message_ref")
        let question = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Q1/10") })
        let editsBefore = h.fake.calls.filter { $0.method == "editMessageText" }.count
        // Typed, not tapped: a tap names its message, a typed answer only the question's tag.
        h.fake.say("A", chat: chat)
        #expect(
            h.fake.wait { h.fake.calls.filter { $0.method == "editMessageText" }.count > editsBefore },
            "the answer edited the question (found in memory), not sent afresh")
        let edited = h.fake.calls.last { $0.method == "editMessageText" }
        #expect((edited?.body["message_id"] as? NSNumber)?.int64Value == question.messageID)
        await h.kill()
    }

    @Test func messageRefsKeepActiveChatsAndStayBounded() {
        var refs = MessageRefs(chatsPerGeneration: 2)
        refs.remember(chatID: 1, tag: "q", messageID: 10)
        refs.remember(chatID: 2, tag: "q", messageID: 20)
        refs.remember(chatID: 3, tag: "q", messageID: 30)  // chats 1 and 2 become the previous generation
        refs.remember(chatID: 1, tag: "r", messageID: 11)  // chat 1 is active again: carried forward
        refs.remember(chatID: 4, tag: "q", messageID: 40)  // chat 2 (idle longest) is dropped
        #expect(refs.messageID(chatID: 1, tag: "q") == 10 && refs.messageID(chatID: 1, tag: "r") == 11)
        #expect(refs.messageID(chatID: 2, tag: "q") == nil)
        #expect(refs.messageID(chatID: 4, tag: "q") == 40)
        #expect(refs.chatCount <= 4)
        refs.forget(chatID: 1)
        #expect(refs.messageID(chatID: 1, tag: "q") == nil, "an erased chat's old messages are not edited")
    }
}
