import Foundation
import GRDB
import TutorCore

/// Typed questions and the card that answered each (nil: none did), with the learner's 👍 / 👎:
/// what teens ask, for the people who write the content. A question's text is kept at most
/// `Retention.askDays` and goes with the learner's data.
extension TutorStore {
    static func saveAsks(_ db: Database, _ change: ChatChange, chatID: Int64) throws {
        for ask in change.asks {
            try db.cachedStatement(sql: "INSERT INTO ask_log(chat_id, asked_at, text, ref) VALUES (?, ?, ?, ?)")
                .execute(arguments: [chatID, ask.askedAt.timeIntervalSince1970, String(ask.text.prefix(500)), ask.ref])
        }
        for vote in change.askVotes {
            // The chat's latest question this card answered (a vote on an older answer finds that one).
            try db.cachedStatement(
                sql: """
                    UPDATE ask_log SET helpful = ?
                    WHERE id = (SELECT id FROM ask_log WHERE chat_id = ? AND ref = ? ORDER BY id DESC LIMIT 1)
                    """
            ).execute(arguments: [vote.helpful, chatID, vote.ref])
        }
    }

    public struct AskedQuestion: Equatable, Sendable {
        public var text: String
        public var times: Int
        public init(text: String, times: Int) {
            self.text = text
            self.times = times
        }
    }

    public struct CardVotes: Equatable, Sendable {
        public var ref: String
        public var notHelpful: Int
        public var helpful: Int
    }

    /// The chat's questions that found a card since `since`, latest first: what a follow-up ("what
    /// about in california") asks again.
    public func recentAnsweredAsks(chatID: Int64, since: Date, limit: Int = 5) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT text FROM ask_log WHERE chat_id = ? AND ref IS NOT NULL AND asked_at >= ?
                    ORDER BY id DESC LIMIT ?
                    """, arguments: [chatID, since.timeIntervalSince1970, limit])
        }
    }

    /// The questions asked most often that found no card (the same words, case and spacing aside).
    public func unansweredQuestions(limit: Int = 20) throws -> [AskedQuestion] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT lower(trim(text)) AS t, COUNT(*) AS n FROM ask_log WHERE ref IS NULL
                    GROUP BY t ORDER BY n DESC, t LIMIT ?
                    """, arguments: [limit]
            ).map { AskedQuestion(text: $0["t"], times: $0["n"]) }
        }
    }

    /// Cards learners marked 👎 as an answer, most first, with their 👍 for scale.
    public func unhelpfulAnswers(limit: Int = 20) throws -> [CardVotes] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT ref, SUM(helpful = 0) AS down, SUM(helpful = 1) AS up FROM ask_log
                    WHERE ref IS NOT NULL AND helpful IS NOT NULL
                    GROUP BY ref HAVING down > 0 ORDER BY down DESC, ref LIMIT ?
                    """, arguments: [limit]
            ).map { CardVotes(ref: $0["ref"], notHelpful: $0["down"], helpful: $0["up"]) }
        }
    }
}
