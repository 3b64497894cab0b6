import Foundation

/// What the poll loop must remember across a crash: the batch it is working on (by its first
/// update id), how many times it started on it, and the update it was processing alone, if any.
///
/// A trap (a force-unwrap, an index out of range) kills the process before the batch's offset is
/// committed; systemd restarts it and Telegram re-delivers the same batch. Without this mark the
/// bot would fall into the same trap for ever, down for every learner. With it, the third start
/// on one batch goes one update at a time, and an update that was in flight alone when the
/// process died is skipped (see `Bot.poll`).
///
/// Kept in a small file beside the database, not in it: it is written before every batch, and a
/// database write would cost an fsync per batch (the process dying is what it guards against, and
/// the page cache survives that), and it must be writable when the database is what fails.
struct BatchAttempts {
    struct Mark: Equatable {
        var firstUpdateID: Int64
        /// Starts on this batch, this one included.
        var attempts: Int
        /// The update being processed on its own (one-at-a-time mode), if any.
        var alone: Int64? = nil
    }

    /// Nil for a database in memory (nothing survives a restart anyway).
    let path: String?

    /// A console counts its own update ids from 1, and several may share one database: each keeps
    /// its own mark, or one would take another's update in flight for its own.
    init(databasePath: String, onlyChat: Int64? = nil) {
        let inMemory = databasePath.isEmpty || databasePath == ":memory:" || databasePath.hasPrefix("file::memory:")
        path = inMemory ? nil : databasePath + ".attempts" + (onlyChat.map { "-\($0)" } ?? "")
    }

    func read() -> Mark? {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let first = Int64(fields[0]), let attempts = Int(fields[1]), attempts >= 1 else {
            return nil
        }
        return Mark(firstUpdateID: first, attempts: attempts, alone: fields.count > 2 ? Int64(fields[2]) : nil)
    }

    /// Best effort: a mark that cannot be written costs only the crash-loop guard, never a batch.
    func write(_ mark: Mark) {
        guard let path else { return }
        let text = "\(mark.firstUpdateID) \(mark.attempts)" + (mark.alone.map { " \($0)" } ?? "") + "\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The mark for a batch about to be processed: one more start if it is the batch last marked.
    func next(updateIDs ids: [Int64]) -> (mark: Mark, diedAlone: Int64?)? {
        guard let first = ids.min() else { return nil }
        let prior = read()
        let attempts = prior?.firstUpdateID == first ? (prior?.attempts ?? 0) + 1 : 1
        // The process died while this update was being processed alone: it is the one that kills it.
        let diedAlone = prior?.alone.flatMap { id in ids.contains(id) ? id : nil }
        return (Mark(firstUpdateID: first, attempts: attempts), diedAlone)
    }
}
