import Foundation

/// The outbox's pending rows held in memory, in order per chat, and which row each chat sends
/// next. The database stays the log (a row is written with the change that caused it, and marked
/// when Telegram takes it); the sender takes each new row in once (replies handed over by the
/// commit, `TutorStore.observeCommittedReplies`; bulk rows read as `pendingBulk(after:)`) and asks
/// this, not the database, what to send. Asking the database, a
/// grouped query over the whole queue every few milliseconds and another query after every
/// message, was a quarter of the bot's CPU under load.
///
/// Replies are all held (a few per active learner). Bulk rows (reminders, news, broadcasts) are
/// held up to `bulkHeldAtMost` and read on as they go: with Telegram unreachable for hours,
/// reminders pile up in the database by the hundred thousand, and holding them all would take
/// the memory the bot runs in.
public struct OutboxQueue: Sendable {
    /// Each chat's pending rows, by id. A chat with none has no entry.
    private var chats: [Int64: [OutboxItem]] = [:]
    /// The highest reply and bulk row ids read in: the next look reads only rows after them. Row
    /// ids are never reused (the outbox is AUTOINCREMENT), so no row committed later has a smaller one.
    public private(set) var repliesReadUpTo: Int64 = 0
    public private(set) var bulkReadUpTo: Int64 = 0
    /// Bulk rows held now.
    public private(set) var bulkHeld = 0
    /// Rows with a time to wait for (`notBefore`): when none is, `nextHeld` need not look. Under
    /// load it was asked at every look, and went through every row held to say "none".
    private var waiting = 0
    public static let bulkHeldAtMost = 5_000

    public init() {}

    public init(_ rows: [OutboxItem]) { add(rows) }

    /// Pending rows held, over all chats.
    public var count: Int { chats.values.reduce(0) { $0 + $1.count } }

    /// How many more bulk rows to read in.
    public var bulkRoom: Int { max(0, Self.bulkHeldAtMost - bulkHeld) }

    /// Adds rows read from the store, keeping each chat's order; a row already held is replaced.
    public mutating func add(_ rows: [OutboxItem]) {
        for row in rows {
            if row.priority == 0 {
                repliesReadUpTo = max(repliesReadUpTo, row.id)
            } else {
                bulkReadUpTo = max(bulkReadUpTo, row.id)
            }
            put(row)
        }
    }

    /// Inserts a row in its chat's order, or replaces the one with its id (a retry's new time).
    public mutating func put(_ row: OutboxItem) {
        // Modified in place through the subscript: a copy taken out and written back would copy
        // the chat's whole array on every row.
        let replaced = chats[row.chatID, default: []].insert(row)
        if replaced == nil, row.priority != 0 { bulkHeld += 1 }
        waiting += (row.notBefore != nil ? 1 : 0) - (replaced?.notBefore != nil ? 1 : 0)
    }

    /// Forgets a row (sent, or given up for good).
    public mutating func remove(_ row: OutboxItem) {
        guard var rows = chats.removeValue(forKey: row.chatID) else { return }
        if let i = rows.firstIndex(where: { $0.id == row.id }) {
            let removed = rows.remove(at: i)
            if removed.priority != 0 { bulkHeld -= 1 }
            if removed.notBefore != nil { waiting -= 1 }
        }
        if !rows.isEmpty { chats[row.chatID] = rows }
    }

    /// Replaces one chat's rows with what the store holds now (its rows were erased, or dropped).
    /// The marks stay: other chats' rows before these may not have been read yet.
    public mutating func replace(chatID: Int64, with rows: [OutboxItem]) {
        if let old = chats.removeValue(forKey: chatID) {
            bulkHeld -= old.count { $0.priority != 0 }
            waiting -= old.count { $0.notBefore != nil }
        }
        for row in rows where row.chatID == chatID { put(row) }
    }

    /// Replaces every row with what the store holds now (rows changed outside the sender).
    /// `bulkComplete`: false when the bulk rows given stop at the cap; the bulk rows after the
    /// last of them are then read on later, as room frees.
    public mutating func replaceAll(with rows: [OutboxItem], bulkComplete: Bool = true) {
        chats = [:]
        bulkHeld = 0
        waiting = 0
        if !bulkComplete { bulkReadUpTo = rows.filter { $0.priority != 0 }.map(\.id).max() ?? 0 }
        add(rows)
    }

    /// The row this chat sends next, if it is due: its first reply or first due bulk row (a held
    /// bulk row, news waiting out quiet hours, doesn't hold up replies queued after it), and only
    /// if that row is due (a reply waiting out a retry holds up the chat: order is kept).
    /// `after`: rows up to this id are skipped (the row just tried).
    public func next(chatID: Int64, now: Date, after: Int64 = 0) -> OutboxItem? {
        guard let rows = chats[chatID], let i = Self.nextIndex(rows, now: now, after: after) else { return nil }
        return rows[i]
    }

    /// `next`'s position in a chat's rows. By index: the loop is run for every chat at every look,
    /// and iterating the rows themselves copied each (a retain of its strings and body).
    static func nextIndex(_ rows: [OutboxItem], now: Date, after: Int64) -> Int? {
        for i in rows.indices where rows[i].id > after && rows[i].priority >= 0 {
            let due = (rows[i].notBefore ?? .distantPast) <= now
            if rows[i].priority == 0 || due { return due ? i : nil }
        }
        return nil
    }

    /// The next row of every chat not in `busy` that has one due (at most `limit`): replies before
    /// bulk, then the longest waiting first.
    public func heads(limit: Int, now: Date, excluding busy: Set<Int64> = []) -> [OutboxItem] {
        guard limit > 0 else { return [] }
        // Sorted as (priority, id, chat, position) keys, not as rows: sorting the rows themselves
        // moved whole items about and was most of a look.
        var keys: [(priority: Int, id: Int64, chatID: Int64, index: Int)] = []
        for (chatID, rows) in chats where !busy.contains(chatID) {
            if let i = Self.nextIndex(rows, now: now, after: 0) {
                keys.append((rows[i].priority, rows[i].id, chatID, i))
            }
        }
        keys.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
        return keys.prefix(limit).map { chats[$0.chatID]![$0.index] }
    }

    /// When the earliest held row (a retry, news held for the morning) becomes due after `now`;
    /// nil when none is held. Rows due already are sent as chats come free.
    public func nextHeld(after now: Date) -> Date? {
        guard waiting > 0 else { return nil }
        var earliest: Date?
        for rows in chats.values {
            for i in rows.indices {
                if let at = rows[i].notBefore, at > now, at < (earliest ?? .distantFuture) { earliest = at }
            }
        }
        return earliest
    }
}

extension [OutboxItem] {
    /// Inserts by id; a row with the same id is replaced. New rows come in id order, so this is
    /// nearly always an append.
    /// Returns the row it replaced, nil when the row is new.
    fileprivate mutating func insert(_ row: OutboxItem) -> OutboxItem? {
        if let last, last.id < row.id {
            append(row)
            return nil
        }
        if let i = firstIndex(where: { $0.id >= row.id }) {
            if self[i].id == row.id {
                defer { self[i] = row }
                return self[i]
            }
            insert(row, at: i)
        } else {
            append(row)
        }
        return nil
    }
}
