import Foundation
import GRDB
import Synchronization
import TutorCore

/// Reading a chat back: every row about the learner, each value checked (a bad one is mended, never trusted).
extension TutorStore {
    static func loadChat(_ db: Database, _ chatID: Int64, repairs: inout [String], version: inout Int64) throws
        -> ChatState?
    {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM learner WHERE chat_id = ?", arguments: [chatID]) else {
            return nil
        }
        var r = RowReader(row: row, table: "learner", key: "chat \(chatID)")
        version = r.value("version", Int64(0))
        func day(_ column: String) -> LocalDay? { r.value(column, String?.none).flatMap(LocalDay.init(iso:)) }
        func date(_ column: String) -> Date? { r.value(column, Double?.none).map(Date.init(timeIntervalSince1970:)) }
        let now = Date()
        var l = Learner(
            chatID: chatID, userID: r.value("user_id", chatID), firstName: r.value("first_name", ""),
            languageCode: r.value("language_code", String?.none),
            stateCode: r.value("state_code", String?.none), timeZone: r.value("time_zone", "America/New_York"),
            revealAnswersAsYouGo: r.value("reveal_answers", false),
            stopped: r.value("stopped", false), blocked: r.value("blocked", false), isGroup: r.value("is_group", false),
            joinedAt: date("joined_at") ?? now, lastActiveAt: date("last_active_at") ?? now,
            streak: Streak(
                current: r.value("streak_current", 0), best: r.value("streak_best", 0),
                lastDay: day("streak_last_day"), freezes: r.value("streak_freezes", 0)),
            nudgesOn: r.value("nudges_on", true), nudgeMinute: r.value("nudge_minute", 960),
            lastNudgeDay: day("last_nudge_day"), ignoredNudges: r.value("ignored_nudges", 0),
            nextNudgeAt: date("next_nudge_at"))
        l.xp = r.value("xp", 0)
        l.badges = Set(r.value("badges", "").split(separator: ",").compactMap { Badge(rawValue: String($0)) })
        l.cardsReviewed = r.value("cards_reviewed", 0)
        l.fourButtonCards = r.value("four_button_cards", false)
        l.answeredToday = r.value("answered_today", 0)
        l.answeredDay = day("answered_day")
        l.weekXP = r.value("week_xp", 0)
        l.xpWeek = day("xp_week")
        l.prevWeekXP = r.value("prev_week_xp", 0)
        l.dailyDay = day("daily_day")
        l.dailyStreak = r.value("daily_streak", 0)
        l.hideFromFriends = r.value("hide_from_friends", false)
        r.clamp(&l)
        repairs += r.repairs
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
                SELECT body FROM (SELECT body, quiz_id FROM quiz_result WHERE chat_id = ? ORDER BY quiz_id DESC LIMIT ?) ORDER BY quiz_id
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
