import Foundation
import GRDB
import TutorCore

/// What an operator's backup, restore and pruning report.
public struct StoreCounts: Equatable, Sendable, CustomStringConvertible {
    public var learners = 0
    public var answers = 0
    public var cards = 0
    public var progressRows = 0
    public var results = 0

    public var description: String {
        """
        \(learners) learners, \(answers) answers, \(progressRows) question-progress rows, \(cards) cards, \
        \(results) results
        """
    }
}

/// Rows removed by one pruning pass, and how long it took.
public struct PruneReport: Equatable, Sendable {
    public var outbox = 0
    public var answers = 0
    public var messageRefs = 0
    public var broadcastDeliveries = 0
    /// Friend challenges long closed, with their plays; Daily 5 results and tallies of past days.
    public var challenges = 0
    public var dailyResults = 0
    /// Friendships removed over a week ago (kept until then for last week's league).
    public var friendships = 0
    /// Typed questions older than `Retention.askDays` (the ask log's and those kept for a state).
    public var askedQuestions = 0
    public var seconds = 0.0
    public var total: Int {
        outbox + answers + messageRefs + broadcastDeliveries + challenges + dailyResults + friendships + askedQuestions
    }

    /// The one line the bot's log and `permitready prune` print.
    public var summary: String {
        "pruned \(outbox) sent messages, \(answers) old answers, \(messageRefs) message ids, "
            + "\(broadcastDeliveries) broadcast rows, \(challenges) closed challenge rows, "
            + "\(dailyResults) old Daily 5 rows, \(friendships) ended friendships, "
            + "\(askedQuestions) typed questions in \(String(format: "%.2f", seconds)) s"
    }
}

/// How long transient rows are kept (README "Data kept").
public struct Retention: Sendable {
    /// Sent, failed and dropped outbox rows: delivery is done; an hour is enough to look into a
    /// problem (at 100,000 daily learners a day of them would be over a gigabyte).
    public var outboxDays = 1.0 / 24
    /// The raw answer log (statistics only: "answers today", a week's activity; what the learner
    /// knows lives in question_progress).
    public var answerDays = 14.0
    /// Message ids of quiz questions, for editing them after an answer; a quiz is over long before
    /// (an edit of an older question is sent afresh).
    public var messageRefDays = 2.0
    /// "Never twice" rows of broadcasts that finished.
    public var broadcastDays = 7.0
    /// A challenge link after it closed (7 days after it was made): a friend opening it late is
    /// told it closed rather than that it is broken; after this, it is gone.
    public var closedChallengeDays = 30.0
    /// Daily 5 results and tallies: only the day's are read (the percentile, one try); the
    /// learner's Daily 5 streak lives in their row.
    public var dailyResultDays = 30.0
    /// The text of a typed question (for the "most asked, unanswered" list): two weeks at most.
    public var askDays = 14.0

    public init() {}
}

public enum BackupError: Error, CustomStringConvertible {
    case notADatabase(String, reason: String)
    case inUse(path: String, holder: String)
    case destinationExists(String)
    case noFolder(String)

    public var description: String {
        switch self {
        case .notADatabase(let p, let r): return "\(p) is not a usable PermitReady backup: \(r)"
        case .inUse(let p, let holder):
            return
                "\(p) is in use by another PermitReady process (\(holder)): stop it first (systemctl stop permitready)"
        case .destinationExists(let p): return "\(p) already exists: choose another name or delete it first"
        case .noFolder(let p): return "the folder \(p) does not exist"
        }
    }
}

/// The database's process lock: the running bot holds it for its whole life, and `restore` takes
/// it before replacing the file, so a restore can never swap the file under a running bot. A real
/// lock (`flock` on DB.lock), not a heartbeat: the kernel releases it when the holder exits, however
/// it exits (a clean stop, a crash, kill -9), so nothing needs forcing after a stop.
public final class DatabaseLock: Sendable {
    let descriptor: Int32
    public let path: String

