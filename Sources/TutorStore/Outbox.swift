import Foundation
import GRDB
import TutorCore

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
    /// Not before this (a friend's news held through the recipient's quiet hours). A held bulk row
    /// doesn't hold up the chat's replies queued after it.
    public var notBefore: Date? = nil
    /// Reminders and broadcasts: sent after every waiting reply, under the global bulk rate.
    public static let bulkPriority = 1
    /// Button-tap answers (`answerCallbackQuery`): not messages, so outside every chat's order and
    /// every pace; sent the moment they are committed (Telegram drops an answer after ~15 s).
    public static let tapPriority = -1

    public init(
        id: Int64 = 0, chatID: Int64, method: String, body: Data, editTag: String? = nil,
        saveTag: String? = nil, picture: String? = nil, priority: Int = 0, attempts: Int = 0
    ) {
        self.id = id
        self.chatID = chatID
        self.method = method
        self.body = body
        self.editTag = editTag
        self.saveTag = saveTag
        self.picture = picture
        self.priority = priority
        self.attempts = attempts
    }
}

/// An outbox row read back: every column decoded with a thrown error (a NULL or a wrong type
/// fails that read, it does not trap the process as GRDB's subscripts would).
extension OutboxItem: FetchableRecord {
    public init(row r: Row) throws {
        self.init(
            id: try r.decode(forColumn: "id"), chatID: try r.decode(forColumn: "chat_id"),
            method: try r.decode(forColumn: "method"),
            body: Data(try r.decode(String.self, forColumn: "body").utf8), editTag: try r.decode(forColumn: "edit_tag"),
            saveTag: try r.decode(forColumn: "save_tag"), picture: try r.decode(forColumn: "picture"),
            priority: try r.decode(forColumn: "priority"), attempts: try r.decode(forColumn: "attempts"))
        let notBefore = try r.decode(Double.self, forColumn: "not_before")
        self.notBefore = notBefore > 0 ? Date(timeIntervalSince1970: notBefore) : nil
    }
}

/// The outbox: ready Bot API requests, delivered in order per chat, marked when Telegram accepts them.
extension TutorStore {

