import Foundation
import GRDB
import TutorCore

/// One batch's open write transaction, as the bot's commit sees it.
public struct BatchWrite {
    let db: Database
    /// The outbox rows this transaction wrote (a chat rolled back takes its rows out again).
    let inserted = InsertedRows()

    final class InsertedRows { var rows: [OutboxItem] = [] }

    /// Saves one chat's change in a savepoint of its own. If the chat's rows are refused (a CHECK,
    /// a type, a value SQLite won't take), they are rolled back alone and the failure returned: the
    /// rest of the batch goes on and commits. Anything that is not about this chat's rows (a full
    /// disk, an I/O error, a lost lock) throws and fails the whole batch, which Telegram re-delivers.
    /// A copy of the chat older than the stored one (`StaleChat`) is refused the same way, marked
    /// `stale`: the caller reloads the chat and does its events again.
    public func save(_ change: inout ChatChange) throws -> ChatSaveFailure? {
        // Cached statements rather than GRDB's `inSavepoint`, which parses both statements anew for
        // every chat.
        try db.cachedStatement(sql: "SAVEPOINT chat").execute()
        do {
            var rows: [OutboxItem] = []
            try TutorStore.save(db, &change, inserted: &rows)
            try db.cachedStatement(sql: "RELEASE SAVEPOINT chat").execute()
            inserted.rows += rows
            return nil
        } catch {
            let reason: String
            var stale = false
            switch error {
            case let error as StaleChat:
                reason = error.description
                stale = true
            case let error as DatabaseError where ChatSaveFailure.isAboutTheRows(error):
                reason = "\(error.resultCode): \(error.message ?? "")"
            case is EncodingError:
                reason = "the session could not be encoded"
            default:
                // Not about this chat (a full disk, an I/O error): the whole batch fails, and SQLite
                // may already have rolled the transaction back, so the savepoint is left alone.
                throw error
            }
            try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT chat").execute()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT chat").execute()
            return ChatSaveFailure(chatID: change.after.learner.chatID, reason: reason, stale: stale)
        }
    }

    /// Queues messages that belong to no saved change (the apology to a chat whose save failed).
    public func queue(_ items: [OutboxItem], now: Date) throws {
        for item in items { inserted.rows.append(try TutorStore.insertOutbox(db, item, now: now)) }
    }
}

/// One chat's save refused by the database (rolled back alone; see `BatchWrite.save`).
public struct ChatSaveFailure: Error, CustomStringConvertible {
    public var chatID: Int64
    public var reason: String
    /// Refused because another process saved the chat since its copy was read (`StaleChat`).
    public var stale = false
    public var description: String { "chat \(chatID) could not be saved: \(reason)" }

    /// Whether a failed commit was about what was written (retrying the same rows fails the same
    /// way) rather than a passing state of the database or the disk (busy, locked, an I/O error).
    public static func isAboutTheRows(_ error: Error) -> Bool {
        switch error {
        case let error as DatabaseError: return isAboutTheRows(error)
        case is EncodingError, is ChatSaveFailure, is StaleChat: return true
        default: return false
        }
    }

    /// Errors about the rows being written, as opposed to the database or the disk.
    static func isAboutTheRows(_ error: DatabaseError) -> Bool {
        [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
    }
}

/// Reads a row's columns without trusting them: a value of the wrong type (or NULL) gives the
/// fallback and is noted, instead of trapping (GRDB's subscripts) or failing the whole chat.
struct RowReader {
    let row: Row
    let table: String
    let key: String
    var repairs: [String] = []

    init(row: Row, table: String, key: String) {
        self.row = row
        self.table = table
        self.key = key
    }

    mutating func value<T: DatabaseValueConvertible>(_ column: String, _ fallback: T) -> T {
        do { return try row.decode(T.self, forColumn: column) } catch {
            repairs.append("\(table).\(column) (\(key)) unreadable, now \(fallback): \(error)")
            return fallback
        }
    }

    /// Brings learner values back inside the schema's CHECKs (a hand edit, a bug of an older
    /// version): a value SQLite would refuse would otherwise fail every later save of this chat.
    mutating func clamp(_ l: inout Learner) {
        func fix<T: Comparable>(_ name: String, _ value: inout T, _ range: ClosedRange<T>) {
            let fixed = min(max(value, range.lowerBound), range.upperBound)
            if fixed != value {
                repairs.append("\(table).\(name) (\(key)) was \(value), now \(fixed)")
                value = fixed
            }
        }
        fix("streak_current", &l.streak.current, 0...Int.max)
        fix("streak_best", &l.streak.best, l.streak.current...Int.max)
        fix("streak_freezes", &l.streak.freezes, 0...Streak.maxFreezes)
        fix("nudge_minute", &l.nudgeMinute, 0...1439)
        fix("ignored_nudges", &l.ignoredNudges, 0...Int.max)
        fix("xp", &l.xp, 0...Int.max)
        fix("cards_reviewed", &l.cardsReviewed, 0...Int.max)
        fix("answered_today", &l.answeredToday, 0...Int.max)
        if let code = l.stateCode, code.count != 2 {
            repairs.append("\(table).state_code (\(key)) was \(code), now none")
            l.stateCode = nil
        }
    }
}
