import Foundation
import GRDB

/// What the reduction of a batch asks of every chat, read once for the whole batch before it is
/// reduced: which chats still have replies queued (stray input then gets no more, see
/// `Bot.ChatReducer`) and which have any friendship row (only those need their friends read).
/// Reading these per chat cost a pool access each (a connection handed out, the schema version
/// checked, then the query): the two reads were a tenth of the engine bench's CPU, whose batches
/// are a third stray lines on Home.
/// The batch's own writes are one transaction, invisible to readers until it commits, so what a
/// read during the batch would see is what this read sees before it.
public struct BatchFacts: Sendable {
    public var chatsWithQueuedReplies: Set<Int64>
    public var chatsWithFriendships: Set<Int64>

    public init(chatsWithQueuedReplies: Set<Int64> = [], chatsWithFriendships: Set<Int64> = []) {
        self.chatsWithQueuedReplies = chatsWithQueuedReplies
        self.chatsWithFriendships = chatsWithFriendships
    }
}

extension TutorStore {
    public func batchFacts(chatIDs: [Int64]) throws -> BatchFacts {
        let ids = "[" + chatIDs.map(String.init).joined(separator: ",") + "]"
        return try writer.read { db in
            // Driven by the list, one index probe per chat: as `chat_id IN (...)` SQLite chose to
            // scan every queued reply of every chat (the bench's outbox is never drained).
            let queued = try Int64.fetchSet(
                db.cachedStatement(
                    sql: """
                        SELECT value FROM json_each(?)
                        WHERE EXISTS (SELECT 1 FROM outbox WHERE status = 'pending' AND priority = 0 AND chat_id = \
                        value)
                        """), arguments: [ids])
            let befriended = try Int64.fetchSet(
                db.cachedStatement(
                    sql: """
                        SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM friendship WHERE chat_id = value)
                        """), arguments: [ids])
            return BatchFacts(chatsWithQueuedReplies: queued, chatsWithFriendships: befriended)
        }
    }
}
