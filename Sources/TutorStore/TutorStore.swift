import Foundation
import GRDB
import TutorCore

public enum StoreError: Error, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case corruptRow(table: String, key: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open database at \(path): \(reason)"
        case .corruptRow(let table, let key, let reason): return "unreadable row in \(table) (\(key)): \(reason)"
        }
    }
}

/// One message waiting in (or taken from) the outbox: a ready Bot API request.
public struct OutboxItem: Equatable, Sendable {
    public var id: Int64
    public var chatID: Int64
    public var method: String
    public var body: Data
    /// For edits: resolve `message_id` from the message saved under this tag.
    public var editTag: String?
    /// Save the returned message id under this tag.
    public var saveTag: String?
    /// A sign picture (Banks/signs/<name>.png) to upload or reuse by file_id.
    public var picture: String?
    /// 0 = replies to learners, larger = bulk (nudges, broadcasts): replies go first.
    public var priority: Int
    public var attempts: Int
    /// Reminders and broadcasts: sent after every waiting reply, under the global bulk rate.
    public static let bulkPriority = 1
    /// Button-tap answers (`answerCallbackQuery`): not messages, so outside every chat's order and
    /// every pace; sent the moment they are committed (Telegram drops an answer after ~15 s).
    public static let tapPriority = -1

    public init(id: Int64 = 0, chatID: Int64, method: String, body: Data, editTag: String? = nil,
                saveTag: String? = nil, picture: String? = nil, priority: Int = 0, attempts: Int = 0) {
        self.id = id; self.chatID = chatID; self.method = method; self.body = body; self.editTag = editTag
        self.saveTag = saveTag; self.picture = picture; self.priority = priority; self.attempts = attempts
    }
}

/// Everything one chat's events in a batch changed: written together with the update offset.
public struct ChatChange: Sendable {
    public var before: ChatState?
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

    public init(before: ChatState?, after: ChatState, answers: [AnswerRecord], outbox: [OutboxItem],
                timers: [(key: String, due: Date?)] = [], firedTimers: [String] = []) {
        self.before = before; self.after = after; self.answers = answers; self.outbox = outbox
        self.timers = timers; self.firedTimers = firedTimers
    }
}

/// The rows a `ChatChange` touches, diffed and encoded ahead of the write transaction.
public struct PreparedWrites: Sendable {
    var learnerChanged: Bool
    /// The session's JSON, nil when the session is unchanged.
    var sessionBody: String?
    var progress: [(id: String, stats: QuestionStats)]
    var cards: [(id: String, card: FSRSCard)]
    var newResults: [(result: QuizResult, body: String)]
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

/// The bot's SQLite database: learners, dialogue sessions, progress, history, outbox, offset.
public final class TutorStore: Sendable {
    let writer: any DatabaseWriter
    public let path: String

    /// Opens (creating if needed) and migrates the database; ":memory:" gives a private in-memory one.
    public init(path: String) throws {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Readers keep a small page cache: every commit (several a second under load) empties
            // it anyway in WAL mode, and six 2 MB caches were a fifth of the bot's memory.
            // The writer keeps 1 MB (SQLite's default is 2 MB): it touches a batch's few hundred rows
            // and the operating system's file cache holds the rest; 1,000 learners at once ran no slower.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -512 : -1024)")
        }
        // Two cores: more than three readers at once only queue for them.
        config.maximumReaderCount = 3
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else {
                writer = try DatabasePool(path: path, configuration: config)
            }
            try Schema.migrator.migrate(writer)
        } catch let error as DatabaseError {
            throw StoreError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Whether other threads can read while a write transaction is open (a file's WAL pool can;
    /// the in-memory queue of the tests can't: its reads wait for the write).
    public var readsAlongsideWrite: Bool { writer is DatabasePool }

    /// Migrations applied so far, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Schema.migrator.appliedMigrations(db) }
    }

    static let encoder = StreamingJSONEncoder()
    static let decoder = JSONDecoder()

    // MARK: - update offset

    public func updateOffset() throws -> Int64 {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM bot_state WHERE key = 'update_offset'").flatMap { Int64($0) } ?? 0
        }
    }

