import Foundation
import GRDB
import Synchronization
import TutorCore

/// Everything one chat's events in a batch changed: written together with the update offset.
public struct ChatChange: Sendable {
    /// The chat as it is stored (nil: a new chat). A save writes only what differs from it (the
    /// learner's changed columns, changed progress and cards), so it must be what the database holds,
    /// or `repaired` set: the bot takes it from its cache of committed chats or a fresh load.
    public var before: ChatState?
    /// The learner row's `version` that `before` was read at; after a save, the version written.
    /// A save whose row has moved on (another process saved the chat since) is refused as stale.
    /// nil: the caller keeps no copies (a command, a test's hand-made change): not checked.
    public var version: Int64? = nil
    public var after: ChatState
    public var answers: [AnswerRecord]
    public var outbox: [OutboxItem]
    /// Timers to set (key → due) or cancel (key → nil), in order.
    public var timers: [(key: String, due: Date?)]
    /// Timers that fired in this change: removed in the same transaction, so each fires once.
    public var firedTimers: [String]
    /// "Delete my data": every row about the learner goes; only the goodbye in `outbox` is written.
    public var erase = false
    /// What `save` will write, worked out by `prepare()` on the reducing thread so that the one
    /// writer only binds and steps statements (nil: `save` works it out itself).
    public var prepared: PreparedWrites?
    /// The chat was loaded with mended values (`TutorStore.loadChat(_:repairs:)`): its learner row
    /// and session are written whether or not the dialogue changed them, so the mend is stored.
    public var repaired = false
    /// Friend challenges: made, played, and the friendships a play makes (see `TutorStore.saveSocial`).
    public var challengesMade: [Challenge] = []
    public var challengePlays: [(token: String, correct: [Bool])] = []
    public var newFriends: [Int64] = []
    public var removedFriends: [Int64] = []
    public var dailyResults: [(stateCode: String, day: LocalDay, score: Int)] = []
    /// A state's Daily 5 as first dealt that day (kept once: the first deal wins).
    public var dailySets: [(stateCode: String, day: LocalDay, questionIDs: [String])] = []
    /// Typed questions answered (or declined), and 👍 / 👎 on answers (`TutorStore.saveAsks`).
    public var asks: [AskRecord] = []
    public var askVotes: [(ref: String, helpful: Bool)] = []
    /// When the change was made: its outbox rows' queue time (a reminder is queued long after the
    /// learner's last activity, and stale news is judged by it). Nil: the learner's last activity.
    public var madeAt: Date? = nil

    public init(
        before: ChatState?, after: ChatState, answers: [AnswerRecord], outbox: [OutboxItem],
        timers: [(key: String, due: Date?)] = [], firedTimers: [String] = []
    ) {
        self.before = before
        self.after = after
        self.answers = answers
        self.outbox = outbox
        self.timers = timers
        self.firedTimers = firedTimers
    }
}

/// The rows a `ChatChange` touches, diffed and encoded ahead of the write transaction.
public struct PreparedWrites: Sendable {
    /// The learner row as stored (nil: written whole; see `LearnerRecord.save`).
    var learnerBefore: Learner?
    /// The session's JSON, nil when the session is unchanged.
    var sessionBody: String?
    var progress: [(id: String, stats: QuestionStats)]
    var cards: [(id: String, card: FSRSCard)]
    var newResults: [(result: QuizResult, body: String)]
    var newLessons: [(id: String, at: Date)] = []
    /// Every result the chat keeps (`ChatState.kept`): the rest are deleted when one is added.
    var keptResultIDs: [Int] = []
}

extension ChatChange {
    /// Diffs and encodes what `TutorStore.save` writes (pure: no database), so it can run beside
    /// other chats' reductions instead of inside the serial write transaction.
    public mutating func prepare() throws {
        prepared = try TutorStore.writes(for: self)
    }
}

/// A timer that has come due.
public struct DueTimer: Equatable, Sendable {
    public var chatID: Int64
    public var key: String
}

/// Chats: loading, saving and erasing everything a learner's dialogue reads and writes.
extension TutorStore {
    // MARK: - chats

    public func loadChat(_ chatID: Int64) throws -> ChatState? {
        var repairs: [String] = []
        return try loadChat(chatID, repairs: &repairs)
    }

