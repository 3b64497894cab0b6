import Foundation
import Testing
import TutorCore

@testable import TutorStore

/// The sender's in-memory queue: the same rows in the same order as the database would give
/// (replies first, a chat strictly in order, held rows waiting), and a row read in once.
@Suite struct OutboxQueueTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func row(_ id: Int64, chat: Int64, priority: Int = 0, heldFor seconds: TimeInterval? = nil) -> OutboxItem {
        var item = OutboxItem(id: id, chatID: chat, method: "sendMessage", body: Data("{}".utf8), priority: priority)
        item.notBefore = seconds.map { now.addingTimeInterval($0) }
        return item
    }

    @Test func repliesGoFirstThenTheLongestWaitingAndOneRowPerChat() {
        let q = OutboxQueue([row(1, chat: 7, priority: 1), row(2, chat: 8), row(3, chat: 8), row(4, chat: 9)])
        #expect(q.heads(limit: 10, now: now).map(\.id) == [2, 4, 1], "chat 8's second row waits for its first")
        #expect(q.heads(limit: 2, now: now).map(\.id) == [2, 4])
        #expect(q.heads(limit: 10, now: now, excluding: [8]).map(\.id) == [4, 1], "a busy chat is skipped")
        #expect(q.next(chatID: 8, now: now, after: 2)?.id == 3)
    }

    @Test func aHeldReplyHoldsItsChatButHeldNewsDoesNot() {
        // A reply waiting out a retry: nothing after it goes first.
        var q = OutboxQueue([row(1, chat: 8, heldFor: 30), row(2, chat: 8)])
        #expect(q.next(chatID: 8, now: now) == nil)
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(30))
        #expect(q.next(chatID: 8, now: now.addingTimeInterval(31))?.id == 1)
        // A friend's news held for the morning: the replies after it go on.
        q = OutboxQueue([row(1, chat: 8, priority: 1, heldFor: 8 * 3600), row(2, chat: 8)])
        #expect(q.next(chatID: 8, now: now)?.id == 2)
        q.remove(row(2, chat: 8))
        #expect(q.next(chatID: 8, now: now) == nil && q.heads(limit: 5, now: now).isEmpty)
        #expect(q.next(chatID: 8, now: now.addingTimeInterval(8 * 3600))?.id == 1)
    }

    /// `nextHeld` keeps count of the rows waiting for a time (so it need not look when none is):
    /// the count follows every way a row comes, changes and goes.
    @Test func theNextHeldTimeFollowsEveryChange() {
        var q = OutboxQueue([row(1, chat: 8), row(2, chat: 9)])
        #expect(q.nextHeld(after: now) == nil)
        q.put(row(1, chat: 8, heldFor: 30))  // a retry holds a row
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(30))
        q.put(row(1, chat: 8, heldFor: 10))  // held again, sooner: replaced, not added
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(10))
        q.put(row(1, chat: 8))  // due again
        #expect(q.nextHeld(after: now) == nil)
        q.add([row(3, chat: 9, priority: 1, heldFor: 60), row(4, chat: 10, heldFor: 20)])
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(20))
        q.remove(row(4, chat: 10))  // the stored row counts, not the one given
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(60))
        q.replace(chatID: 9, with: [row(5, chat: 9)])
        #expect(q.nextHeld(after: now) == nil)
        q.put(row(6, chat: 11, heldFor: 5))
        q.replaceAll(with: [row(7, chat: 12)])
        #expect(q.nextHeld(after: now) == nil)
        q.put(row(8, chat: 12, heldFor: 5))
        #expect(q.nextHeld(after: now) == now.addingTimeInterval(5))
    }

    @Test func aRetryReplacesItsRowAndRereadsReplaceAChat() {
        var q = OutboxQueue([row(1, chat: 8), row(2, chat: 8), row(3, chat: 9)])
        q.put(row(1, chat: 8, heldFor: 5))
        #expect(q.count == 3, "replaced, not added")
        #expect(q.next(chatID: 8, now: now) == nil)
        q.replace(chatID: 8, with: [row(4, chat: 8)])
        #expect(q.next(chatID: 8, now: now)?.id == 4)
        #expect(q.repliesReadUpTo == 3, "a chat read again moves no mark: other chats' rows before it may be unread")
        q.replaceAll(with: [])
        #expect(q.count == 0 && q.repliesReadUpTo == 3, "what was read stays read")
        q.put(row(6, chat: 9))
        q.put(row(5, chat: 9))
        #expect(q.next(chatID: 9, now: now)?.id == 5, "kept in id order")
    }

    /// The sender reads only rows after the highest id it has read: an id handed out twice (a
    /// plain rowid table gives a deleted highest id to the next row) would never be sent.
    @Test func aRowIdIsNeverHandedOutTwice() throws {
        let store = try TutorStore(path: ":memory:")
        let item = OutboxItem(chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"a"}"#.utf8))
        try store.commit([], offset: nil, extraOutbox: [item, item])
        var q = OutboxQueue(try store.pendingRows())
        #expect(q.count == 2)
        // Delivered rows are deleted at once, the highest row included.
        for row in try store.pendingRows() {
            try store.markSent(row, messageID: 1)
            q.remove(row)
        }
        #expect(try store.rows("SELECT COUNT(*) AS n FROM outbox").first?["n"] == "0")
        try store.commit([], offset: nil, extraOutbox: [item])
        let new = try store.pendingReplies(after: q.repliesReadUpTo)
        #expect(new.count == 1 && new[0].id > 2)
        q.add(new)
        #expect(q.heads(limit: 5, now: Date()).map(\.id) == new.map(\.id))
        #expect(try store.pendingReplies(after: q.repliesReadUpTo).isEmpty)
        #expect(try store.pendingRows(chatID: 9).map(\.id) == new.map(\.id))
        #expect(try store.pendingRows(chatID: 10).isEmpty)
    }

    /// Telegram unreachable for hours: reminders pile up by the hundred thousand. The queue holds
    /// a bounded number of bulk rows and reads on in order as they go; replies are always read.
    @Test func bulkRowsAreHeldUpToTheCapAndReadOnInOrder() throws {
        let store = try TutorStore(path: ":memory:")
        let cap = OutboxQueue.bulkHeldAtMost
        let reminders = (0..<(cap + 20)).map { i in
            OutboxItem(
                chatID: Int64(1_000 + i), method: "sendMessage", body: Data(#"{"chat_id":1,"text":"study"}"#.utf8),
                priority: OutboxItem.bulkPriority)
        }
        try store.commit([], offset: nil, extraOutbox: reminders)
        try store.commit(
            [], offset: nil,
            extraOutbox: [
                OutboxItem(chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"reply"}"#.utf8))
            ])
        var q = OutboxQueue()
        q.add(try store.pendingReplies(after: q.repliesReadUpTo))
        q.add(try store.pendingBulk(after: q.bulkReadUpTo, limit: q.bulkRoom))
        #expect(q.bulkHeld == cap && q.bulkRoom == 0)
        #expect(q.heads(limit: 1, now: Date()).first?.chatID == 9, "the reply after them all is read, and goes first")
        // Ten reminders go out: ten more are read, the next ten in order.
        for row in q.heads(limit: 11, now: Date()).dropFirst() {
            try store.markSent(row, messageID: 1)
            q.remove(row)
        }
        #expect(q.bulkRoom == 10)
        let next = try store.pendingBulk(after: q.bulkReadUpTo, limit: q.bulkRoom)
        #expect(next.map(\.chatID) == (cap..<(cap + 10)).map { Int64(1_000 + $0) })
        q.add(next)
        #expect(q.bulkHeld == cap)
        // Read again from scratch, stopping at the cap: the rest are read on after the last held.
        q.replaceAll(
            with: try store.pendingReplies(after: 0) + store.pendingBulk(after: 0, limit: cap), bulkComplete: false)
        #expect(q.bulkHeld == cap)
        #expect(try store.pendingBulk(after: q.bulkReadUpTo, limit: 100).count == 10)
    }
}