    /// Takes the lock or says who holds it. ":memory:" needs none. `shared`: consoles, which may
    /// share a database with each other but not with a running bot or a restore.
    public init(database: String, shared: Bool = false) throws {
        path = database + ".lock"
        guard database != ":memory:" else {
            descriptor = -1
            return
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError.failed(
                path: path, reason: "cannot create the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            let pid =
                n > 0
                ? String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            throw BackupError.inUse(path: database, holder: pid.isEmpty ? "its pid unknown" : "pid \(pid)")
        }
        descriptor = fd
        guard !shared else { return }
        // Who holds it, for the message a second process prints.
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, pid.count, 0) }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}

extension TutorStore {
    // MARK: - heartbeat (permitready health)

    public static let heartbeatKey = "heartbeat"
    /// Why the running bot thinks it is not working (nil when it is): `health` prints it.
    public static let healthProblemKey = "health_problem"

    /// The running bot writes this after a successful poll; `permitready health` reads it.
    public func writeHeartbeat(_ at: Date) throws {
        try setFlag(Self.heartbeatKey, String(format: "%.3f", at.timeIntervalSince1970))
    }

    public func heartbeat() throws -> Date? {
        try flag(Self.heartbeatKey).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    // MARK: - counts

    public func counts() throws -> StoreCounts {
        try writer.read { db in try Self.counts(db) }
    }

    static func counts(_ db: Database) throws -> StoreCounts {
        func n(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        return StoreCounts(
            learners: try n("learner"), answers: try n("answer"), cards: try n("card"),
            progressRows: try n("question_progress"), results: try n("quiz_result"))
    }

    // MARK: - backup

    /// A consistent copy of the live database while the bot keeps writing: SQLite's online backup
    /// API (through GRDB) reads one snapshot, so the copy is exactly some committed state. Written
    /// to a temporary name and renamed, so a half-written backup never looks like a whole one.
    @discardableResult
    public func backup(to destination: String) throws -> StoreCounts {
        if FileManager.default.fileExists(atPath: destination) { throw BackupError.destinationExists(destination) }
        let folder = (destination as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue
        {
            throw BackupError.noFolder(folder)
        }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do {
            let target = try DatabaseQueue(path: partial)
            try writer.backup(to: target)
            let counts = try target.read { db -> StoreCounts in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
                guard check == "ok" else { throw BackupError.notADatabase(partial, reason: "quick_check: \(check)") }
                return try Self.counts(db)
            }
            try target.close()
            try FileManager.default.moveItem(atPath: partial, toPath: destination)
            return counts
        } catch let error as DatabaseError {
            try? FileManager.default.removeItem(atPath: partial)
            throw StoreError.plain(error, path: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Checks a backup file before it replaces anything: it must open, pass SQLite's quick check,
    /// and carry PermitReady's tables. Returns what it holds.
    public static func inspectBackup(_ path: String) throws -> StoreCounts {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BackupError.notADatabase(path, reason: "no such file")
        }
        var config = Configuration()
        config.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
                guard check == "ok" else { throw BackupError.notADatabase(path, reason: "quick_check: \(check)") }
                guard try db.tableExists("learner"), try db.tableExists("grdb_migrations") else {
                    throw BackupError.notADatabase(path, reason: "it has no PermitReady tables")
                }
                let known = Schema.migrator.migrations
                let applied = try Schema.migrator.appliedIdentifiers(db)
                if let unknown = applied.first(where: { !known.contains($0) }) {
                    throw StoreError.schemaNewer(path: path, database: unknown, binary: known.last ?? "none")
                }
                return try counts(db)
            }
        } catch let e as BackupError {
            throw e
        } catch let e as DatabaseError {
            throw BackupError.notADatabase(path, reason: e.message ?? "\(e.resultCode)")
        }
    }

    /// Puts a backup in place of the database at `path`. The caller holds the `DatabaseLock`
    /// (no bot is using the file). Checked first; the database it replaces, whatever state it is
    /// in (healthy, damaged, not a database at all), is moved aside with its WAL under a
    /// timestamped name that is never reused (`keptAs`), not read through SQLite; then the backup
    /// is copied beside the target and renamed over it in one step. Migrations run on the next
    /// open, so an older backup comes up to date.
    /// `checked`: what `inspectBackup` already returned for `source` (its quick_check reads the
    /// whole file: a minute at 100,000 learners, not worth doing twice).
    public static func restore(
        from source: String, to path: String, checked: StoreCounts? = nil,
        now: Date = Date()
    ) throws -> (counts: StoreCounts, keptAs: String?) {
        let counts = try checked ?? inspectBackup(source)
        let fm = FileManager.default
        var keptAs: String?
        if fm.fileExists(atPath: path) {
            let stamp = ISO8601DateFormatter.string(
                from: now, timeZone: .gmt, formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
            var kept = "\(path).before-restore-\(stamp)"
            var n = 2
            while fm.fileExists(atPath: kept) {
                kept = "\(path).before-restore-\(stamp)-\(n)"
                n += 1
            }
            // The WAL holds the newest commits: it moves with its file (SQLite finds it by name).
            for suffix in ["", "-wal"] where fm.fileExists(atPath: path + suffix) {
                guard rename(path + suffix, kept + suffix) == 0 else {
                    throw StoreError.failed(
                        path: path + suffix,
                        reason: "could not move it aside to \(kept + suffix): \(String(cString: strerror(errno)))")
                }
            }
            keptAs = kept
        }
        for suffix in ["-shm", "-journal"] { try? fm.removeItem(atPath: path + suffix) }
        let staging = path + ".restoring"
        try? fm.removeItem(atPath: staging)
        do { try fm.copyItem(atPath: source, toPath: staging) } catch {
            throw StoreError.failed(
                path: staging, reason: "could not copy the backup: \((error as NSError).localizedDescription)")
        }
        if rename(staging, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? fm.removeItem(atPath: staging)
            throw StoreError.failed(path: path, reason: "could not move the restored file into place: \(reason)")
        }
        return (counts, keptAs)
    }
}

extension Duration {
    var inSecondsDouble: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Gauges for the operator's metrics, read in one go.
public struct OperatorGauges: Sendable {
    public var outboxPending = 0
    public var oldestPendingSeconds = 0.0
    public var broadcastRemaining = 0
    public var learnersActiveToday = 0
    public var learners = 0
}

extension TutorStore {
    /// `countingLearners`: also the two learner gauges, which scan the learner table (~10 ms of CPU
    /// per 100,000 learners).
    public func operatorGauges(now: Date, countingLearners: Bool = true) throws -> OperatorGauges {
        try writer.read { db in
            var g = OperatorGauges()
            let t = now.timeIntervalSince1970
            let row = try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'")
            g.outboxPending = try row?.decode(Int.self, forColumn: "n") ?? 0
            if let oldest = try row?.decode(Double?.self, forColumn: "oldest") {
                g.oldestPendingSeconds = max(0, t - oldest)
            }
            g.broadcastRemaining =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(MAX(0, b.recipients - (SELECT COUNT(*) FROM broadcast_delivery d WHERE \
                        d.broadcast_id = b.id))), 0)
                            + (SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND broadcast_id IS NOT NULL)
                        FROM broadcast b WHERE b.status = 'sending'
                        """) ?? 0
            guard countingLearners else { return g }
            let learners = try Row.fetchOne(
                db,
                sql:
                    """
                    SELECT COUNT(*) AS n, COALESCE(SUM(last_active_at >= ?), 0) AS today FROM learner WHERE \
                    is_group = 0
                    """,
                arguments: [t - 86_400])
            g.learners = try learners?.decode(Int.self, forColumn: "n") ?? 0
            g.learnersActiveToday = try learners?.decode(Int.self, forColumn: "today") ?? 0
            return g
        }
    }
}
