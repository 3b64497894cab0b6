import Foundation
import TutorCore
import TutorStore

/// Synthetic learners for drills, benchmarks and tests — never in the shipped binary (its own
/// module, which only permitready-bench and the tests link; `make boundaries` checks it).
/// `learner`: one with 3 answers and a card, committed the way the bot commits.
public enum DrillData {
    public static func learner(_ chat: Int64, now: Date) -> ChatChange {
        var state = ChatState(
            learner: Learner(chatID: chat, userID: chat, firstName: "Drill", stateCode: "TX", joinedAt: now))
        state.learner.lastActiveAt = now
        var answers: [AnswerRecord] = []
        for i in 0..<3 {
            let id = "u-signs-00\(i + 1)"
            state.progress[id] = QuestionStats(
                seen: 1, correct: i % 2, lastCorrect: i % 2 == 1, lastAnsweredAt: now, missed: i % 2 == 0)
            answers.append(
                AnswerRecord(
                    questionID: id, correct: i % 2 == 1, quizID: 1, answeredAt: now, localDay: LocalDay(now, in: .gmt)))
        }
        state.cards["u-signs-001"] = FSRSCard.new(due: now)
        return ChatChange(before: nil, after: state, answers: answers, outbox: [])
    }

    /// Commits learners steadily, as the bot does, for restore drills (Litestream, backups under
    /// load): one line per commit on stdout, so a drill knows exactly what was committed. Drills
    /// only: `permitready-bench --write-load <db>`; the shipped binary has no such command.
    public static func writeLoad(database path: String, perSecond: Double, seconds: Double, firstChat: Int64) throws {
        let store = try TutorStore(path: path)
        let t0 = Date()
        var chat = firstChat
        while seconds == 0 || Date().timeIntervalSince(t0) < seconds {
            try store.commit([learner(chat, now: Date())], offset: nil)
            // Written straight to the descriptor: a drill killed with -9 must have seen every line.
            let line = "committed \(chat) \(String(format: "%.3f", Date().timeIntervalSince1970))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            chat += 1
            Thread.sleep(forTimeInterval: 1 / perSecond)
        }
    }
}
