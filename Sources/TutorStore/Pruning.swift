import Foundation
import GRDB
import TutorCore

/// Pruning: what nobody reads any more goes (README "Data kept"; `Retention`).
extension TutorStore {
    /// Deletes what nobody reads any more (see `Retention`), a few thousand rows per transaction so
    /// the bot's own commits are never held up for long.
    @discardableResult
    public func prune(now: Date, keep: Retention = Retention()) throws -> PruneReport {
        let started = ContinuousClock.now
        var report = PruneReport()
        func deleteInChunks(_ sql: String, _ cutoff: any DatabaseValueConvertible & Sendable) throws -> Int {
            var removed = 0
            while true {
                let n = try writer.write { db -> Int in
                    try db.execute(sql: sql, arguments: [cutoff, Self.pruneChunk])
                    return db.changesCount
                }
                removed += n
                if n < Self.pruneChunk { return removed }
            }
        }
        let day = 86_400.0
        let t = now.timeIntervalSince1970
        report.outbox = try deleteInChunks(
            """
            DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status != 'pending' AND created_at < ? LIMIT ?)
            """, t - keep.outboxDays * day)
        report.answers = try deleteInChunks(
            """
            DELETE FROM answer WHERE id IN (SELECT id FROM answer WHERE answered_at < ? ORDER BY answered_at LIMIT ?)
            """, t - keep.answerDays * day)
        report.messageRefs = try deleteInChunks(
            """
            DELETE FROM message_ref WHERE (chat_id, tag) IN (SELECT chat_id, tag FROM message_ref WHERE \
            COALESCE(saved_at, 0) < ? LIMIT ?)
            """, t - keep.messageRefDays * day)
        report.broadcastDeliveries = try deleteInChunks(
            """
            DELETE FROM broadcast_delivery WHERE (broadcast_id, chat_id) IN (SELECT d.broadcast_id, d.chat_id FROM \
            broadcast_delivery d JOIN broadcast b ON b.id = d.broadcast_id
                WHERE b.status IN ('done', 'cancelled') AND COALESCE(b.finished_at, b.created_at) < ? LIMIT ?)
            """, t - keep.broadcastDays * day)
        report.challenges = try deleteInChunks(
            """
            DELETE FROM challenge_play WHERE (token, chat_id) IN (SELECT p.token, p.chat_id FROM challenge_play p
                LEFT JOIN challenge c ON c.token = p.token WHERE COALESCE(c.expires_at, p.played_at) < ? LIMIT ?)
            """, t - keep.closedChallengeDays * day)
        report.challenges += try deleteInChunks(
            """
            DELETE FROM challenge WHERE token IN (SELECT token FROM challenge WHERE expires_at < ? LIMIT ?)
            """, t - keep.closedChallengeDays * day)
        // Friendships removed over a week ago: last week's league no longer needs them.
        report.friendships = try deleteInChunks(
            """
            DELETE FROM friendship WHERE (chat_id, friend_chat_id) IN (SELECT chat_id, friend_chat_id FROM \
            friendship WHERE removed_at < ? LIMIT ?)
            """, t - 8 * day)
        // Days are ISO dates (they sort as text); a day this far back is over in every time zone.
        let oldDay = LocalDay(now.addingTimeInterval(-keep.dailyResultDays * day), in: TimeZone(identifier: "UTC")!)
            .description
        report.dailyResults = try deleteInChunks(
            """
            DELETE FROM daily_result WHERE (state_code, day, chat_id) IN (SELECT state_code, day, chat_id FROM \
            daily_result WHERE day < ? LIMIT ?)
            """, oldDay)
        report.dailyResults += try deleteInChunks(
            """
            DELETE FROM daily_tally WHERE (state_code, day, score) IN (SELECT state_code, day, score FROM \
            daily_tally WHERE day < ? LIMIT ?)
            """, oldDay)
        report.dailyResults += try deleteInChunks(
            """
            DELETE FROM daily_set WHERE (state_code, day) IN (SELECT state_code, day FROM daily_set WHERE day < ? \
            LIMIT ?)
            """, oldDay)
        report.askedQuestions = try deleteInChunks(
            """
            DELETE FROM ask_log WHERE id IN (SELECT id FROM ask_log WHERE asked_at < ? LIMIT ?)
            """, t - keep.askDays * day)
        report.askedQuestions += try forgetKeptQuestions(before: t - keep.askDays * day)
        report.seconds = (ContinuousClock.now - started).inSecondsDouble
        return report
    }

    static let pruneChunk = 5_000

    /// A question typed before any state was picked waits in the session (`Session.pendingAsk`)
    /// until a state is: a learner who never picks one would keep its text for ever. It goes
    /// with the ask log's rows. The learner row's version moves with it, so a running bot's
    /// cached copy of the chat, question and all, is refused and read afresh (`claimVersion`).
    func forgetKeptQuestions(before cutoff: Double) throws -> Int {
        var removed = 0
        while true {
            let n = try writer.write { db -> Int in
                let chats = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT chat_id FROM session WHERE updated_at < ? AND json_extract(body, '$.pendingAsk') \
                        IS NOT NULL LIMIT ?
                        """, arguments: [cutoff, Self.pruneChunk])
                for chat in chats {
                    try db.execute(
                        sql: "UPDATE session SET body = json_remove(body, '$.pendingAsk') WHERE chat_id = ?",
                        arguments: [chat])
                    try db.execute(sql: "UPDATE learner SET version = version + 1 WHERE chat_id = ?", arguments: [chat])
                }
                return chats.count
            }
            removed += n
            if n < Self.pruneChunk { return removed }
        }
    }

    /// Database file size in bytes (main file plus WAL).
    public func fileSize() -> Int64 {
        let fm = FileManager.default
        return ["", "-wal"].reduce(Int64(0)) { sum, suffix in
            let attributes = (try? fm.attributesOfItem(atPath: path + suffix)) ?? [:]
            return sum + ((attributes[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Runs a statement on the writer (the retention bench's bulk fills, tests' hand-made rows):
    /// `package`, never the bot's way to write.
    package func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable] = []) throws {
        try writer.write { db in try db.execute(sql: sql, arguments: StatementArguments(arguments)) }
    }

    /// Hands the checkpointed WAL back (used after bulk deletes in the retention figure).
    public func checkpoint() throws {
        try writer.writeWithoutTransaction { db in _ = try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
