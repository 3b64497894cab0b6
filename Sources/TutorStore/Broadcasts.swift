import Foundation
import GRDB
import TutorCore

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

extension Broadcast: FetchableRecord {
    public init(row r: Row) throws {
        self.init(
            id: try r.decode(forColumn: "id"), stateCode: try r.decode(forColumn: "state_code"),
            text: try r.decode(forColumn: "text"),
            status: try r.decode(forColumn: "status"), adminChatID: try r.decode(forColumn: "admin_chat_id"),
            recipients: try r.decode(forColumn: "recipients"), lastChatID: try r.decode(forColumn: "last_chat_id"))
    }
}

public struct BroadcastProgress: Equatable, Sendable {
    public var queued: Int
    public var sent: Int
    public var blocked: Int
    public var failed: Int
    public var pending: Int

    public init(queued: Int, sent: Int, blocked: Int, failed: Int, pending: Int) {
        self.queued = queued
        self.sent = sent
        self.blocked = blocked
        self.failed = failed
        self.pending = pending
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
            && a.answersToday == b.answersToday && a.blocked == b.blocked
            && a.byState.map(\.code) == b.byState.map(\.code)
    }
}

extension TutorStore {
    /// Who a broadcast reaches: private chats, not blocked, not stopped, in the state if one is given.
    static let audienceSQL =
        "is_group = 0 AND blocked = 0 AND stopped = 0 AND state_code IS NOT NULL AND (? IS NULL OR state_code = ?)"

