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
            let columns = try LearnerRecord(after.learner).changedColumns(from: LearnerRecord(before.learner))
            #expect(
                !columns.isEmpty && columns.count < LearnerRecord.Columns.allCases.count - 2,
                "\(name): a narrow write, \(columns.sorted())")
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
        #expect(
            try LearnerRecord(before.learner).changedColumns(from: LearnerRecord(before.learner)).isEmpty,
            "an unchanged learner writes nothing")

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

}
