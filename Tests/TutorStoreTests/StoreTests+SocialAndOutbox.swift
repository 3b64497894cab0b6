import Foundation
import GRDB
import Synchronization
import Testing
import TutorCore

@testable import TutorStore

extension StoreTests {
    /// Closed challenges (30 days after they closed) and past days' Daily 5 rows are pruned;
    /// open challenges and recent days stay.
    @Test func pruningTakesLongClosedChallengesAndOldDailyResults() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let t = s.learner.joinedAt
        var change = ChatChange(before: nil, after: s, answers: [], outbox: [])
        func challenge(_ c: Character, made: Date) -> Challenge {
            Challenge(
                token: String(repeating: c, count: 22), creatorChatID: 9, creatorName: "Ana", questionIDs: ["u-1"],
                creatorCorrect: [true],
                createdAt: made, expiresAt: made + 7 * 86_400)
        }
        change.challengesMade = [challenge("A", made: t), challenge("C", made: t + 40 * 86_400)]
        change.challengePlays = [(String(repeating: "A", count: 22), [true])]
        change.dailyResults = [
            ("TX", LocalDay(t, in: TimeZone(identifier: "UTC")!), 4),
            ("TX", LocalDay(t + 40 * 86_400, in: TimeZone(identifier: "UTC")!), 3),
        ]
        let day0 = LocalDay(t, in: TimeZone(identifier: "UTC")!)
        let day40 = LocalDay(t + 40 * 86_400, in: TimeZone(identifier: "UTC")!)
        change.dailySets = [("TX", day0, ["a", "b", "c", "d", "e"]), ("TX", day40, ["f", "g", "h", "i", "j"])]
        try store.commit([change], offset: nil)
        // The day's first deal is kept; a later one (after a bank reload) changes nothing.
        var again = ChatChange(before: s, after: s, answers: [], outbox: [])
        again.dailySets = [("TX", day40, ["k", "l", "m", "n", "o"])]
        try store.commit([again], offset: nil)
        #expect(try store.dailySet(stateCode: "TX", day: day40) == ["f", "g", "h", "i", "j"])
        #expect(try store.dailySet(stateCode: "CA", day: day40) == nil)
        // A row that isn't a list (a hand edit) reads as none, so Daily 5 is dealt afresh and the
        // chat carries on; one that isn't JSON at all is refused by the table.
        try store.execute(
            "INSERT INTO daily_set(state_code, day, question_ids) VALUES ('NY', ?, '{\"a\":1}')", [day40.description])
        #expect(try store.dailySet(stateCode: "NY", day: day40) == nil)
        #expect(throws: (any Error).self) {
            try store.execute(
                "INSERT INTO daily_set(state_code, day, question_ids) VALUES ('OH', ?, 'not json')", [day40.description]
            )
        }
        let report = try store.prune(now: t + 45 * 86_400)
        #expect(report.challenges == 2, "A and its play: closed 38 days ago")
        #expect(report.dailyResults == 3, "day 0's result, its tally row and its five")
        #expect(
            try store.dailySet(stateCode: "TX", day: day0) == nil && store.dailySet(stateCode: "TX", day: day40) != nil)
        #expect(try store.challenge(token: String(repeating: "A", count: 22), openedBy: 10) == .notFound)
        #expect(try store.challenge(token: String(repeating: "C", count: 22), openedBy: 10) != .notFound)
        #expect(
            try store.dailyScores(
                stateCode: "TX", day: LocalDay(t + 40 * 86_400, in: TimeZone(identifier: "UTC")!), excluding: 10
            ).players == 1)
    }

    /// A removed friendship is kept, marked, for last week's league; a new challenge makes friends
    /// again; pruning takes it a week after.
    @Test func removedFriendshipsAreKeptForLastWeekThenPruned() throws {
        let store = try TutorStore(path: ":memory:")
        var (a, _, t) = try friendsNineAndTen(store)
        a.learner.lastActiveAt = t + 3600
        var remove = ChatChange(before: a, after: a, answers: [], outbox: [])
        remove.removedFriends = [10]
        remove.madeAt = t + 3600
        try store.commit([remove], offset: nil)
        #expect(try store.friends(of: 9).isEmpty && store.friends(of: 10).isEmpty, "friends no more, both sides")
        #expect(try store.friendSummaries(of: 9).isEmpty)
        #expect(
            try store.friendSummaries(of: 9, removedSince: t).map(\.removedThisWeek) == [true],
            "kept for last week's league")
        #expect(try store.socialCounts().friendships == 0)
        var again = ChatChange(before: a, after: a, answers: [], outbox: [])
        again.newFriends = [10]
        again.madeAt = t + 7200
        try store.commit([again], offset: nil)
        #expect(
            try store.friends(of: 10) == [9] && store.friendSummaries(of: 9).map(\.removedThisWeek) == [false],
            "friends again")
        try store.commit([remove], offset: nil)
        #expect(try store.prune(now: t + 9 * 86_400).friendships == 2)
        #expect(try store.friendSummaries(of: 9, removedSince: .distantPast).isEmpty)
    }

    /// The batch's one read says what the per-chat reads it replaces say: a reply still queued
    /// counts (news doesn't, nor a delivered reply), and any friendship row counts, a removed one too.
    /// The sender learns each commit's replies from the store, not by reading them back: exactly
    /// the rows a read gives (ids included), no bulk rows, none of a chat rolled back alone.
    @Test func committedRepliesAreHandedOverAsARead() throws {
        let path = tempPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try TutorStore(path: path)
        let handed = Mutex<[OutboxItem]>([])
        store.observeCommittedReplies { rows in handed.withLock { $0 += rows } }
        func learner(_ id: Int64) -> ChatState {
            var s = sampleState()
            s.learner.chatID = id
            s.learner.userID = id
            return s
        }
        func text(_ chat: Int64, _ words: String, priority: Int = 0) -> OutboxItem {
            OutboxItem(
                chatID: chat, method: "sendMessage", body: Data(#"{"chat_id":\#(chat),"text":"\#(words)"}"#.utf8),
                priority: priority)
        }
        var good = ChatChange(
            before: nil, after: learner(20), answers: [],
            outbox: [text(20, "one"), text(20, "news", priority: OutboxItem.bulkPriority), text(20, "two")])
        good.madeAt = sampleState().learner.joinedAt
        var refused = ChatChange(
            before: nil, after: learner(21), answers: [],
            outbox: [text(21, "fine"), OutboxItem(chatID: 21, method: "sendMessage", body: Data("not json".utf8))])
        refused.madeAt = good.madeAt
        var saved: [Bool] = []
        try store.commit(offset: nil) { write in
            var first = good
            saved.append(try write.save(&first) == nil)
            saved.append(try write.save(&refused) == nil)
        }
        #expect(saved == [true, false], "the table refuses a body that isn't JSON: that chat rolls back alone")
        let rows = handed.withLock { $0 }
        let readBack = try store.pendingRows(chatID: 20).filter { $0.priority == 0 }
        #expect(rows.count == 2 && rows == readBack)
        #expect(try store.pendingRows(chatID: 21).isEmpty)
        // A write that fails hands nothing over.
        #expect(throws: (any Error).self) {
            try store.commit(offset: nil) { write in
                var again = good
                _ = try write.save(&again)
                throw CancellationError()
            }
        }
        #expect(handed.withLock { $0.count } == 2)
    }

    @Test func batchFactsAgreeWithThePerChatReads() throws {
        let path = tempPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try TutorStore(path: path)
        let t = sampleState().learner.joinedAt
        func learner(_ id: Int64) -> ChatState {
            var s = sampleState()
            s.learner.chatID = id
            s.learner.userID = id
            return s
        }
        func text(_ chat: Int64, _ words: String, priority: Int = 0) -> OutboxItem {
            OutboxItem(
                chatID: chat, method: "sendMessage", body: Data(#"{"chat_id":\#(chat),"text":"\#(words)"}"#.utf8),
                priority: priority)
        }
        var changes = (9...13).map { ChatChange(before: nil, after: learner($0), answers: [], outbox: []) }
        changes[0].outbox = [text(9, "a reply")]
        changes[1].outbox = [text(10, "news", priority: OutboxItem.bulkPriority)]
        changes[2].outbox = [text(11, "a reply, delivered")]
        for i in changes.indices { changes[i].madeAt = t }
        try store.commit(changes, offset: nil)
        try store.markSent(try #require(try store.pendingRows(chatID: 11).first), messageID: 1)
        var befriend = ChatChange(before: learner(12), after: learner(12), answers: [], outbox: [])
        befriend.newFriends = [13]
        befriend.madeAt = t
        try store.commit([befriend], offset: nil)
        var remove = ChatChange(before: learner(12), after: learner(12), answers: [], outbox: [])
        remove.removedFriends = [13]
        remove.madeAt = t + 60
        try store.commit([remove], offset: nil)

        let chats: [Int64] = [9, 10, 11, 12, 13, 14]
        let facts = try store.batchFacts(chatIDs: chats)
        #expect(facts.chatsWithQueuedReplies == [9])
        #expect(facts.chatsWithFriendships == [12, 13])
        for chat in chats {
            #expect(
                facts.chatsWithQueuedReplies.contains(chat) == (try store.hasPendingReplies(chatID: chat)),
                "chat \(chat)")
            #expect(
                facts.chatsWithFriendships.contains(chat)
                    == !(try store.friendSummaries(of: chat, removedSince: .distantPast)).isEmpty,
                "chat \(chat)")
        }
        #expect(try store.batchFacts(chatIDs: []).chatsWithQueuedReplies.isEmpty)
    }

    /// A broadcast queues each learner once, in chunks, resuming where it stopped.
    @Test func broadcastsQueueEachLearnerOnceAndResume() throws {
        let store = try TutorStore(path: ":memory:")
        var changes: [ChatChange] = []
        for i in 1...25 {
            var s = sampleState()
            s.learner.chatID = Int64(i)
            s.learner.stateCode = i % 5 == 0 ? "CA" : "TX"
            s.learner.blocked = i == 7
            s.learner.stopped = i == 8
            changes.append(ChatChange(before: nil, after: s, answers: [], outbox: []))
        }
        try store.commit(changes, offset: nil)
        #expect(try store.audienceCount(stateCode: "TX") == 18)
        #expect(try store.audienceCount(stateCode: nil) == 23)
        let id = try store.createBroadcast(stateCode: "TX", text: "Hi", adminChatID: 99, now: Date())
        #expect(
            try store.enqueueBroadcast(id, limit: 10, now: Date()) { _, _ in Data("{}".utf8) } == 0,
            "a draft sends nothing")
        #expect(try store.setBroadcastStatus(id, from: "draft", to: "sending"))
        #expect(try store.setBroadcastStatus(id, from: "draft", to: "sending") == false, "a second Send does nothing")
        let render: (Broadcast, Int64) -> Data = { b, chat in Data(#"{"chat_id":\#(chat),"text":"\#(b.text)"}"#.utf8) }
        #expect(try store.enqueueBroadcast(id, limit: 10, now: Date(), render: render) == 10)
        // A restart that lost its place re-reads it from the row; pretend the position was not saved.
        try store.writer.write { db in
            try db.execute(sql: "UPDATE broadcast SET last_chat_id = 0 WHERE id = ?", arguments: [id])
        }
        #expect(
            try store.enqueueBroadcast(id, limit: 100, now: Date(), render: render) == 8, "no learner is queued twice")
        #expect(
            try store.rows(
                "SELECT COUNT(DISTINCT chat_id) AS n, COUNT(*) AS m FROM outbox WHERE broadcast_id = ?", [id]
            ).first.map { [$0["n"], $0["m"]] } == ["18", "18"])
        #expect(
            try store.broadcastProgress(id)
                == BroadcastProgress(queued: 18, sent: 0, blocked: 0, failed: 0, pending: 18))
        // A delivered broadcast row is kept, marked: the counts are read from it (any other
        // delivered row is deleted at once).
        let first = try #require(try store.pendingRows().first)
        try store.markSent(first, messageID: 7)
        #expect(
            try store.broadcastProgress(id)
                == BroadcastProgress(queued: 18, sent: 1, blocked: 0, failed: 0, pending: 17))
        #expect(try store.finishBroadcastIfComplete(id, now: Date()) == false)
    }

    @Test func aBlockedLearnersQueueIsDropped() throws {
        let store = try TutorStore(path: ":memory:")
        let item = OutboxItem(chatID: 9, method: "sendMessage", body: Data("{}".utf8))
        try store.commit(
            [ChatChange(before: nil, after: sampleState(), answers: [], outbox: [item, item])], offset: nil)
        try store.dropQueued(chatID: 9)
        #expect(try store.pendingCount() == 0)
        // The learner row is the reducer's to change (`.botBlocked` in a batch), never the sender's.
        #expect(try store.loadChat(9)?.learner.blocked == false)
    }
}