    public func audienceCount(stateCode: String?) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL)", arguments: [stateCode, stateCode])
                ?? 0
        }
    }

    /// `updateID`: the admin's update that asked for it; the same update again (a batch delivered
    /// twice) gets the draft it made the first time.
    public func createBroadcast(
        stateCode: String?, text: String, adminChatID: Int64?, status: String = "draft", now: Date,
        updateID: Int64? = nil
    ) throws -> Int64 {
        try writer.write { db in
            if let updateID,
                let made = try Int64.fetchOne(
                    db, sql: "SELECT id FROM broadcast WHERE created_by_update = ?",
                    arguments: [updateID])
            {
                return made
            }
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL)",
                    arguments: [stateCode, stateCode]) ?? 0
            try db.execute(
                sql: """
                    INSERT INTO broadcast(state_code, text, status, admin_chat_id, recipients, created_at, \
                    created_by_update)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [stateCode, text, status, adminChatID, count, now.timeIntervalSince1970, updateID])
            return db.lastInsertedRowID
        }
    }

    /// The number admins see: sent broadcasts counted in order (a cancelled draft takes none).
    public func broadcastNumber(_ id: Int64) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM broadcast WHERE status IN ('sending', 'done') AND id <= ?",
                arguments: [id]) ?? 0
        }
    }

    public func broadcast(_ id: Int64) throws -> Broadcast? {
        try writer.read { db in try Self.broadcast(db, id) }
    }

    static func broadcast(_ db: Database, _ id: Int64) throws -> Broadcast? {
        try Broadcast.fetchOne(db, sql: "SELECT * FROM broadcast WHERE id = ?", arguments: [id])
    }

    /// draft → sending (or cancelled); returns false if it was not a draft (a second tap), true
    /// again for the tap that decided it (`updateID`, delivered twice).
    public func setBroadcastStatus(_ id: Int64, from: String, to: String, updateID: Int64? = nil) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE broadcast SET status = ?, decided_by_update = ? WHERE id = ? AND status = ?",
                arguments: [to, updateID, id, from])
            if db.changesCount > 0 { return true }
            guard let updateID else { return false }
            return try Bool.fetchOne(
                db, sql: "SELECT status = ? AND decided_by_update = ? FROM broadcast WHERE id = ?",
                arguments: [to, updateID, id]) ?? false
        }
    }

    public func sendingBroadcasts() throws -> [Broadcast] {
        try writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM broadcast WHERE status = 'sending' ORDER BY id").compactMap {
                try Self.broadcast(db, $0)
            }
        }
    }

    /// Queues the next `limit` recipients of a broadcast, in chat-id order from where it got to.
    /// Delivery rows, outbox rows and the new position commit together, and the delivery primary
    /// key refuses a second row for the same learner: a crash anywhere never sends it twice.
    /// `render` turns the broadcast into the request body for one chat. Returns how many were queued.
    public func enqueueBroadcast(_ id: Int64, limit: Int, now: Date, render: (Broadcast, Int64) -> Data) throws -> Int {
        try writer.write { db in
            guard let b = try Self.broadcast(db, id), b.status == "sending" else { return 0 }
            let chats = try Int64.fetchAll(
                db,
                sql: """
                    SELECT chat_id FROM learner WHERE \(Self.audienceSQL) AND chat_id > ? ORDER BY chat_id LIMIT ?
                    """, arguments: [b.stateCode, b.stateCode, b.lastChatID, limit])
            var queued = 0
            for chat in chats {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO broadcast_delivery(broadcast_id, chat_id) VALUES (?, ?)",
                    arguments: [id, chat])
                guard db.changesCount > 0 else { continue }
                try db.execute(
                    sql: """
                        INSERT INTO outbox(chat_id, method, body, priority, created_at, broadcast_id) VALUES (?, \
                        'sendMessage', ?, ?, ?, ?)
                        """,
                    arguments: [
                        chat, String(decoding: render(b, chat), as: UTF8.self), OutboxItem.bulkPriority,
                        now.timeIntervalSince1970, id,
                    ])
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
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT status, error, COUNT(*) AS n FROM outbox WHERE broadcast_id = ? GROUP BY status, error",
                arguments: [id])
            var p = BroadcastProgress(queued: 0, sent: 0, blocked: 0, failed: 0, pending: 0)
            for r in rows {
                let n: Int = try r.decode(forColumn: "n")
                p.queued += n
                switch (try r.decode(String.self, forColumn: "status"), try r.decode(String?.self, forColumn: "error"))
                {
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
            let remaining =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM learner WHERE \(Self.audienceSQL) AND chat_id > ?",
                    arguments: [b.stateCode, b.stateCode, b.lastChatID]) ?? 0
            let pending =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM outbox WHERE broadcast_id = ? AND status = 'pending'",
                    arguments: [id]) ?? 0
            guard remaining == 0 && pending == 0 else { return false }
            try db.execute(
                sql: "UPDATE broadcast SET status = 'done', finished_at = ? WHERE id = ?",
                arguments: [now.timeIntervalSince1970, id])
            return true
        }
    }

    public func pendingBulkCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND priority >= ?",
                arguments: [OutboxItem.bulkPriority]) ?? 0
        }
    }

    // MARK: statistics

    /// `dayStart`: the start of "today" for the figures (the caller picks the zone).
    public func usageStats(now: Date, dayStart: Date) throws -> UsageStats {
        try writer.read { db in
            let weekStart = now.addingTimeInterval(-7 * 86_400).timeIntervalSince1970
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS learners,
                           COALESCE(SUM(last_active_at >= ?), 0) AS today,
                           COALESCE(SUM(last_active_at >= ?), 0) AS week,
                           COALESCE(SUM(blocked), 0) AS blocked
                    FROM learner WHERE is_group = 0
                    """, arguments: [dayStart.timeIntervalSince1970, weekStart])!
            let answers =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM answer WHERE answered_at >= ?",
                    arguments: [dayStart.timeIntervalSince1970]) ?? 0
            let byState = try Row.fetchAll(
                db,
                sql: """
                    SELECT state_code, COUNT(*) AS n FROM learner WHERE is_group = 0 AND state_code IS NOT NULL
                    GROUP BY state_code ORDER BY n DESC, state_code
                    """
            ).map {
                (
                    code: try $0.decode(String.self, forColumn: "state_code"),
                    learners: try $0.decode(Int.self, forColumn: "n")
                )
            }
            return UsageStats(
                learners: try row.decode(forColumn: "learners"), activeToday: try row.decode(forColumn: "today"),
                activeWeek: try row.decode(forColumn: "week"), answersToday: answers,
                blocked: try row.decode(forColumn: "blocked"),
                byState: byState)
        }
    }

    // MARK: operator requests (CLI → running bot)

    public func setFlag(_ key: String, _ value: String?) throws {
        try writer.write { db in
            if let value {
                try db.execute(
                    sql:
                        """
                        INSERT INTO bot_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = \
                        excluded.value
                        """,
                    arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM bot_state WHERE key = ?", arguments: [key])
            }
        }
    }

    public func flag(_ key: String) throws -> String? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM bot_state WHERE key = ?", arguments: [key])
        }
    }
}
