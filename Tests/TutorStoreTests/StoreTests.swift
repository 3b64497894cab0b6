import Foundation
import GRDB
import Synchronization
import Testing
import TutorCore

@testable import TutorStore

let allMigrations = [
    "v1-core", "v2-timers", "v3-nudges", "v4-broadcasts", "v5-cards-and-game", "v6-knowledge-tracing", "v7-retention",
    "v8-lessons", "v9-friends", "v10-outbox-by-chat", "v11-friendship-removed", "v12-outbox-ids-never-reused",
    "v13-daily-set", "v14-erase-by-chat",
    "v15-ask-log", "v16-broadcast-updates", "v17-learner-version",
]

@Suite struct StoreTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path
    }

    func sampleState() -> ChatState {
        let t = Date(timeIntervalSince1970: 1_795_000_000)
        var s = ChatState(
            learner: Learner(
                chatID: 9, userID: 9, firstName: "Ana", languageCode: "es", stateCode: "TX", joinedAt: t,
                streak: Streak(current: 2, best: 5, lastDay: LocalDay(iso: "2026-11-18"))))
        s.session = Session(
            screen: .quiz,
            quiz: QuizRun(
                id: 3, mode: .topic(.parking), questionIDs: ["u-1", "u-2"], index: 1, order: [2, 0, 1],
                phase: .asking, answers: [GivenAnswer(questionID: "u-1", topic: .parking, chosen: 1, correct: false)],
                startedAt: t), nextQuizID: 4)
        s.progress["u-1"] = QuestionStats(seen: 1, correct: 0, lastCorrect: false, lastAnsweredAt: t, missed: true)
        s.cards["u-1"] = FSRSCard(
            state: .review, step: nil, stability: 3.2, difficulty: 5.5, due: t.addingTimeInterval(86_400), lastReview: t
        )
        s.learner.xp = 120
        s.learner.badges = [.streak7, .firstPerfectQuiz]
        s.learner.answeredToday = 4
        s.learner.answeredDay = LocalDay(iso: "2026-11-18")
        s.lessonsDone["l-parking-1"] = t
        s.results = [
            QuizResult(
                quizID: 2, mode: .quick, stateCode: "TX", correct: 7, total: 10, passPercent: 70, startedAt: t,
                finishedAt: t,
                byTopic: [TopicScore(topic: .parking, correct: 7, total: 10)], missedIDs: ["u-9"])
        ]
        return s
    }

    @Test func migratesAnEmptyFileAndIsIdempotent() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try TutorStore(path: path).appliedMigrations() == allMigrations)
        #expect(try TutorStore(path: path).appliedMigrations() == allMigrations, "reopening migrates nothing twice")
        let mode = try TutorStore(path: path).rows("PRAGMA journal_mode").first?["journal_mode"]
        #expect(mode == "wal")
    }

    /// A database made by the first release (v1 only) opens and migrates forward with its data intact.
    @Test func aDatabaseFromEachEarlierVersionMigratesForward() throws {
        for stop in allMigrations.dropLast() {
            let path = tempPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let old = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(old, upTo: stop)
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO learner(chat_id, user_id, first_name, state_code, joined_at, last_active_at, streak_current, streak_best)
                        VALUES (9, 9, 'Ana', 'TX', 0, 0, 1, 3)
                        """)
                try db.execute(sql: "INSERT INTO bot_state(key, value) VALUES ('update_offset', '77')")
            }
            try old.close()
            let store = try TutorStore(path: path)
            #expect(try store.appliedMigrations() == allMigrations)
            #expect(try store.loadChat(9)?.learner.streak.best == 3)
            #expect(try store.updateOffset() == 77)
        }
    }

    @Test func timersAreStoredWithTheChatAndFireOnce() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let due = Date(timeIntervalSince1970: 1_000)
        try store.commit(
            [
                ChatChange(
                    before: nil, after: s, answers: [], outbox: [],
                    timers: [("tq3.1", due), ("tq3.0", due), ("tq3.0", nil)])
            ], offset: nil)
        #expect(try store.dueTimers(now: due) == [DueTimer(chatID: 9, key: "tq3.1")])
        #expect(try store.dueTimers(now: due.addingTimeInterval(-1)).isEmpty)
        try store.commit(
            [ChatChange(before: s, after: s, answers: [], outbox: [], firedTimers: ["tq3.1"])], offset: nil)
        #expect(try store.dueTimers(now: due).isEmpty)
    }

    /// A reminder or a friend's news that waited hours (the bot was down, a console closed) is
    /// dropped, never delivered late; replies are never dropped. Rows are queued at the change's
    /// time, not the learner's last activity (a reminder comes long after it).
    @Test func staleNewsIsDroppedAndRepliesAreKept() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let evening = s.learner.joinedAt.addingTimeInterval(3 * 86_400)
        func body(_ text: String) -> Data { Data(#"{"chat_id":9,"text":"\#(text)"}"#.utf8) }
        var nudge = ChatChange(
            before: nil, after: s, answers: [],
            outbox: [
                OutboxItem(
                    chatID: 9, method: "sendMessage", body: body("time to study"), priority: OutboxItem.bulkPriority),
                OutboxItem(chatID: 9, method: "sendMessage", body: body("a reply")),
            ])
        nudge.madeAt = evening
        try store.commit([nudge], offset: nil)
        #expect(try store.oldestDuePending() == evening, "queued when the reminder was made, not at the last activity")
        #expect(try store.dropStaleNews(queuedBefore: evening) == 0, "on time: kept")
        #expect(try store.dropStaleNews(queuedBefore: evening.addingTimeInterval(3 * 3600)) == 1)
        #expect(try store.pendingCount() == 1)
        let head = try #require(
            try OutboxQueue(store.pendingRows()).heads(limit: 10, now: evening.addingTimeInterval(4 * 3600)).first)
        #expect(String(decoding: head.body, as: UTF8.self).contains("a reply"))
        // A console counts and ages only its own chat's rows.
        #expect(try store.pendingCount(chatID: 9) == 1 && store.pendingCount(chatID: 10) == 0)
        #expect(try store.oldestDuePending(chatID: 10) == nil && store.oldestDuePending(chatID: 9) != nil)
    }

    @Test func aCommittedChatReadsBackWholeWithTheOffset() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let answer = AnswerRecord(
            questionID: "u-1", correct: false, quizID: 3, answeredAt: s.learner.joinedAt,
            localDay: LocalDay(iso: "2026-11-18")!)
        let item = OutboxItem(
            chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"hi"}"#.utf8), saveTag: "q3.1")
        try store.commit([ChatChange(before: nil, after: s, answers: [answer], outbox: [item])], offset: 1234)
        #expect(try store.loadChat(9) == s)
        #expect(try store.updateOffset() == 1234)
        #expect(try store.pendingCount() == 1)
        let head = try #require(try OutboxQueue(store.pendingRows()).heads(limit: 10, now: Date()).first)
        try store.markSent(head, messageID: 555)
        #expect(try store.messageID(chatID: 9, tag: "q3.1") == 555)
        #expect(try store.pendingCount() == 0)
    }

    @Test func onlyChangedProgressIsWrittenAndOrderIsPerChat() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        try store.commit([ChatChange(before: nil, after: s, answers: [], outbox: [])], offset: nil)
        var after = s
        after.progress["u-2"] = QuestionStats(
            seen: 1, correct: 1, lastCorrect: true, lastAnsweredAt: s.learner.joinedAt)
        let a = OutboxItem(chatID: 9, method: "sendMessage", body: Data("{}".utf8))
        try store.commit([ChatChange(before: s, after: after, answers: [], outbox: [a, a])], offset: 5)
        #expect(try store.loadChat(9)?.progress.count == 2)
        #expect(
            try OutboxQueue(store.pendingRows()).heads(limit: 10, now: Date()).count == 1,
            "one head per chat: the second waits its turn")
    }

    /// An ordinary save writes only the learner columns that changed; the row reads back as the
    /// learner after the change whichever columns those were, `joined_at` stays as first written,
    /// and a row gone meanwhile (erased by another process) is written whole again.
    @Test func aLearnerSaveWritesTheChangedColumnsAndReadsBackWhole() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        try store.commit([ChatChange(before: nil, after: s, answers: [], outbox: [])], offset: nil)

        // One column at a time, then all of them at once.
        var before = s
        let single: [(String, (inout Learner) -> Void)] = [
            ("xp", { $0.xp += 12 }), ("last_active_at", { $0.lastActiveAt.addTimeInterval(60) }),
            ("state_code", { $0.stateCode = "CA" }), ("state_code null", { $0.stateCode = nil }),
            ("badges", { $0.badges.insert(.cards100) }),
            ("streak", { $0.streak = Streak(current: 3, best: 6, lastDay: LocalDay(iso: "2026-11-19")) }),
            ("next_nudge_at", { $0.nextNudgeAt = Date(timeIntervalSince1970: 1_795_100_000) }),
            ("nudges_on", { $0.nudgesOn.toggle() }),
            (
                "week",
                {
                    $0.weekXP = 40
                    $0.xpWeek = LocalDay(iso: "2026-11-16")
                    $0.prevWeekXP = 9
                }
            ),
            (
                "daily",
                {
                    $0.dailyDay = LocalDay(iso: "2026-11-19")
                    $0.dailyStreak = 2
                }
            ), ("first_name", { $0.firstName = "Ana María" }),
        ]
        let changes = single + [("everything", { l in for (_, change) in single { change(&l) } })]
        for (name, change) in changes {
            var after = before
            change(&after.learner)
            let write = LearnerRow.write(before: before.learner, after: after.learner)
            guard case .changed(let columns) = write else {
                Issue.record("\(name): expected a narrow write, got \(write)")
                continue
            }
            #expect(columns.count < LearnerRow.columns.count - 2, "\(name): \(columns.count) columns")
            try store.commit([ChatChange(before: before, after: after, answers: [], outbox: [])], offset: nil)
            #expect(try store.loadChat(9)?.learner == after.learner, "\(name)")
            before = after
        }

        // A learner whose joinedAt differs in memory never rewrites the stored one.
        var rejoined = before
        rejoined.learner.joinedAt.addTimeInterval(-86_400)
        rejoined.learner.xp += 1
        try store.commit([ChatChange(before: before, after: rejoined, answers: [], outbox: [])], offset: nil)
        #expect(try store.loadChat(9)?.learner.joinedAt == s.learner.joinedAt)

        // Nothing changed: nothing to write.
        if case .unchanged = LearnerRow.write(before: before.learner, after: before.learner) {
        } else {
            Issue.record("an unchanged learner wrote")
        }

        // The row went meanwhile: the narrow update finds nothing, so the whole row is written.
        try store.writer.write { db in try db.execute(sql: "DELETE FROM learner WHERE chat_id = 9") }
        var after = rejoined
        after.learner.xp += 5
        try store.commit([ChatChange(before: rejoined, after: after, answers: [], outbox: [])], offset: nil)
        #expect(try store.loadChat(9)?.learner.xp == after.learner.xp)
    }

    @Test func theSchemaRefusesImpossibleRows() throws {
        let store = try TutorStore(path: ":memory:")
        try store.commit([ChatChange(before: nil, after: sampleState(), answers: [], outbox: [])], offset: nil)
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(sql: "INSERT INTO question_progress VALUES (9, 'u-x', 1, 2, 1, 0, 0)")  // more right than seen
            }
        }
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO answer(chat_id, question_id, correct, quiz_id, answered_at, local_day) VALUES (404, 'u', 1, 1, 0, 'd')"
                )
            }
        }
    }

    /// Two consoles started together on a new file: the migrations are applied once, not raced
    /// ("duplicate column" for the second).
    @Test func twoOpeningANewFileAtOnceMigrateItOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString).sqlite")
            .path
        defer {
            for s in ["", "-wal", "-shm", ".migrate-lock"] { try? FileManager.default.removeItem(atPath: path + s) }
        }
        let opens = (0..<4).map { _ in Task.detached { try TutorStore(path: path).appliedMigrations() } }
        for open in opens { #expect(try await open.value == allMigrations) }
    }

    /// "Delete my data": no row about the learner remains in any table (only the goodbye to send).
    @Test func erasingALearnerLeavesNoRowAboutThem() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let answer = AnswerRecord(
            questionID: "u-1", correct: false, quizID: 3, answeredAt: s.learner.joinedAt,
            localDay: LocalDay(iso: "2026-11-18")!)
        let item = OutboxItem(
            chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"Ana, hi"}"#.utf8), saveTag: "q3.1")
        var friend = sampleState()
        friend.learner.chatID = 10
        friend.learner.userID = 10
        try store.commit([ChatChange(before: nil, after: friend, answers: [], outbox: [])], offset: nil)
        var change = ChatChange(
            before: nil, after: s, answers: [answer], outbox: [item, item], timers: [("tq3.1", Date())])
        // A challenge Ana made, one she played, and a friendship (both ways) from it.
        let t = s.learner.joinedAt
        change.challengesMade = [
            Challenge(
                token: String(repeating: "A", count: 22), creatorChatID: 9, creatorName: "Ana",
                questionIDs: ["u-1", "u-2"], creatorCorrect: [true, false], createdAt: t, expiresAt: t + 7 * 86_400)
        ]
        change.challengePlays = [(String(repeating: "B", count: 22), [true, true])]
        change.newFriends = [10]
        change.dailyResults = [("TX", LocalDay(iso: "2026-11-18")!, 4)]
        change.asks = [AskRecord(text: "can i turn right on red", ref: "u-1", askedAt: t)]
        try store.commit([change], offset: nil)
        #expect(try store.friends(of: 10) == [9], "both sides are friends")
        #expect(
            try store.challenge(token: String(repeating: "A", count: 22), openedBy: 10)
                == .found(change.challengesMade[0], alreadyPlayed: false))
        #expect(try store.challenge(token: String(repeating: "B", count: 22), openedBy: 9) == .notFound)
        #expect(
            try store.dailyScores(stateCode: "TX", day: LocalDay(iso: "2026-11-18")!, excluding: 10).counts == [
                0, 0, 0, 0, 1, 0,
            ])
        #expect(
            try store.dailyScores(stateCode: "TX", day: LocalDay(iso: "2026-11-18")!, excluding: 9).players == 0,
            "not counted against oneself")
        let head = try #require(try OutboxQueue(store.pendingRows()).heads(limit: 1, now: Date()).first)
        try store.markSent(head, messageID: 5)
        let b = try store.createBroadcast(
            stateCode: "TX", text: "New questions!", adminChatID: 1, status: "sending", now: Date())
        #expect(
            try store.enqueueBroadcast(b, limit: 10, now: Date()) { _, _ in Data("{}".utf8) } == 2, "Ana and her friend"
        )
        for table in TutorStore.tablesWithChatRows {
            #expect(
                try store.rows("SELECT COUNT(*) AS n FROM \(table) WHERE chat_id = 9").first?["n"] != "0",
                "\(table) has a row to erase")
        }
        var erase = ChatChange(
            before: s, after: s, answers: [],
            outbox: [OutboxItem(chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"Done"}"#.utf8))])
        erase.erase = true
        try store.commit([erase], offset: nil)
        for table in TutorStore.tablesWithChatRows where table != "outbox" {
            #expect(
                try store.rows("SELECT COUNT(*) AS n FROM \(table) WHERE chat_id = 9").first?["n"] == "0",
                "\(table) still has rows")
        }
        #expect(
            try store.rows("SELECT body FROM outbox WHERE chat_id = 9").map { $0["body"] } == [
                #"{"chat_id":9,"text":"Done"}"#
            ])
        #expect(
            try store.rows("SELECT COUNT(*) AS n FROM broadcast").first?["n"] == "1",
            "the broadcast itself is not theirs")
        // Every table with a chat_id column is in the erase list.
        let tables = try store.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0["name"] }
        for t in tables
        where try store.rows("SELECT name FROM pragma_table_info('\(t)') WHERE name = 'chat_id'").count > 0 {
            #expect(TutorStore.tablesWithChatRows.contains(t), "\(t) holds chat rows but is not erased")
        }
        #expect(try store.loadChat(9) == nil)
        #expect(try store.friends(of: 10).isEmpty, "the friend no longer lists them")
        #expect(
            try store.challenge(token: String(repeating: "A", count: 22), openedBy: 10) == .notFound,
            "their link is gone")
        #expect(
            try store.dailyScores(stateCode: "TX", day: LocalDay(iso: "2026-11-18")!, excluding: 10).players == 0,
            "their Daily 5 left the tally")
    }

    /// A friend's news held for the recipient's quiet hours doesn't hold up the replies queued after it.
    @Test func aHeldBulkRowDoesNotBlockTheChatsReplies() throws {
        let store = try TutorStore(path: ":memory:")
        let s = sampleState()
        let now = s.learner.joinedAt
        var news = OutboxItem(
            chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"news"}"#.utf8),
            priority: OutboxItem.bulkPriority)
        news.notBefore = now.addingTimeInterval(8 * 3600)
        var change = ChatChange(
            before: nil, after: s, answers: [],
            outbox: [
                news,
                OutboxItem(chatID: 9, method: "sendMessage", body: Data(#"{"chat_id":9,"text":"reply"}"#.utf8)),
            ])
        change.madeAt = now
        try store.commit([change], offset: nil)
        let head = try #require(try OutboxQueue(store.pendingRows()).heads(limit: 10, now: now).first)
        #expect(String(decoding: head.body, as: UTF8.self).contains("reply"))
        #expect(try OutboxQueue(store.pendingRows()).heads(limit: 10, now: now).count == 1)
        try store.markSent(head, messageID: 1)
        #expect(try OutboxQueue(store.pendingRows()).heads(limit: 10, now: now).isEmpty, "held")
        #expect(try OutboxQueue(store.pendingRows()).next(chatID: 9, now: now) == nil)
        #expect(
            try store.dropStaleNews(queuedBefore: now.addingTimeInterval(4 * 3600)) == 0,
            "stale counts from when it was due")
        let morning = try #require(
            try OutboxQueue(store.pendingRows()).heads(limit: 10, now: now.addingTimeInterval(8 * 3600)).first)
        #expect(String(decoding: morning.body, as: UTF8.self).contains("news"))
    }

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
        var a = sampleState()
        var b = sampleState()
        b.learner.chatID = 10
        b.learner.userID = 10
        let t = a.learner.joinedAt
        try store.commit([ChatChange(before: nil, after: b, answers: [], outbox: [])], offset: nil)
        var befriend = ChatChange(before: nil, after: a, answers: [], outbox: [])
        befriend.newFriends = [10]
        befriend.madeAt = t
        try store.commit([befriend], offset: nil)
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