    /// Loads a chat, mending what cannot be trusted instead of failing on it: a learner value
    /// outside its CHECK or of the wrong type comes back in range, a session that does not decode
    /// comes back fresh (the learner's progress rows stay), an unreadable progress, card or result
    /// row is left out. Each mend is described in `repairs` (the caller logs and counts them); the
    /// next save of such a chat rewrites its learner row and session (`ChatChange.repaired`).
    public func loadChat(_ chatID: Int64, repairs: inout [String]) throws -> ChatState? {
        try loadVersionedChat(chatID, repairs: &repairs)?.state
    }

    /// The chat and the learner row's version it was read at (see `ChatChange.version`).
    public func loadVersionedChat(_ chatID: Int64, repairs: inout [String]) throws -> (
        state: ChatState, version: Int64
    )? {
        var found: [String] = []
        let loaded = try writer.read { db -> (ChatState, Int64)? in
            var version: Int64 = 0
            guard let state = try Self.loadChat(db, chatID, repairs: &found, version: &version) else { return nil }
            return (state, version)
        }
        repairs += found
        return loaded.map { (state: $0.0, version: $0.1) }
    }

    /// Writes a batch's chat changes, outbox rows and the new update offset in ONE transaction:
    /// a crash before it loses nothing (Telegram re-delivers), a crash after it replays nothing.
    /// `extraOutbox`: messages that belong to no learner's state (admin replies). A change that
    /// cannot be saved fails the whole call (tests, drills, the admin desk); the bot's batches
    /// use `commit(offset:extraOutbox:changes:)`, which isolates each chat.
    public func commit(_ changes: [ChatChange], offset: Int64?, extraOutbox: [OutboxItem] = []) throws {
        try commit(offset: offset, extraOutbox: extraOutbox) { batch in
            for var change in changes { if let failure = try batch.save(&change) { throw failure } }
        }
    }

    /// The same one transaction, for changes that arrive while it is open: `changes` hands each
    /// to `batch.save` as it is ready (the bot reduces the next chats meanwhile). Reading the store
    /// from another thread inside `changes` needs `readsAlongsideWrite`.
    public func commit(offset: Int64?, extraOutbox: [OutboxItem] = [], changes: (BatchWrite) throws -> Void) throws {
        do {
            let write = try writer.write { db -> BatchWrite in
                let write = BatchWrite(db: db)
                try changes(write)
                for item in extraOutbox { write.inserted.rows.append(try Self.insertOutbox(db, item, now: Date())) }
                if let offset {
                    try db.execute(
                        sql:
                            """
                            INSERT INTO bot_state(key, value) VALUES ('update_offset', ?) ON CONFLICT(key) DO \
                            UPDATE SET value = excluded.value
                            """,
                        arguments: [String(offset)])
                }
                return write
            }
            // Committed: the sender takes the new replies from here rather than reading them back.
            let replies = write.inserted.rows.filter { $0.priority == 0 }
            if !replies.isEmpty { for observer in replyObservers.withLock({ $0 }) { observer(replies) } }
        } catch let error as DatabaseError {
            throw StoreError.plain(error, path: path)
        }
    }