    // MARK: - chats

    public func loadChat(_ chatID: Int64) throws -> ChatState? {
        try writer.read { db in try Self.loadChat(db, chatID) }
    }

    static func loadChat(_ db: Database, _ chatID: Int64) throws -> ChatState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM learner WHERE chat_id = ?", arguments: [chatID]) else { return nil }
        let learner = Learner(
            chatID: row["chat_id"], userID: row["user_id"], firstName: row["first_name"], languageCode: row["language_code"],
            stateCode: row["state_code"], timeZone: row["time_zone"], revealAnswersAsYouGo: row["reveal_answers"],
            stopped: row["stopped"], blocked: row["blocked"], isGroup: row["is_group"],
            joinedAt: Date(timeIntervalSince1970: row["joined_at"]), lastActiveAt: Date(timeIntervalSince1970: row["last_active_at"]),
            streak: Streak(current: row["streak_current"], best: row["streak_best"],
                           lastDay: (row["streak_last_day"] as String?).flatMap(LocalDay.init(iso:)), freezes: row["streak_freezes"]),
            nudgesOn: row["nudges_on"], nudgeMinute: row["nudge_minute"],
            lastNudgeDay: (row["last_nudge_day"] as String?).flatMap(LocalDay.init(iso:)), ignoredNudges: row["ignored_nudges"],
            nextNudgeAt: (row["next_nudge_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        var l = learner
        l.xp = row["xp"]
        l.badges = Set((row["badges"] as String).split(separator: ",").compactMap { Badge(rawValue: String($0)) })
        l.cardsReviewed = row["cards_reviewed"]
        l.fourButtonCards = row["four_button_cards"]
        l.answeredToday = row["answered_today"]
        l.answeredDay = (row["answered_day"] as String?).flatMap(LocalDay.init(iso:))
        var session = Session()
        if let body = try String.fetchOne(db, sql: "SELECT body FROM session WHERE chat_id = ?", arguments: [chatID]) {
            do { session = try decoder.decode(Session.self, from: Data(body.utf8)) }
            catch { throw StoreError.corruptRow(table: "session", key: "chat \(chatID)", reason: "\(error)") }
        }
        var progress: [String: QuestionStats] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM question_progress WHERE chat_id = ?", arguments: [chatID])
        while let r = try rows.next() {
            var stats = QuestionStats(seen: r["seen"], correct: r["correct"], lastCorrect: r["last_correct"],
                                      lastAnsweredAt: Date(timeIntervalSince1970: r["last_answered_at"]), missed: r["missed"])
            stats.firstCorrect = r["first_correct"]
            stats.firstAnsweredAt = (r["first_answered_at"] as Double?).map(Date.init(timeIntervalSince1970:))
            stats.knowledge = r["knowledge"]
            stats.knowledgeAt = (r["knowledge_at"] as Double?).map(Date.init(timeIntervalSince1970:))
            stats.strengthDays = r["strength_days"]
            progress[r["question_id"]] = stats
        }
        let bodies = try String.fetchAll(db, sql: """
            SELECT body FROM (SELECT body, quiz_id FROM quiz_result WHERE chat_id = ? ORDER BY quiz_id DESC LIMIT ?) ORDER BY quiz_id
            """, arguments: [chatID, ChatState.recentResultsKept])
        let results = try bodies.map { body -> QuizResult in
            do { return try decoder.decode(QuizResult.self, from: Data(body.utf8)) }
            catch { throw StoreError.corruptRow(table: "quiz_result", key: "chat \(chatID)", reason: "\(error)") }
        }
        var cards: [String: FSRSCard] = [:]
        let cardRows = try Row.fetchCursor(db, sql: "SELECT * FROM card WHERE chat_id = ?", arguments: [chatID])
        while let r = try cardRows.next() {
            guard let state = CardState(rawValue: r["state"]) else { continue }
            cards[r["question_id"]] = FSRSCard(state: state, step: r["step"], stability: r["stability"], difficulty: r["difficulty"],
                                               due: Date(timeIntervalSince1970: r["due"]),
                                               lastReview: (r["last_review"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
        return ChatState(learner: l, session: session, progress: progress, results: results, cards: cards)
    }

    /// Writes a batch's chat changes, outbox rows and the new update offset in ONE transaction:
    /// a crash before it loses nothing (Telegram re-delivers), a crash after it replays nothing.
    /// `extraOutbox`: messages that belong to no learner's state (admin replies).
    public func commit(_ changes: [ChatChange], offset: Int64?, extraOutbox: [OutboxItem] = []) throws {
        try commit(offset: offset, extraOutbox: extraOutbox) { save in for change in changes { try save(change) } }
    }

    /// The same one transaction, for changes that arrive while it is open: `changes` hands each
    /// to `save` as it is ready (the bot reduces the next chats meanwhile). Reading the store
    /// from another thread inside `changes` needs `readsAlongsideWrite`.
    public func commit(offset: Int64?, extraOutbox: [OutboxItem] = [],
                       changes: (_ save: (ChatChange) throws -> Void) throws -> Void) throws {
        try writer.write { db in
            try changes { try Self.save(db, $0) }
            for item in extraOutbox { try Self.insertOutbox(db, item, now: Date()) }
            if let offset {
                try db.execute(sql: "INSERT INTO bot_state(key, value) VALUES ('update_offset', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [String(offset)])
            }
        }
    }

    static func save(_ db: Database, _ change: ChatChange) throws {
        let s = change.after
        let l = s.learner
        if change.erase {
            try erase(db, chatID: l.chatID)
            for item in change.outbox { try insertOutbox(db, item, now: l.lastActiveAt) }
            return
        }
        let w = try change.prepared ?? writes(for: change)
        if w.learnerChanged {
            try db.cachedStatement(sql: """
                INSERT INTO learner(chat_id, user_id, first_name, language_code, state_code, time_zone, reveal_answers, stopped,
                    blocked, is_group, joined_at, last_active_at, streak_current, streak_best, streak_last_day, streak_freezes,
                    nudges_on, nudge_minute, last_nudge_day, ignored_nudges, next_nudge_at,
                    xp, badges, cards_reviewed, four_button_cards, answered_today, answered_day)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(chat_id) DO UPDATE SET user_id = excluded.user_id, first_name = excluded.first_name,
                    language_code = excluded.language_code, state_code = excluded.state_code, time_zone = excluded.time_zone,
                    reveal_answers = excluded.reveal_answers, stopped = excluded.stopped, blocked = excluded.blocked,
                    is_group = excluded.is_group, last_active_at = excluded.last_active_at,
                    streak_current = excluded.streak_current, streak_best = excluded.streak_best,
                    streak_last_day = excluded.streak_last_day, streak_freezes = excluded.streak_freezes,
                    nudges_on = excluded.nudges_on, nudge_minute = excluded.nudge_minute, last_nudge_day = excluded.last_nudge_day,
                    ignored_nudges = excluded.ignored_nudges, next_nudge_at = excluded.next_nudge_at,
                    xp = excluded.xp, badges = excluded.badges, cards_reviewed = excluded.cards_reviewed,
                    four_button_cards = excluded.four_button_cards, answered_today = excluded.answered_today,
                    answered_day = excluded.answered_day
                """).execute(arguments: [
                    l.chatID, l.userID, l.firstName, l.languageCode, l.stateCode, l.timeZone, l.revealAnswersAsYouGo,
                    l.stopped, l.blocked, l.isGroup, l.joinedAt.timeIntervalSince1970, l.lastActiveAt.timeIntervalSince1970,
                    l.streak.current, l.streak.best, l.streak.lastDay?.description, l.streak.freezes,
                    l.nudgesOn, l.nudgeMinute, l.lastNudgeDay?.description, l.ignoredNudges, l.nextNudgeAt?.timeIntervalSince1970,
                    l.xp, l.badges.map(\.rawValue).sorted().joined(separator: ","), l.cardsReviewed, l.fourButtonCards,
                    l.answeredToday, l.answeredDay?.description])
        }
        if let body = w.sessionBody {
            try db.cachedStatement(sql: """
                INSERT INTO session(chat_id, body, updated_at) VALUES (?, ?, ?)
                ON CONFLICT(chat_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at
                """).execute(arguments: [l.chatID, body, l.lastActiveAt.timeIntervalSince1970])
        }
        for (id, p) in w.progress {
            try db.cachedStatement(sql: """
                INSERT INTO question_progress(chat_id, question_id, seen, correct, last_correct, last_answered_at, missed,
                    first_correct, first_answered_at, knowledge, knowledge_at, strength_days)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(chat_id, question_id) DO UPDATE SET seen = excluded.seen, correct = excluded.correct,
                    last_correct = excluded.last_correct, last_answered_at = excluded.last_answered_at, missed = excluded.missed,
                    first_correct = excluded.first_correct, first_answered_at = excluded.first_answered_at,
                    knowledge = excluded.knowledge, knowledge_at = excluded.knowledge_at, strength_days = excluded.strength_days
                """).execute(arguments: [l.chatID, id, p.seen, p.correct, p.lastCorrect, p.lastAnsweredAt.timeIntervalSince1970, p.missed,
                                         p.firstCorrect, p.firstAnsweredAt?.timeIntervalSince1970, p.knowledge,
                                         p.knowledgeAt?.timeIntervalSince1970, p.strengthDays])
        }
        for (id, c) in w.cards {
            try db.cachedStatement(sql: """
                INSERT INTO card(chat_id, question_id, state, step, stability, difficulty, due, last_review) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(chat_id, question_id) DO UPDATE SET state = excluded.state, step = excluded.step, stability = excluded.stability,
                    difficulty = excluded.difficulty, due = excluded.due, last_review = excluded.last_review
                """).execute(arguments: [l.chatID, id, c.state.rawValue, c.step, c.stability, c.difficulty, c.due.timeIntervalSince1970,
                                         c.lastReview?.timeIntervalSince1970])
        }
        for (r, body) in w.newResults {
            try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO quiz_result(chat_id, quiz_id, body, correct, total, finished_at) VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [l.chatID, r.quizID, body, r.correct, r.total, r.finishedAt.timeIntervalSince1970])
        }
        if !w.newResults.isEmpty {
            // Only the latest `recentResultsKept` are ever loaded: older rows would only grow the file.
            try db.cachedStatement(sql: """
                DELETE FROM quiz_result WHERE chat_id = ? AND quiz_id < (SELECT MIN(quiz_id) FROM
                    (SELECT quiz_id FROM quiz_result WHERE chat_id = ? ORDER BY quiz_id DESC LIMIT ?))
                """).execute(arguments: [l.chatID, l.chatID, ChatState.recentResultsKept])
        }
        for a in change.answers {
            try db.cachedStatement(sql: """
                INSERT INTO answer(chat_id, question_id, correct, quiz_id, answered_at, local_day) VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [l.chatID, a.questionID, a.correct, a.quizID, a.answeredAt.timeIntervalSince1970, a.localDay.description])
        }
        for item in change.outbox { try insertOutbox(db, item, now: l.lastActiveAt) }
        for key in change.firedTimers {
            try db.cachedStatement(sql: "DELETE FROM timer WHERE chat_id = ? AND key = ?").execute(arguments: [l.chatID, key])
        }
        for t in change.timers {
            if let due = t.due {
                try db.cachedStatement(sql: """
                    INSERT INTO timer(chat_id, key, due_at) VALUES (?, ?, ?) ON CONFLICT(chat_id, key) DO UPDATE SET due_at = excluded.due_at
                    """).execute(arguments: [l.chatID, t.key, due.timeIntervalSince1970])
            } else {
                try db.cachedStatement(sql: "DELETE FROM timer WHERE chat_id = ? AND key = ?").execute(arguments: [l.chatID, t.key])
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
            learnerChanged: change.before?.learner != s.learner,
            sessionBody: change.before?.session == s.session ? nil : String(decoding: try encoder.encode(s.session), as: UTF8.self),
            progress: s.progress.filter { oldProgress[$0.key] != $0.value }.map { ($0.key, $0.value) },
            cards: s.cards.filter { oldCards[$0.key] != $0.value }.map { ($0.key, $0.value) },
            newResults: try s.results.filter { !oldResults.contains($0.quizID) }.map { ($0, String(decoding: try encoder.encode($0), as: UTF8.self)) })
    }

    /// Every table that holds anything about a chat: erased together (tests check none is missed).
    public static let tablesWithChatRows = ["learner", "session", "question_progress", "answer", "quiz_result", "timer",
                                            "outbox", "message_ref", "broadcast_delivery", "card"]

    static func erase(_ db: Database, chatID: Int64) throws {
        // Children first, even though foreign keys would cascade: outbox and message_ref have no FK.
        for table in tablesWithChatRows.reversed() {
            try db.execute(sql: "DELETE FROM \(table) WHERE chat_id = ?", arguments: [chatID])
        }
    }

    // MARK: - nudges

    /// Learners whose planned reminder time has come (an index range scan on next_nudge_at).
    public func dueNudges(now: Date, limit: Int = 1_000) throws -> [Int64] {
        try writer.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT chat_id FROM learner WHERE next_nudge_at IS NOT NULL AND next_nudge_at <= ? ORDER BY next_nudge_at LIMIT ?
                """, arguments: [now.timeIntervalSince1970, limit])
        }
    }

    // MARK: - timers

    public func dueTimers(now: Date, limit: Int = 500) throws -> [DueTimer] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT chat_id, key FROM timer WHERE due_at <= ? ORDER BY due_at LIMIT ?",
                             arguments: [now.timeIntervalSince1970, limit]).map { DueTimer(chatID: $0["chat_id"], key: $0["key"]) }
        }
    }

    public func nextTimerDue() throws -> Date? {
        try writer.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(due_at) FROM timer").map(Date.init(timeIntervalSince1970:))
        }
    }

    static func insertOutbox(_ db: Database, _ item: OutboxItem, now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO outbox(chat_id, method, body, edit_tag, save_tag, picture, priority, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [item.chatID, item.method, String(decoding: item.body, as: UTF8.self), item.editTag,
                                     item.saveTag, item.picture, item.priority, now.timeIntervalSince1970])
    }

    // MARK: - outbox

    /// The oldest pending row of every chat that has one (at most `limit` chats), replies first.
    /// Only the head of each chat's queue is returned: a chat's messages go strictly in order.
    public func pendingHeads(limit: Int, now: Date, excluding busy: Set<Int64> = []) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        // Asked every few milliseconds under load: a cached statement, and only the rows taken
        // are copied out (busy chats' heads are skipped on the cursor).
        return try writer.read { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT o.* FROM outbox o
                JOIN (SELECT chat_id, MIN(id) AS id FROM outbox WHERE status = 'pending' AND priority >= 0 GROUP BY chat_id) h ON h.id = o.id
                WHERE o.not_before <= ?
                ORDER BY o.priority, o.id LIMIT ?
                """), arguments: [now.timeIntervalSince1970, limit + busy.count])
            var heads: [OutboxItem] = []
            while heads.count < limit, let row = try rows.next() {
                if busy.contains(row["chat_id"]) { continue }
                heads.append(Self.outboxItem(row))
            }
            return heads
        }
    }

    /// The next pending row of one chat, if it is due.
    /// `after`: the row just delivered, whose "sent" mark may still be on its way (see `markSent([…])`).
    public func nextPending(chatID: Int64, now: Date, after: Int64 = 0) throws -> OutboxItem? {
        try writer.read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT * FROM outbox WHERE chat_id = ? AND status = 'pending' AND priority >= 0 AND id > ? ORDER BY id LIMIT 1
                """), arguments: [chatID, after]).flatMap { row in
                (row["not_before"] as Double) <= now.timeIntervalSince1970 ? Self.outboxItem(row) : nil
            }
        }
    }

    /// Due button-tap answers, oldest first, whatever their chats are doing.
    public func pendingTaps(limit: Int, now: Date, excluding busy: Set<Int64> = []) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        return try writer.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM outbox WHERE status = 'pending' AND priority < 0 AND not_before <= ? ORDER BY priority, id LIMIT ?
                """), arguments: [now.timeIntervalSince1970, limit + busy.count])
                .map(Self.outboxItem).filter { !busy.contains($0.id) }.prefix(limit).map { $0 }
        }
    }

    static func outboxItem(_ r: Row) -> OutboxItem {
        OutboxItem(id: r["id"], chatID: r["chat_id"], method: r["method"], body: Data((r["body"] as String).utf8),
                   editTag: r["edit_tag"], saveTag: r["save_tag"], picture: r["picture"], priority: r["priority"],
                   attempts: r["attempts"])
    }

    /// Earliest time a pending row becomes due (for the sender's sleep), nil when none is pending.
    public func nextDue() throws -> Date? {
        try writer.read { db in
            try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(not_before) FROM outbox WHERE status = 'pending'")).map(Date.init(timeIntervalSince1970:))
        }
    }

    public func pendingCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'pending'") ?? 0 }
    }

    public func markSent(_ item: OutboxItem, messageID: Int64?) throws {
        try markSent([(item, messageID)])
    }

    /// Marks many delivered rows in one transaction: one write per message was, at hundreds a
    /// second, most of the sender's time and emptied every reader's page cache each time.
    public func markSent(_ delivered: [(item: OutboxItem, messageID: Int64?)]) throws {
        guard !delivered.isEmpty else { return }
        try writer.write { db in
            let now = Date().timeIntervalSince1970
            for (item, messageID) in delivered {
                try db.cachedStatement(sql: "UPDATE outbox SET status = 'sent', message_id = ?, attempts = attempts + 1 WHERE id = ?")
                    .execute(arguments: [messageID, item.id])
                if let tag = item.saveTag, let messageID {
                    try db.cachedStatement(sql: """
                        INSERT INTO message_ref(chat_id, tag, message_id, saved_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT(chat_id, tag) DO UPDATE SET message_id = excluded.message_id, saved_at = excluded.saved_at
                        """).execute(arguments: [item.chatID, tag, messageID, now])
                }
            }
        }
    }

    /// Puts a row back to wait (429, 5xx, network): the whole chat waits behind it, keeping order.
    public func retryLater(_ item: OutboxItem, until: Date, error: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, not_before = ?, error = ? WHERE id = ?",
                           arguments: [until.timeIntervalSince1970, error, item.id])
        }
    }

    /// Holds every pending row of one chat until `until` (a per-chat 429).
    public func holdChat(_ chatID: Int64, until: Date) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET not_before = MAX(not_before, ?) WHERE chat_id = ? AND status = 'pending'",
                           arguments: [until.timeIntervalSince1970, chatID])
        }
    }

    public func markFailed(_ item: OutboxItem, error: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ? WHERE id = ?",
                           arguments: [error, item.id])
        }
    }

    /// The learner blocked the bot: drop everything queued for them and remember it.
    public func markBlocked(chatID: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET status = 'dropped', error = 'blocked' WHERE chat_id = ? AND status = 'pending'",
                           arguments: [chatID])
            try db.execute(sql: "UPDATE learner SET blocked = 1 WHERE chat_id = ?", arguments: [chatID])
        }
    }

    public func messageID(chatID: Int64, tag: String) throws -> Int64? {
        try writer.read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT message_id FROM message_ref WHERE chat_id = ? AND tag = ?"), arguments: [chatID, tag])
        }
    }

    /// Sent rows older than `before` are history nobody reads: keep the table small.
    public func pruneOutbox(before: Date) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE status != 'pending' AND created_at < ?", arguments: [before.timeIntervalSince1970])
        }
    }

    // MARK: - pictures

    public func pictureFileID(_ picture: String) throws -> String? {
        try writer.read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT file_id FROM picture_file WHERE picture = ?"), arguments: [picture]) }
    }

    public func savePictureFileID(_ picture: String, fileID: String) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO picture_file(picture, file_id) VALUES (?, ?) ON CONFLICT(picture) DO UPDATE SET file_id = excluded.file_id",
                           arguments: [picture, fileID])
        }
    }

    // MARK: - inspection (tests, stats)

    /// Runs a read-only SQL query and returns its rows as string dictionaries (tests and diagnostics).
    public func rows(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable] = []) throws -> [[String: String]] {
        try writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                var d: [String: String] = [:]
                for (col, value) in row { d[col] = value.isNull ? "NULL" : (String.fromDatabaseValue(value) ?? "\(value)") }
                return d
            }
        }
    }
}

// MARK: - broadcasts and statistics

public struct Broadcast: Equatable, Sendable {
    public var id: Int64
    public var stateCode: String?
    public var text: String
    public var status: String
    public var adminChatID: Int64?
    public var recipients: Int
    public var lastChatID: Int64
}

public struct BroadcastProgress: Equatable, Sendable {
    public var queued: Int
    public var sent: Int
    public var blocked: Int
    public var failed: Int
    public var pending: Int

    public init(queued: Int, sent: Int, blocked: Int, failed: Int, pending: Int) {
        self.queued = queued; self.sent = sent; self.blocked = blocked; self.failed = failed; self.pending = pending
    }
}

public struct UsageStats: Equatable, Sendable {
    public var learners: Int
    public var activeToday: Int
    public var activeWeek: Int
    public var answersToday: Int
    public var blocked: Int
    public var byState: [(code: String, learners: Int)]

    public static func == (a: UsageStats, b: UsageStats) -> Bool {
        a.learners == b.learners && a.activeToday == b.activeToday && a.activeWeek == b.activeWeek
            && a.answersToday == b.answersToday && a.blocked == b.blocked && a.byState.map(\.code) == b.byState.map(\.code)
    }
}

extension TutorStore {
    /// Who a broadcast reaches: private chats, not blocked, not stopped, in the state if one is given.
    static let audienceSQL = "is_group = 0 AND blocked = 0 AND stopped = 0 AND state_code IS NOT NULL AND (? IS NULL OR state_code = ?)"

    public func audienceCount(stateCode: String?) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL)", arguments: [stateCode, stateCode]) ?? 0
        }
    }

    public func createBroadcast(stateCode: String?, text: String, adminChatID: Int64?, status: String = "draft", now: Date) throws -> Int64 {
        try writer.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL)", arguments: [stateCode, stateCode]) ?? 0
            try db.execute(sql: """
                INSERT INTO broadcast(state_code, text, status, admin_chat_id, recipients, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [stateCode, text, status, adminChatID, count, now.timeIntervalSince1970])
            return db.lastInsertedRowID
        }
    }

    public func broadcast(_ id: Int64) throws -> Broadcast? {
        try writer.read { db in try Self.broadcast(db, id) }
    }

    static func broadcast(_ db: Database, _ id: Int64) throws -> Broadcast? {
        try Row.fetchOne(db, sql: "SELECT * FROM broadcast WHERE id = ?", arguments: [id]).map {
            Broadcast(id: $0["id"], stateCode: $0["state_code"], text: $0["text"], status: $0["status"],
                      adminChatID: $0["admin_chat_id"], recipients: $0["recipients"], lastChatID: $0["last_chat_id"])
        }
    }

    /// draft → sending (or cancelled); returns false if it was not a draft (a second tap).
    public func setBroadcastStatus(_ id: Int64, from: String, to: String) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "UPDATE broadcast SET status = ? WHERE id = ? AND status = ?", arguments: [to, id, from])
            return db.changesCount > 0
        }
    }

    public func sendingBroadcasts() throws -> [Broadcast] {
        try writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM broadcast WHERE status = 'sending' ORDER BY id").compactMap { try Self.broadcast(db, $0) }
        }
    }

    /// Queues the next `limit` recipients of a broadcast, in chat-id order from where it got to.
    /// Delivery rows, outbox rows and the new position commit together, and the delivery primary
    /// key refuses a second row for the same learner: a crash anywhere never sends it twice.
    /// `render` turns the broadcast into the request body for one chat. Returns how many were queued.
    public func enqueueBroadcast(_ id: Int64, limit: Int, now: Date, render: (Broadcast, Int64) -> Data) throws -> Int {
        try writer.write { db in
            guard let b = try Self.broadcast(db, id), b.status == "sending" else { return 0 }
            let chats = try Int64.fetchAll(db, sql: """
                SELECT chat_id FROM learner WHERE \(Self.audienceSQL) AND chat_id > ? ORDER BY chat_id LIMIT ?
                """, arguments: [b.stateCode, b.stateCode, b.lastChatID, limit])
            var queued = 0
            for chat in chats {
                try db.execute(sql: "INSERT OR IGNORE INTO broadcast_delivery(broadcast_id, chat_id) VALUES (?, ?)", arguments: [id, chat])
                guard db.changesCount > 0 else { continue }
                try db.execute(sql: """
                    INSERT INTO outbox(chat_id, method, body, priority, created_at, broadcast_id) VALUES (?, 'sendMessage', ?, ?, ?, ?)
                    """, arguments: [chat, String(decoding: render(b, chat), as: UTF8.self), OutboxItem.bulkPriority, now.timeIntervalSince1970, id])
                queued += 1
            }
            if let last = chats.last {
                try db.execute(sql: "UPDATE broadcast SET last_chat_id = ? WHERE id = ?", arguments: [last, id])
            }
            return queued
        }
    }

    public func broadcastProgress(_ id: Int64) throws -> BroadcastProgress {
        try writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT status, error, COUNT(*) AS n FROM outbox WHERE broadcast_id = ? GROUP BY status, error", arguments: [id])
            var p = BroadcastProgress(queued: 0, sent: 0, blocked: 0, failed: 0, pending: 0)
            for r in rows {
                let n: Int = r["n"]
                p.queued += n
                switch (r["status"] as String, r["error"] as String?) {
                case ("sent", _): p.sent += n
                case ("pending", _): p.pending += n
                case ("dropped", _): p.blocked += n
                case (_, let e) where e?.hasPrefix("403") == true: p.blocked += n
                default: p.failed += n
                }
            }
            return p
        }
    }

    /// Marks a broadcast done once every recipient was queued and nothing is left pending.
    public func finishBroadcastIfComplete(_ id: Int64, now: Date) throws -> Bool {
        try writer.write { db in
            guard let b = try Self.broadcast(db, id), b.status == "sending" else { return false }
            let remaining = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL) AND chat_id > ?",
                                             arguments: [b.stateCode, b.stateCode, b.lastChatID]) ?? 0
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE broadcast_id = ? AND status = 'pending'", arguments: [id]) ?? 0
            guard remaining == 0 && pending == 0 else { return false }
            try db.execute(sql: "UPDATE broadcast SET status = 'done', finished_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, id])
            return true
        }
    }

    public func pendingBulkCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND priority >= ?", arguments: [OutboxItem.bulkPriority]) ?? 0
        }
    }

    // MARK: statistics

    /// `dayStart`: the start of "today" for the figures (the caller picks the zone).
    public func usageStats(now: Date, dayStart: Date) throws -> UsageStats {
        try writer.read { db in
            let weekStart = now.addingTimeInterval(-7 * 86_400).timeIntervalSince1970
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS learners,
                       COALESCE(SUM(last_active_at >= ?), 0) AS today,
                       COALESCE(SUM(last_active_at >= ?), 0) AS week,
                       COALESCE(SUM(blocked), 0) AS blocked
                FROM learner WHERE is_group = 0
                """, arguments: [dayStart.timeIntervalSince1970, weekStart])!
            let answers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM answer WHERE answered_at >= ?", arguments: [dayStart.timeIntervalSince1970]) ?? 0
            let byState = try Row.fetchAll(db, sql: """
                SELECT state_code, COUNT(*) AS n FROM learner WHERE is_group = 0 AND state_code IS NOT NULL
                GROUP BY state_code ORDER BY n DESC, state_code
                """).map { (code: $0["state_code"] as String, learners: $0["n"] as Int) }
            return UsageStats(learners: row["learners"], activeToday: row["today"], activeWeek: row["week"],
                              answersToday: answers, blocked: row["blocked"], byState: byState)
        }
    }

    // MARK: operator requests (CLI → running bot)

    public func setFlag(_ key: String, _ value: String?) throws {
        try writer.write { db in
            if let value {
                try db.execute(sql: "INSERT INTO bot_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM bot_state WHERE key = ?", arguments: [key])
            }
        }
    }

    public func flag(_ key: String) throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM bot_state WHERE key = ?", arguments: [key]) }
    }
}
