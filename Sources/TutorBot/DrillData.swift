import Foundation
import TutorCore
import TutorStore

/// A learner with 3 answers and a card, committed the way the bot commits (drills and tests).
public enum DrillData {
    public static func learner(_ chat: Int64, now: Date) -> ChatChange {
        var state = ChatState(learner: Learner(chatID: chat, userID: chat, firstName: "Drill", stateCode: "TX", joinedAt: now))
        state.learner.lastActiveAt = now
        var answers: [AnswerRecord] = []
        for i in 0..<3 {
            let id = "u-signs-00\(i + 1)"
            state.progress[id] = QuestionStats(seen: 1, correct: i % 2, lastCorrect: i % 2 == 1, lastAnsweredAt: now, missed: i % 2 == 0)
            answers.append(AnswerRecord(questionID: id, correct: i % 2 == 1, quizID: 1, answeredAt: now, localDay: LocalDay(now, in: .gmt)))
        }
        state.cards["u-signs-001"] = FSRSCard.new(due: now)
        return ChatChange(before: nil, after: state, answers: answers, outbox: [])
    }
}