    /// `inserted`: the outbox rows written, with their ids.
    static func save(_ db: Database, _ change: inout ChatChange, inserted: inout [OutboxItem]) throws {
        let s = change.after
        let l = s.learner
        if change.erase {
            try erase(db, chatID: l.chatID)
            for item in change.outbox {
                inserted.append(try insertOutbox(db, item, now: change.madeAt ?? l.lastActiveAt))
            }
            return
        }
        if change.before != nil, let readAt = change.version {
            change.version = try claimVersion(db, chatID: l.chatID, readAt: readAt)
        } else if change.before != nil {
            try db.cachedStatement(sql: "UPDATE learner SET version = version + 1 WHERE chat_id = ?").execute(
                arguments: [l.chatID])
        }
        let w = try change.prepared ?? writes(for: change)
        try LearnerRecord.save(db, before: w.learnerBefore, after: l)
        if change.before == nil {
            // A new chat: the version of the row it made (or, rarely, of one another process made).
            change.version =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT version FROM learner WHERE chat_id = ?"),
                    arguments: [l.chatID]) ?? 0
        }
        if let body = w.sessionBody {
            try db.cachedStatement(
                sql: """
                    INSERT INTO session(chat_id, body, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT(chat_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at
                    """
            ).execute(arguments: [l.chatID, body, l.lastActiveAt.timeIntervalSince1970])
        }
        for (id, p) in w.progress {
            try db.cachedStatement(
                sql: """
                    INSERT INTO question_progress(chat_id, question_id, seen, correct, last_correct, \
                    last_answered_at, missed,
                        first_correct, first_answered_at, knowledge, knowledge_at, strength_days, taught_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chat_id, question_id) DO UPDATE SET seen = excluded.seen, correct = excluded.correct,
                        last_correct = excluded.last_correct, last_answered_at = excluded.last_answered_at, missed = \
                        excluded.missed,
                        first_correct = excluded.first_correct, first_answered_at = excluded.first_answered_at,
                        knowledge = excluded.knowledge, knowledge_at = excluded.knowledge_at, strength_days = \
                        excluded.strength_days,
                        taught_at = excluded.taught_at
                    """
            ).execute(arguments: [
                l.chatID, id, p.seen, p.correct, p.lastCorrect, p.lastAnsweredAt.timeIntervalSince1970, p.missed,
                p.firstCorrect, p.firstAnsweredAt?.timeIntervalSince1970, p.knowledge,
                p.knowledgeAt?.timeIntervalSince1970, p.strengthDays, p.taughtAt?.timeIntervalSince1970,
            ])
        }
        for (id, c) in w.cards {
            try db.cachedStatement(
                sql: """
                    INSERT INTO card(chat_id, question_id, state, step, stability, difficulty, due, last_review) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chat_id, question_id) DO UPDATE SET state = excluded.state, step = excluded.step, \
                    stability = excluded.stability,
                        difficulty = excluded.difficulty, due = excluded.due, last_review = excluded.last_review
                    """
            ).execute(arguments: [
                l.chatID, id, c.state.rawValue, c.step, c.stability, c.difficulty, c.due.timeIntervalSince1970,
                c.lastReview?.timeIntervalSince1970,
            ])
        }
        for (r, body) in w.newResults {
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO quiz_result(chat_id, quiz_id, body, correct, total, finished_at) VALUES \
                    (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [l.chatID, r.quizID, body, r.correct, r.total, r.finishedAt.timeIntervalSince1970])
        }
        if !w.newResults.isEmpty {
            // The rows the reducer no longer keeps (`ChatState.kept`): they would only grow the file.
            let kept = w.keptResultIDs.map(String.init).joined(separator: ",")
            try db.cachedStatement(
                sql: "DELETE FROM quiz_result WHERE chat_id = ? AND quiz_id NOT IN (SELECT value FROM json_each(?))"
            ).execute(arguments: [l.chatID, "[\(kept)]"])
        }
        for (id, at) in w.newLessons {
            try db.cachedStatement(
                sql: """
                    INSERT INTO lesson_progress(chat_id, lesson_id, completed_at) VALUES (?, ?, ?) ON \
                    CONFLICT(chat_id, lesson_id) DO NOTHING
                    """
            ).execute(arguments: [l.chatID, id, at.timeIntervalSince1970])
        }
        for a in change.answers {
            try db.cachedStatement(
                sql: """
                    INSERT INTO answer(chat_id, question_id, correct, quiz_id, answered_at, local_day) VALUES (?, ?, \
                    ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                l.chatID, a.questionID, a.correct, a.quizID, a.answeredAt.timeIntervalSince1970, a.localDay.description,
            ])
        }
        for item in change.outbox { inserted.append(try insertOutbox(db, item, now: change.madeAt ?? l.lastActiveAt)) }
        try saveSocial(db, change, chatID: l.chatID, now: l.lastActiveAt)
        try removeFriendships(db, change, chatID: l.chatID, now: change.madeAt ?? l.lastActiveAt)
        try saveDailyResults(db, change, chatID: l.chatID)
        try saveAsks(db, change, chatID: l.chatID)
        for key in change.firedTimers {
            try db.cachedStatement(sql: "DELETE FROM timer WHERE chat_id = ? AND key = ?").execute(arguments: [
                l.chatID, key,
            ])
        }
        for t in change.timers {
            if let due = t.due {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO timer(chat_id, key, due_at) VALUES (?, ?, ?) ON CONFLICT(chat_id, key) DO UPDATE \
                        SET due_at = excluded.due_at
                        """
                ).execute(arguments: [l.chatID, t.key, due.timeIntervalSince1970])
            } else {
                try db.cachedStatement(sql: "DELETE FROM timer WHERE chat_id = ? AND key = ?").execute(arguments: [
                    l.chatID, t.key,
                ])
            }
        }
    }

    /// The diffs `save` writes: learner row, session, progress, cards and results that changed.
    static func writes(for change: ChatChange) throws -> PreparedWrites {
        let s = change.after
        let oldProgress = change.before?.progress ?? [:]
        let oldCards = change.before?.cards ?? [:]
        let oldResults = Set((change.before?.results ?? []).map(\.quizID))
        return PreparedWrites(
            learnerBefore: change.repaired ? nil : change.before?.learner,
            sessionBody: !change.repaired && change.before?.session == s.session
                ? nil : String(decoding: try encoder.encode(s.session), as: UTF8.self),
            // `==` first: a dictionary the reduction didn't touch still shares its storage with the
            // one it was loaded as, which `==` sees at once; the filter hashes every question seen.
            progress: oldProgress == s.progress
                ? [] : s.progress.filter { oldProgress[$0.key] != $0.value }.map { ($0.key, $0.value) },
            cards: oldCards == s.cards
                ? [] : s.cards.filter { oldCards[$0.key] != $0.value }.map { ($0.key, $0.value) },
            newResults: try s.results.filter { !oldResults.contains($0.quizID) }.map {
                ($0, String(decoding: try encoder.encode($0), as: UTF8.self))
            },
            newLessons: s.lessonsDone.filter { change.before?.lessonsDone[$0.key] == nil }.map { ($0.key, $0.value) },
            keptResultIDs: s.results.map(\.quizID))
    }

    /// Every table that holds anything about a chat: erased together (tests check none is missed).
    public static let tablesWithChatRows = [
        "learner", "session", "question_progress", "answer", "quiz_result", "timer",
        "outbox", "message_ref", "broadcast_delivery", "card", "lesson_progress",
        "challenge", "challenge_play", "friendship", "daily_result", "ask_log",
    ]

    static func erase(_ db: Database, chatID: Int64) throws {
        // Friends lose this learner too, and plays of their challenges go with them.
        try db.execute(sql: "DELETE FROM friendship WHERE friend_chat_id = ?", arguments: [chatID])
        try db.execute(
            sql: "DELETE FROM challenge_play WHERE token IN (SELECT token FROM challenge WHERE chat_id = ?)",
            arguments: [chatID])
        // Their Daily 5 results leave the days' tallies too.
        try db.execute(
            sql: """
                UPDATE daily_tally SET players = players - 1 WHERE players > 0 AND EXISTS (SELECT 1 FROM \
                daily_result r WHERE r.chat_id = ?
                    AND r.state_code = daily_tally.state_code AND r.day = daily_tally.day AND r.score = \
                    daily_tally.score)
                """, arguments: [chatID])
        // Children first, even though foreign keys would cascade: outbox and message_ref have no FK.
        for table in tablesWithChatRows.reversed() {
            try db.execute(sql: "DELETE FROM \(table) WHERE chat_id = ?", arguments: [chatID])
        }
    }

    // MARK: - nudges

    /// Learners whose planned reminder time has come (an index range scan on next_nudge_at);
    /// `chatID`: only that chat's (a console serves its own chat).
    public func dueNudges(now: Date, chatID: Int64? = nil, limit: Int = 1_000) throws -> [Int64] {
        try writer.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT chat_id FROM learner WHERE next_nudge_at IS NOT NULL AND next_nudge_at <= ?
                    AND (? IS NULL OR chat_id = ?) ORDER BY next_nudge_at LIMIT ?
                    """, arguments: [now.timeIntervalSince1970, chatID, chatID, limit])
        }
    }

    // MARK: - timers

    public func dueTimers(now: Date, chatID: Int64? = nil, limit: Int = 500) throws -> [DueTimer] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT chat_id, key FROM timer WHERE due_at <= ? AND (? IS NULL OR chat_id = ?) ORDER BY due_at \
                    LIMIT ?
                    """, arguments: [now.timeIntervalSince1970, chatID, chatID, limit]
            )
            .map { DueTimer(chatID: try $0.decode(forColumn: "chat_id"), key: try $0.decode(forColumn: "key")) }
        }
    }
}