    /// Returns the row as stored, with its id (what a read of it gives back).
    @discardableResult
    static func insertOutbox(_ db: Database, _ item: OutboxItem, now: Date) throws -> OutboxItem {
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox(chat_id, method, body, edit_tag, save_tag, picture, priority, created_at, \
                not_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            item.chatID, item.method, String(decoding: item.body, as: UTF8.self), item.editTag,
            item.saveTag, item.picture, item.priority, now.timeIntervalSince1970,
            item.notBefore?.timeIntervalSince1970 ?? 0,
        ])
        var stored = item
        stored.id = db.lastInsertedRowID
        stored.attempts = 0
        if let at = stored.notBefore, at.timeIntervalSince1970 <= 0 { stored.notBefore = nil }
        return stored
    }

    /// The highest id the outbox has handed out (AUTOINCREMENT never reuses one): every row up to
    /// it that was pending when `db`'s read began is in that read.
    static func outboxIDsUpTo(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'outbox'")) ?? 0
    }

    /// Every pending row (of one chat, for a console), oldest first, with the highest id handed
    /// out when they were read (see `OutboxSender.readNewRows`): replies, and bulk rows up to `bulkLimit`.
    public func pendingSnapshot(chatID: Int64?, bulkLimit: Int) throws -> (
        replies: [OutboxItem], bulk: [OutboxItem], upTo: Int64
    ) {
        try writer.read { db in
            let replies = try OutboxItem.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM outbox INDEXED BY outbox_pending WHERE status = 'pending' AND priority = 0
                            AND (?1 IS NULL OR chat_id = ?1) ORDER BY id
                        """), arguments: [chatID])
            let bulk = try OutboxItem.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM outbox INDEXED BY outbox_pending WHERE status = 'pending' AND priority = ?1
                            AND (?2 IS NULL OR chat_id = ?2) ORDER BY id LIMIT ?3
                        """), arguments: [OutboxItem.bulkPriority, chatID, bulkLimit])
            return (replies, bulk, try Self.outboxIDsUpTo(db))
        }
    }

    /// One chat's pending rows, with the highest id handed out when they were read.
    public func pendingSnapshot(chatID: Int64) throws -> (rows: [OutboxItem], upTo: Int64) {
        try writer.read { db in
            let rows = try OutboxItem.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM outbox INDEXED BY outbox_pending_by_chat WHERE chat_id = ? AND status = \
                        'pending' AND priority >= 0 ORDER BY id
                        """), arguments: [chatID])
            return (rows, try Self.outboxIDsUpTo(db))
        }
    }

    // MARK: - outbox

    /// Pending replies after row `id`, oldest first: the sender's look for new rows (`OutboxQueue`).
    /// `chatID`: that chat's alone (a console sharing its database with another).
    public func pendingReplies(after id: Int64, chatID: Int64? = nil) throws -> [OutboxItem] {
        try pendingRows(priority: 0, after: id, limit: nil, chatID: chatID)
    }

    /// At most `limit` pending bulk rows (reminders, news, broadcasts) after row `id`, oldest first.
    public func pendingBulk(after id: Int64, limit: Int, chatID: Int64? = nil) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        return try pendingRows(priority: OutboxItem.bulkPriority, after: id, limit: limit, chatID: chatID)
    }

    /// Every pending row of one chat (of all, for nil), oldest first: a chat whose rows changed
    /// outside the sender is read again. Button-tap answers are never stored.
    public func pendingRows(chatID: Int64? = nil) throws -> [OutboxItem] {
        try writer.read { db in
            guard let chatID else {
                return try OutboxItem.fetchAll(
                    db, sql: "SELECT * FROM outbox WHERE status = 'pending' AND priority >= 0 ORDER BY id")
            }
            return try OutboxItem.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM outbox INDEXED BY outbox_pending_by_chat WHERE chat_id = ? AND status = \
                        'pending' AND priority >= 0 ORDER BY id
                        """), arguments: [chatID])
        }
    }

    /// Asked after every commit: a range of the pending rows' (status, priority, id) index, so
    /// only new rows are read, however many bulk rows wait unread behind them.
    private func pendingRows(priority: Int, after id: Int64, limit: Int?, chatID: Int64?) throws -> [OutboxItem] {
        try writer.read { db in
            try OutboxItem.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM outbox INDEXED BY outbox_pending WHERE status = 'pending' AND priority = ?1 \
                        AND id > ?2
                            AND (?3 IS NULL OR chat_id = ?3) ORDER BY id LIMIT ?4
                        """), arguments: [priority, id, chatID, limit ?? -1])
        }
    }

    /// When the longest-waiting pending row became due (queued, or its retry time came), nil when
    /// none is pending: health's "the outbox stopped draining".
    /// `chatID`: that chat's rows only (a console, which never sends another console's rows).
    public func oldestDuePending(chatID: Int64? = nil) throws -> Date? {
        try writer.read { db in
            try Double.fetchOne(
                db,
                sql:
                    """
                    SELECT MIN(MAX(not_before, created_at)) FROM outbox WHERE status = 'pending' AND (?1 IS NULL \
                    OR chat_id = ?1)
                    """,
                arguments: [chatID]
            )
            .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Whether replies to this chat are still waiting to be sent (stray input then gets no more).
    public func hasPendingReplies(chatID: Int64) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM outbox WHERE status = 'pending' AND priority = 0 AND chat_id = ?)
                        """), arguments: [chatID]) ?? false
        }
    }

    /// Pending rows (of one chat only, for a console sharing its database with another; due by
    /// `dueBy` only: a row held for later, like news waiting out quiet hours, isn't waited for).
    public func pendingCount(chatID: Int64? = nil, dueBy: Date? = nil) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND (?1 IS NULL OR chat_id = ?1) AND (?2 IS \
                    NULL OR not_before <= ?2)
                    """, arguments: [chatID, dueBy?.timeIntervalSince1970]) ?? 0
        }
    }

    /// News that is only worth having on time (a study reminder, a friend played your challenge:
    /// bulk rows that are not a broadcast) and waited past `cutoff` since it was due is dropped, not delivered late:
    /// "time to study" two days on, right before "your streak ended", helps no one. Returns how many.
    @discardableResult
    public func dropStaleNews(queuedBefore cutoff: Date) throws -> Int {
        try writer.write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET status = 'dropped', error = 'stale'
                    WHERE status = 'pending' AND priority >= ? AND broadcast_id IS NULL AND MAX(created_at, \
                    not_before) < ?
                    """, arguments: [OutboxItem.bulkPriority, cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }

    public func markSent(_ item: OutboxItem, messageID: Int64?) throws {
        try markSent([(item, messageID)])
    }

    /// Marks many delivered rows in one transaction: one write per message was, at hundreds a
    /// second, most of the sender's time and emptied every reader's page cache each time.
    /// A delivered row is deleted: the message is in the chat now, and keeping it cost a rewrite
    /// of the whole row and three of its indexes, then an hour later the pruning's delete. A
    /// broadcast's rows are marked instead: its counts are read from them.
    public func markSent(_ delivered: [(item: OutboxItem, messageID: Int64?)]) throws {
        guard !delivered.isEmpty else { return }
        try writer.write { db in
            let now = Date().timeIntervalSince1970
            for (item, messageID) in delivered {
                try db.cachedStatement(sql: "DELETE FROM outbox WHERE id = ? AND broadcast_id IS NULL").execute(
                    arguments: [item.id])
                if db.changesCount == 0 {
                    try db.cachedStatement(
                        sql: "UPDATE outbox SET status = 'sent', message_id = ?, attempts = attempts + 1 WHERE id = ?"
                    )
                    .execute(arguments: [messageID, item.id])
                }
                if let tag = item.saveTag, let messageID {
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO message_ref(chat_id, tag, message_id, saved_at) VALUES (?, ?, ?, ?)
                            ON CONFLICT(chat_id, tag) DO UPDATE SET message_id = excluded.message_id, saved_at = \
                            excluded.saved_at
                            """
                    ).execute(arguments: [item.chatID, tag, messageID, now])
                }
            }
        }
    }

    /// Puts a row back to wait (429, 5xx, network): the whole chat waits behind it, keeping order.
    public func retryLater(_ item: OutboxItem, until: Date, error: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, not_before = ?, error = ? WHERE id = ?",
                arguments: [until.timeIntervalSince1970, error, item.id])
        }
    }

    public func markFailed(_ item: OutboxItem, error: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ? WHERE id = ?",
                arguments: [error, item.id])
        }
    }

    /// The learner blocked the bot: drop everything queued for them. (Their learner row is marked
    /// blocked by the reducer, in a batch: see `Bot.telegramSaysBlocked`.)
    public func dropQueued(chatID: Int64) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET status = 'dropped', error = 'blocked' WHERE chat_id = ? AND status = 'pending'",
                arguments: [chatID])
        }
    }

    public func messageID(chatID: Int64, tag: String) throws -> Int64? {
        try writer.read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT message_id FROM message_ref WHERE chat_id = ? AND tag = ?"),
                arguments: [chatID, tag])
        }
    }

    // MARK: - pictures

    public func pictureFileID(_ picture: String) throws -> String? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT file_id FROM picture_file WHERE picture = ?"), arguments: [picture])
        }
    }

    public func savePictureFileID(_ picture: String, fileID: String) throws {
        try writer.write { db in
            try db.execute(
                sql:
                    """
                    INSERT INTO picture_file(picture, file_id) VALUES (?, ?) ON CONFLICT(picture) DO UPDATE SET \
                    file_id = excluded.file_id
                    """,
                arguments: [picture, fileID])
        }
    }

}
