import Foundation
import GRDB
import JSONCoding
import Synchronization
import TutorCore

public enum StoreError: Error, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case corruptRow(table: String, key: String, reason: String)
    /// The database was migrated by a newer PermitReady: this binary must not touch it.
    case schemaNewer(path: String, database: String, binary: String)
    /// A maintenance command met a database not yet migrated to this binary's schema.
    case schemaOlder(path: String, database: String, binary: String)
    /// SQLite failed: what it was, in plain words, and the file.
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open database at \(path): \(reason)"
        case .corruptRow(let table, let key, let reason): return "unreadable row in \(table) (\(key)): \(reason)"
        case .schemaNewer(let path, let database, let binary):
            return
                """
                \(path) was migrated by a newer PermitReady (its last migration is \(database); this binary \
                knows up to \(binary)): run the newer binary, or restore a backup taken before the upgrade
                """
        case .schemaOlder(let path, let database, let binary):
            return
                """
                \(path) is at migration \(database), this binary expects \(binary): start the bot (or run \
                `permitready migrate`) to bring it up to date first
                """
        case .failed(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// SQLite's error in words an operator can act on, naming the file.
    public static func plain(_ error: DatabaseError, path: String) -> StoreError {
        let words: String
        switch error.resultCode {
        case .SQLITE_FULL: words = "no space left on the disk"
        case .SQLITE_CANTOPEN:
            words = "cannot open the file: the folder does not exist, or this user may not write there"
        case .SQLITE_READONLY: words = "the database is read-only for this user"
        case .SQLITE_IOERR: words = "the disk reported an input/output error"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: words = "the file is damaged or is not a SQLite database"
        case .SQLITE_BUSY, .SQLITE_LOCKED: words = "another process kept the database busy for more than 5 seconds"
        case .SQLITE_PERM, .SQLITE_AUTH: words = "permission denied"
        default: words = "\(error.message ?? "SQLite error") (SQLite code \(error.resultCode.rawValue))"
        }
        return .failed(path: path, reason: words)
    }
}

/// The bot's SQLite database: learners, dialogue sessions, progress, history, outbox, offset.
public final class TutorStore: Sendable {
    let writer: any DatabaseWriter
    /// Told the replies (priority 0 rows, with their ids) of every commit, once it is durable:
    /// the sender's way of learning of them without reading them back (`OutboxSender`).
    let replyObservers = Mutex<[@Sendable ([OutboxItem]) -> Void]>([])

    /// Calls `observer` after each commit of this process that queued replies, with those rows.
    /// Rows another process writes are not seen here (the sender's full re-read finds them).
    public func observeCommittedReplies(_ observer: @escaping @Sendable ([OutboxItem]) -> Void) {
        replyObservers.withLock { $0.append(observer) }
    }
    public let path: String

    /// How a command opens the database.
    public enum Access: Sendable {
        /// The bot (`run`, `chat`) and `migrate`: creates the file if needed and applies migrations.
        case migrating
        /// Maintenance that writes a little (`prune`, `broadcast`, `banks reload`): never migrates;
        /// the schema must be exactly this binary's.
        case current
        /// `health`, `stats`, `backup`: opened read-only, never writes or migrates; works for a
        /// monitoring user who may only read the file.
        case readOnly
    }

    /// Opens the database; ":memory:" gives a private in-memory one. Every access refuses a
    /// database whose schema is newer than this binary knows, naming both versions.
    /// `synchronous`: SQLite's for the writer; `FULL` (the default) except where the bench compares.
    public init(path: String, access: Access = .migrating, synchronous: String = TutorStore.synchronous) throws {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.readonly = access == .readOnly
        config.prepareDatabase { db in
            // FULL for the one writer: the update offset commits with each batch, and once the
            // next poll tells Telegram that offset, a commit lost to a power cut is lost for good
            // (README "Delivery guarantees"; its cost is in `permitready bench`).
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = \(synchronous == "NORMAL" ? "NORMAL" : "FULL")")
            }
            // Readers keep a small page cache: every commit (several a second under load) empties
            // it anyway in WAL mode, and six 2 MB caches were a fifth of the bot's memory.
            // The writer keeps 1 MB (SQLite's default is 2 MB): it touches a batch's few hundred rows
            // and the operating system's file cache holds the rest; 1,000 learners at once ran no slower.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -512 : -1024)")
            // Statement journals in memory. Every upsert and insert into a table with indexes and a
            // CHECK may have to undo itself, so SQLite copies each page it touches (4 + 4,096 bytes)
            // to a statement journal; once one statement of a batch passes 64 KB the journal becomes a
            // temporary file for the rest of the transaction, written more than the WAL itself
            // under load. In memory it is a copy, emptied at each statement's end.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        // Two cores: more than three readers at once only queue for them.
        config.maximumReaderCount = 3
        if access != .migrating, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        // Two processes opening a new file at once (two consoles) must not both apply the same
        // migration (GRDB's migrator checks, then applies, with no lock between), nor race to turn
        // a brand-new file into WAL while the other migrates (SQLite answers that with an immediate
        // SQLITE_BUSY, no busy timeout: seen 1 run in 5 once migrations grew): one at a time, from
        // opening to migrated.
        let guardFD =
            access != .migrating || path == ":memory:"
            ? -1 : open(path + ".migrate-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if guardFD >= 0 { _ = flock(guardFD, LOCK_EX) }
        defer { if guardFD >= 0 { close(guardFD) } }
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else if access == .readOnly {
                // A queue: a read-only pool needs the WAL index to be writable.
                writer = try DatabaseQueue(path: path, configuration: config)
            } else {
                writer = try DatabasePool(path: path, configuration: config)
            }
            let migrator = Schema.migrator
            let known = migrator.migrations
            let applied = try writer.read { db in
                try db.tableExists("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
            }
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw StoreError.schemaNewer(
                    path: path, database: applied.sorted().last ?? unknown, binary: known.last ?? "none")
            }
            switch access {
            case .migrating:
                try migrator.migrate(writer)
            case .current:
                if applied.count < known.count {
                    throw StoreError.schemaOlder(
                        path: path, database: known.last(where: applied.contains) ?? "none",
                        binary: known.last ?? "none")
                }
            case .readOnly: break
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError.plain(error, path: path)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// `PRAGMA synchronous` for the writer (see `init`).
    public static let synchronous = "FULL"

    /// Whether other threads can read while a write transaction is open (a file's WAL pool can;
    /// the in-memory queue of the tests can't: its reads wait for the write).
    public var readsAlongsideWrite: Bool { writer is DatabasePool }

    /// Every migration this binary knows, oldest first.
    public static var knownMigrations: [String] { Schema.migrator.migrations }

    /// Migrations applied so far, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Schema.migrator.appliedMigrations(db) }
    }

    static let encoder = StreamingJSONEncoder()
    static let decoder = JSONDecoder()

    // MARK: - update offset

    public func updateOffset() throws -> Int64 {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM bot_state WHERE key = 'update_offset'").flatMap {
                Int64($0)
            } ?? 0
        }
    }

    // MARK: - inspection (tests, stats)

    /// Runs a read-only SQL query and returns its rows as string dictionaries. `package`: for this
    /// package's tests and benchmarks, not for the bot's code (which goes through named methods).
    package func rows(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable] = []) throws -> [[String:
        String]]
    {
        try writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                var d: [String: String] = [:]
                for (col, value) in row {
                    d[col] = value.isNull ? "NULL" : (String.fromDatabaseValue(value) ?? "\(value)")
                }
                return d
            }
        }
    }
}
