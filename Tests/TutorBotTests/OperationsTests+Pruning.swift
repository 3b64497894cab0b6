import Drills
import FakeBotAPI
import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

extension OperationsTests {
    @Test func pruningRemovesWhatNobodyReadsAndKeepsEverythingElse() throws {
        let store = try TutorStore(path: ":memory:")
        let now = Date()
        let old = now.addingTimeInterval(-40 * 86_400)
        var change = DrillData.learner(1, now: old)
        change.answers += [
            AnswerRecord(
                questionID: "u-q9", correct: true, quizID: 2, answeredAt: now, localDay: LocalDay(now, in: .gmt))
        ]
        change.outbox = [OutboxItem(chatID: 1, method: "sendMessage", body: Data(#"{"chat_id":1,"text":"old"}"#.utf8))]
        try store.commit([change], offset: nil)
        let item = try #require(try OutboxQueue(store.pendingRows()).heads(limit: 1, now: now).first)
        try store.markSent(
            OutboxItem(id: item.id, chatID: 1, method: "sendMessage", body: item.body, saveTag: "q1.0"), messageID: 5)
        #expect(
            try store.rows("SELECT COUNT(*) AS n FROM outbox").first?["n"] == "0", "a delivered row is deleted at once")
        // A row that failed for good is kept an hour (what went wrong can be looked at), then pruned.
        try store.commit(
            [], offset: nil,
            extraOutbox: [OutboxItem(chatID: 1, method: "sendMessage", body: Data(#"{"chat_id":1,"text":"bad"}"#.utf8))]
        )
        try store.markFailed(try #require(try store.pendingRows().first), error: "400 Bad Request")
        try store.execute("UPDATE outbox SET created_at = ?", [old.timeIntervalSince1970])
        try store.execute("UPDATE message_ref SET saved_at = ?", [old.timeIntervalSince1970])
        try store.commit(
            [], offset: nil,
            extraOutbox: [OutboxItem(chatID: 1, method: "sendMessage", body: Data(#"{"chat_id":1,"text":"new"}"#.utf8))]
        )

        let report = try store.prune(now: now)
        #expect(report.outbox == 1 && report.answers == 3 && report.messageRefs == 1)
        #expect(try store.pendingCount() == 1, "a message still waiting is never pruned")
        let counts = try store.counts()
        #expect(counts.answers == 1, "the recent answer stays")
        #expect(
            counts.progressRows == 3 && counts.cards == 1 && counts.learners == 1,
            "what the learner knows is never pruned")
        #expect(try store.prune(now: now).total == 0)
    }

    @Test func onlyTheResultsThatAreEverLoadedAreKept() throws {
        let store = try TutorStore(path: ":memory:")
        let now = Date()
        var state = ChatState(learner: Learner(chatID: 1, userID: 1, firstName: "L", stateCode: "TX", joinedAt: now))
        var before: ChatState?
        // Quiz 2 is practice test 1's first try: kept (the pass chance reads it) after the rest of
        // its time has gone.
        for quiz in 1...(ChatState.recentResultsKept + 5) {
            var result = QuizResult(
                quizID: quiz, mode: quiz == 2 ? .practiceTest(number: 1) : .quick, stateCode: "TX", correct: 7,
                total: 10, passPercent: 70, startedAt: now, finishedAt: now, byTopic: [], missedIDs: [])
            if quiz == 2 { result.retake = false }
            state.results = ChatState.kept(state.results + [result])
            try store.commit([ChatChange(before: before, after: state, answers: [], outbox: [])], offset: nil)
            before = state
        }
        #expect(try store.counts().results == ChatState.recentResultsKept + 1)
        #expect(try store.loadChat(1)?.results.map(\.quizID) == [2] + Array(6...(ChatState.recentResultsKept + 5)))
        #expect(try store.loadChat(1)?.results == state.results, "what the reducer keeps is what comes back")
    }
}
