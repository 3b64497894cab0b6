import GRDB

/// Optimistic versions of a chat's rows: two processes sharing the database file (two consoles,
/// or a console beside a command) each keep a copy of the chats they serve, and a save writes
/// only what changed from its copy.
extension TutorStore {
    /// Moves the learner row's version on from `readAt`, the version the saving copy was read at.
    /// Throws `StaleChat` when the row has moved on without it: another process saved the chat
    /// since, and writing this copy's differences over it would undo that work. A row that is gone
    /// (erased by another process) is written afresh, as before.
    static func claimVersion(_ db: Database, chatID: Int64, readAt: Int64) throws -> Int64 {
        try db.cachedStatement(sql: "UPDATE learner SET version = version + 1 WHERE chat_id = ? AND version = ?")
            .execute(arguments: [chatID, readAt])
        if db.changesCount > 0 { return readAt + 1 }
        guard
            let stored = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT version FROM learner WHERE chat_id = ?"),
                arguments: [chatID])
        else { return 0 }
        throw StaleChat(chatID: chatID, readAt: readAt, stored: stored)
    }
}

/// A save from a copy of the chat older than the stored one (see `TutorStore.claimVersion`).
public struct StaleChat: Error, CustomStringConvertible {
    public var chatID: Int64
    public var readAt: Int64
    public var stored: Int64
    public var description: String {
        "chat \(chatID) was saved by another process (version \(stored), this copy read at \(readAt))"
    }
}