extension StoreTests {
    /// Friends offers a friend's challenge not yet played (#43): the latest open one, until played or closed.
    @Test func aFriendsOpenChallengeIsReadWithTheFriend() throws {
        let store = try TutorStore(path: ":memory:")
        let (a, b, t) = try friendsNineAndTen(store)
        var made = ChatChange(before: b, after: b, answers: [], outbox: [])
        func challenge(_ c: Character, made: Date) -> Challenge {
            Challenge(
                token: String(repeating: c, count: 22), creatorChatID: 10, creatorName: "Riley", questionIDs: ["u-1"],
                creatorCorrect: [true], createdAt: made, expiresAt: made + 7 * 86_400)
        }
        made.challengesMade = [challenge("A", made: t), challenge("B", made: t + 60)]
        try store.commit([made], offset: nil)
        #expect(
            try store.friendSummaries(of: 9, now: t + 120).first?.openChallenge == String(repeating: "B", count: 22))
        var played = ChatChange(before: a, after: a, answers: [], outbox: [])
        played.challengePlays = [(String(repeating: "B", count: 22), [true])]
        try store.commit([played], offset: nil)
        #expect(
            try store.friendSummaries(of: 9, now: t + 180).first?.openChallenge == String(repeating: "A", count: 22),
            "B played: the older one still open")
        #expect(
            try store.friendSummaries(of: 9, now: t + 8 * 86_400).first?.openChallenge == nil, "closed after a week")
        #expect(
            try store.friendSummaries(of: 10, now: t + 120).first?.openChallenge == nil,
            "Riley's own are not offered to Riley")
    }
}

extension StoreTests {
    /// Learners 9 and 10, stored and made friends (9 befriends 10) at 9's joining time.
    func friendsNineAndTen(_ store: TutorStore) throws -> (a: ChatState, b: ChatState, t: Date) {
        let a = sampleState()
        var b = sampleState()
        b.learner.chatID = 10
        b.learner.userID = 10
        let t = a.learner.joinedAt
        try store.commit([ChatChange(before: nil, after: b, answers: [], outbox: [])], offset: nil)
        var befriend = ChatChange(before: nil, after: a, answers: [], outbox: [])
        befriend.newFriends = [10]
        befriend.madeAt = t
        try store.commit([befriend], offset: nil)
        return (a, b, t)
    }
}
