import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot

/// The state said in the teen's own words, wherever they are (a play-test: "im in PA" then a
/// question got "I couldn't find that state" eight times; "wait no im in pennsylvania not new
/// jersey" got "didn't catch that"; "change my state to pennsylvania" got a road sign).
@Suite(.serialized) struct StateTypedTests {
    let chat: Int64 = 4_401

    /// A new learner, shown the state picker.
    func atThePicker() throws -> Harness {
        let h = try Harness()
        try h.start()
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        return h
    }

    /// A question typed before any state is kept, and answered for the state once it is picked.
    @Test func aQuestionBeforeTheStateIsAnsweredForTheStatePicked() async throws {
        let h = try atThePicker()
        h.fake.say("can i turn right on red", chat: chat)
        #expect(h.waitForText(chat, "answer for your state"))
        h.fake.say("cali", chat: chat)  // a nickname, taken without "is that right?"
        #expect(h.waitForText(chat, "📘"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📘") })
        #expect(answer.text.contains("In California") && answer.text.contains("right on red"), "\(answer.text)")
        await h.kill()
    }

    /// A kept question is text the learner typed: it goes after 14 days like the ask log, even
    /// from the running bot's copy of the chat, and no answer comes when a state is picked later.
    @Test func aKeptQuestionGoesAfterFourteenDays() async throws {
        let h = try atThePicker()
        h.fake.say("can i turn right on red", chat: chat)
        #expect(h.waitForText(chat, "answer for your state"))
        let store = try #require(h.bot?.store)
        #expect(h.fake.wait { (try? store.hasPendingReplies(chatID: chat)) == false })
        #expect(try store.prune(now: Date().addingTimeInterval(13 * 86_400)).askedQuestions == 0)
        #expect(try store.prune(now: Date().addingTimeInterval(15 * 86_400)).askedQuestions == 1)
        h.fake.say("texas", chat: chat)
        #expect(h.waitForText(chat, "Texas permit test"))
        #expect(!h.fake.messages(chat: chat).contains { $0.text.contains("📘") })
        await h.kill()
    }

    /// The state corrected in a sentence is the one the kept question is answered for (a
    /// play-tester's "wait no i meant georgia" got Florida's curfew).
    @Test func aKeptQuestionIsAnsweredForTheCorrectedState() async throws {
        let h = try atThePicker()
        h.fake.say("whats the curfew", chat: chat)
        #expect(h.waitForText(chat, "answer for your state"))
        h.fake.say("fl", chat: chat)
        #expect(h.waitForText(chat, "is that right?"))
        h.fake.say("wait no i meant georgia", chat: chat)
        #expect(h.waitForText(chat, "📘"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📘") })
        #expect(answer.text.contains("Georgia") && !answer.text.contains("Florida"), "\(answer.text)")
        await h.kill()
    }

    /// A question naming the state under "Pennsylvania — is that right?" takes it and is answered.
    @Test func aQuestionNamingTheProposedStateTakesIt() async throws {
        let h = try atThePicker()
        h.fake.say("im in PA", chat: chat)
        #expect(h.waitForText(chat, "is that right?"))
        h.fake.say("how many questions r on the test in pa", chat: chat)
        #expect(h.waitForText(chat, "Pennsylvania permit test"))
        #expect(h.waitForText(chat, "Questions seen"))
        #expect(!h.fake.messages(chat: chat).contains { $0.text.contains("couldn't find that state") })
        // Corrected in a sentence, then said again on Home: asked before switching.
        h.fake.say("wait no im in new jersey not pennsylvania", chat: chat)
        #expect(h.waitForText(chat, "Switch your state from <b>Pennsylvania</b> to <b>New Jersey</b>?"))
        #expect(h.fake.press("✅ Yes, New Jersey", chat: chat))
        #expect(h.waitForText(chat, "New Jersey permit test"))
        h.fake.say("change my state to new jersey", chat: chat)
        #expect(h.waitForText(chat, "already set up for that state"))
        // A question about another state is still a question, answered for that state.
        h.fake.say("can you turn left on red in missouri", chat: chat)
        #expect(h.waitForText(chat, "Missouri"))
        #expect(h.fake.messages(chat: chat).filter { $0.text.contains("Switch your state") }.count == 1)
        await h.kill()
    }
}
