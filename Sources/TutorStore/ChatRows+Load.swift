import Foundation
import GRDB
import Synchronization
import TutorCore

/// Reading a chat back: every row about the learner, each value checked (a bad one is mended, never trusted).
extension TutorStore {
    static func loadChat(_ db: Database, _ chatID: Int64, repairs: inout [String], version: inout Int64) throws
        -> ChatState?
    {
        guard
            let record = try LearnerRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM learner WHERE chat_id = ?"), arguments: [chatID])
        else {
            return nil
        }
        version = record.version
        repairs += record.repairs
        let l = record.learner
        var session = Session()
        if let body = try String.fetchOne(db, sql: "SELECT body FROM session WHERE chat_id = ?", arguments: [chatID]) {
            do { session = try decoder.decode(Session.self, from: Data(body.utf8)) } catch {
                repairs.append("session (chat \(chatID)) did not decode, started afresh: \(error)")
            }
        }
        var progress: [String: QuestionStats] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT * FROM question_progress WHERE chat_id = ?", arguments: [chatID])
        while let row = try rows.next() {
            do {
                var stats = QuestionStats(
                    seen: try row.decode(forColumn: "seen"), correct: try row.decode(forColumn: "correct"),
                    lastCorrect: try row.decode(forColumn: "last_correct"),
                    lastAnsweredAt: Date(timeIntervalSince1970: try row.decode(forColumn: "last_answered_at")),
                    missed: try row.decode(forColumn: "missed"))
                stats.firstCorrect = try row.decode(forColumn: "first_correct")
                stats.firstAnsweredAt = (try row.decode(Double?.self, forColumn: "first_answered_at")).map(
                    Date.init(timeIntervalSince1970:))
                stats.knowledge = try row.decode(forColumn: "knowledge")
                stats.knowledgeAt = (try row.decode(Double?.self, forColumn: "knowledge_at")).map(
                    Date.init(timeIntervalSince1970:))
                stats.strengthDays = try row.decode(forColumn: "strength_days")
                stats.taughtAt = (try row.decode(Double?.self, forColumn: "taught_at")).map(
                    Date.init(timeIntervalSince1970:))
                progress[try row.decode(forColumn: "question_id")] = stats
            } catch {
                repairs.append("question_progress row (chat \(chatID)) left out: \(error)")
            }
        }
        let bodies = try String.fetchAll(
            db,
            sql: """
                SELECT body FROM (SELECT body, quiz_id FROM quiz_result WHERE chat_id = ? ORDER BY quiz_id DESC \
                LIMIT ?) ORDER BY quiz_id
                """, arguments: [chatID, ChatState.resultsKeptAtMost])
        var results: [QuizResult] = []
        for body in bodies {
            do { results.append(try decoder.decode(QuizResult.self, from: Data(body.utf8))) } catch {
                repairs.append("quiz_result row (chat \(chatID)) left out: \(error)")
            }
        }
        var cards: [String: FSRSCard] = [:]
        let cardRows = try Row.fetchCursor(db, sql: "SELECT * FROM card WHERE chat_id = ?", arguments: [chatID])
        while let row = try cardRows.next() {
            do {
                guard let state = CardState(rawValue: try row.decode(forColumn: "state")) else { continue }
                cards[try row.decode(forColumn: "question_id")] = FSRSCard(
                    state: state, step: try row.decode(forColumn: "step"),
                    stability: try row.decode(forColumn: "stability"),
                    difficulty: try row.decode(forColumn: "difficulty"),
                    due: Date(timeIntervalSince1970: try row.decode(forColumn: "due")),
                    lastReview: (try row.decode(Double?.self, forColumn: "last_review")).map(
                        Date.init(timeIntervalSince1970:)))
            } catch {
                repairs.append("card row (chat \(chatID)) left out: \(error)")
            }
        }
        var state = ChatState(learner: l, session: session, progress: progress, results: results, cards: cards)
        let lessonRows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT lesson_id, completed_at FROM lesson_progress WHERE chat_id = ?"),
            arguments: [chatID])
        while let row = try lessonRows.next() {
            do {
                state.lessonsDone[try row.decode(forColumn: "lesson_id")] = Date(
                    timeIntervalSince1970: try row.decode(forColumn: "completed_at"))
            } catch { repairs.append("lesson_progress row (chat \(chatID)) left out: \(error)") }
        }
        return state
    }
}
