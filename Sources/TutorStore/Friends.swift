import Foundation
import GRDB
import TutorCore

/// Friend challenges and friendships: the rows one chat's play writes about another.
extension TutorStore {
    static func saveSocial(_ db: Database, _ change: ChatChange, chatID: Int64, now: Date) throws {
        for c in change.challengesMade {
            try db.cachedStatement(
                sql: """
                    INSERT INTO challenge(token, chat_id, creator_name, question_ids, creator_correct, created_at, \
                    expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                c.token, chatID, c.creatorName,
                String(decoding: try JSONEncoder().encode(c.questionIDs), as: UTF8.self),
                bits(c.creatorCorrect), c.createdAt.timeIntervalSince1970, c.expiresAt.timeIntervalSince1970,
            ])
        }
        for p in change.challengePlays {
            // Once per friend: a second play of the same link (two taps racing) keeps the first.
            try db.cachedStatement(
                sql: """
                    INSERT INTO challenge_play(token, chat_id, correct, played_at) VALUES (?, ?, ?, ?) ON CONFLICT \
                    DO NOTHING
                    """
            ).execute(arguments: [p.token, chatID, bits(p.correct), now.timeIntervalSince1970])
        }
        for friend in change.newFriends where friend != chatID {
            // Both sides, and only while the friend still has a learner row (they may have deleted their data).
            try db.cachedStatement(
                sql: """
                    INSERT INTO friendship(chat_id, friend_chat_id, since)
                    SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM learner WHERE chat_id = ?)
                    ON CONFLICT(chat_id, friend_chat_id) DO UPDATE SET since = excluded.since, removed_at = NULL \
                    WHERE removed_at IS NOT NULL
                    """
            ).execute(arguments: [chatID, friend, now.timeIntervalSince1970, friend])
            try db.cachedStatement(
                sql: """
                    INSERT INTO friendship(chat_id, friend_chat_id, since)
                    SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM learner WHERE chat_id = ?)
                    ON CONFLICT(chat_id, friend_chat_id) DO UPDATE SET since = excluded.since, removed_at = NULL \
                    WHERE removed_at IS NOT NULL
                    """
            ).execute(arguments: [friend, chatID, now.timeIntervalSince1970, friend])
        }
    }

    static func saveDailyResults(_ db: Database, _ change: ChatChange, chatID: Int64) throws {
        for d in change.dailySets {
            try db.cachedStatement(
                sql: """
                    INSERT INTO daily_set(state_code, day, question_ids) VALUES (?, ?, ?) ON CONFLICT DO NOTHING
                    """
            ).execute(arguments: [
                d.stateCode, d.day.description,
                String(decoding: try JSONEncoder().encode(d.questionIDs), as: UTF8.self),
            ])
        }
        for d in change.dailyResults {
            try db.cachedStatement(
                sql: """
                    INSERT INTO daily_result(state_code, day, chat_id, score) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """
            ).execute(arguments: [d.stateCode, d.day.description, chatID, d.score])
            guard db.changesCount > 0 else { continue }  // played already: counted once
            try db.cachedStatement(
                sql: """
                    INSERT INTO daily_tally(state_code, day, score, players) VALUES (?, ?, ?, 1)
                    ON CONFLICT(state_code, day, score) DO UPDATE SET players = players + 1
                    """
            ).execute(arguments: [d.stateCode, d.day.description, d.score])
        }
    }

    /// How many *other* learners of `stateCode` scored 0...5 on `day`'s daily challenge: the day's
    /// tally (six rows, whatever the number of players) less this learner's own result.
    public func dailyScores(stateCode: String, day: LocalDay, excluding chatID: Int64) throws -> DailyScores {
        try writer.read { db in
            var counts = [Int](repeating: 0, count: DailyChallenge.length + 1)
            for row in try Row.fetchAll(
                db, sql: "SELECT score, players FROM daily_tally WHERE state_code = ? AND day = ?",
                arguments: [stateCode, day.description])
            {
                let score: Int = try row.decode(forColumn: "score")
                let n: Int = try row.decode(forColumn: "players")
                if counts.indices.contains(score) { counts[score] = n }
            }
            if let own = try Int.fetchOne(
                db, sql: "SELECT score FROM daily_result WHERE state_code = ? AND day = ? AND chat_id = ?",
                arguments: [stateCode, day.description, chatID]), counts.indices.contains(own)
            {
                counts[own] = max(0, counts[own] - 1)
            }
            // Friends who played the same five, by first name (not those who hide from friends).
            let friends = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT l.first_name, d.score FROM friendship f
                        JOIN daily_result d ON d.chat_id = f.friend_chat_id AND d.state_code = ? AND d.day = ?
                        JOIN learner l ON l.chat_id = f.friend_chat_id
                        WHERE f.chat_id = ? AND f.removed_at IS NULL AND l.hide_from_friends = 0
                        """), arguments: [stateCode, day.description, chatID]
            ).map { row in
                var r = RowReader(row: row, table: "learner", key: "friend of chat \(chatID)")
                let name = r.value("first_name", "").split(separator: " ").first.map(String.init) ?? ""
                return FriendDailyScore(name: name, score: r.value("score", 0))
            }
            return DailyScores(counts: counts, friends: friends)
        }
    }

    /// `stateCode`'s Daily 5 on `day` as first dealt, nil if not dealt yet.
    public func dailySet(stateCode: String, day: LocalDay) throws -> [String]? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT question_ids FROM daily_set WHERE state_code = ? AND day = ?"),
                arguments: [stateCode, day.description]
            )
            // A row that doesn't read as a list (a hand edit) deals afresh, never fails the chat.
            .flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        }
    }

    /// For /stats: today's daily-challenge players per state (each state's own day).
    public func dailyPlayers(on days: [String: LocalDay]) throws -> [(code: String, players: Int)] {
        try writer.read { db in
            try days.sorted { $0.key < $1.key }.compactMap { code, day in
                let n =
                    try Int.fetchOne(
                        db, sql: "SELECT SUM(players) FROM daily_tally WHERE state_code = ? AND day = ?",
                        arguments: [code, day.description]) ?? 0
                return n > 0 ? (code, n) : nil
            }
        }
    }

    /// Both sides stop being friends; the rows stay, marked, until pruning (see v11).
    static func removeFriendships(_ db: Database, _ change: ChatChange, chatID: Int64, now: Date) throws {
        for friend in change.removedFriends {
            try db.cachedStatement(
                sql: """
                    UPDATE friendship SET removed_at = ?
                    WHERE ((chat_id = ? AND friend_chat_id = ?) OR (chat_id = ? AND friend_chat_id = ?)) AND \
                    removed_at IS NULL
                    """
            ).execute(arguments: [now.timeIntervalSince1970, chatID, friend, friend, chatID])
        }
    }

    static func bits(_ correct: [Bool]) -> String { String(correct.map { $0 ? "1" : "0" }) }

    /// What a `/start` challenge link leads to, for the chat opening it.
    public func challenge(token: String, openedBy chatID: Int64) throws -> ChallengeLookup {
        try writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT chat_id, creator_name, question_ids, creator_correct, created_at, expires_at FROM \
                        challenge WHERE token = ?
                        """, arguments: [token])
            else { return .notFound }
            let ids = try JSONDecoder().decode(
                [String].self, from: Data((try row.decode(String.self, forColumn: "question_ids")).utf8))
            let correct = (try row.decode(String.self, forColumn: "creator_correct")).map { $0 == "1" }
            let challenge = Challenge(
                token: token, creatorChatID: try row.decode(forColumn: "chat_id"),
                creatorName: try row.decode(forColumn: "creator_name"), questionIDs: ids, creatorCorrect: correct,
                createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: "created_at")),
                expiresAt: Date(timeIntervalSince1970: try row.decode(forColumn: "expires_at")))
            let played =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM challenge_play WHERE token = ? AND chat_id = ?)",
                    arguments: [token, chatID]) ?? false
            return .found(challenge, alreadyPlayed: played)
        }
    }

    /// Whether a message to `chatID` may be sent unasked (a friend's news), and where they are:
    /// nil when they don't exist, stopped the bot or blocked it; else their time zone and state
    /// (for their quiet hours) and when they last used the bot.
    public func newsRecipient(_ chatID: Int64) throws -> NewsRecipient? {
        try writer.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT time_zone, state_code, last_active_at FROM learner
                        WHERE chat_id = ? AND stopped = 0 AND blocked = 0
                        """),
                arguments: [chatID]
            ).map { row in
                NewsRecipient(
                    timeZone: try row.decode(String?.self, forColumn: "time_zone"),
                    stateCode: try row.decode(String?.self, forColumn: "state_code"),
                    lastActive: Date(
                        timeIntervalSince1970: (try? row.decode(Double.self, forColumn: "last_active_at")) ?? 0))
            }
        }
    }

    /// What the Friends screen and the league show of each friend (first name, this week's XP,
    /// streak, whether they hide), in the order they became friends; with those removed since
    /// `removedSince` (the week's start), marked, for last week's league.
    public func friendSummaries(of chatID: Int64, removedSince: Date = .distantFuture, now: Date = Date()) throws
        -> [FriendSummary]
    {
        try writer.read { db in
            // Cached: it is read for the Home, League and Progress screens, and preparing it again
            // each time would be most of such an update's database work.
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT l.*, f.removed_at IS NOT NULL AS removed,
                               (SELECT c.token FROM challenge c
                                WHERE c.chat_id = l.chat_id AND c.expires_at > ?
                                  AND NOT EXISTS (SELECT 1 FROM challenge_play p
                                                  WHERE p.token = c.token AND p.chat_id = f.chat_id)
                                ORDER BY c.created_at DESC LIMIT 1) AS open_challenge
                        FROM friendship f JOIN learner l ON l.chat_id = f.friend_chat_id
                        WHERE f.chat_id = ? AND (f.removed_at IS NULL OR f.removed_at >= ?)
                        ORDER BY f.since, l.chat_id
                        """), arguments: [now.timeIntervalSince1970, chatID, removedSince.timeIntervalSince1970]
            ).map { row in
                let friend = LearnerRecord(row: row).learner
                var r = RowReader(row: row, table: "friendship", key: "friend of chat \(chatID)")
                return FriendSummary(
                    chatID: friend.chatID, firstName: friend.firstName, weekXP: max(0, friend.weekXP),
                    xpWeek: friend.xpWeek, streak: friend.streak, hidden: friend.hideFromFriends
                )
                .with(
                    // The zone as stored: none set means the friend's state's own (not a default's).
                    prevWeekXP: max(0, friend.prevWeekXP), zone: r.value("time_zone", String?.none),
                    state: friend.stateCode, removed: r.value("removed", false)
                )
                .with(openChallenge: r.value("open_challenge", String?.none))
            }
        }
    }

    /// This learner's friends' chat ids.
    public func friends(of chatID: Int64) throws -> [Int64] {
        try writer.read { db in
            try Int64.fetchAll(
                db,
                sql: "SELECT friend_chat_id FROM friendship WHERE chat_id = ? AND removed_at IS NULL ORDER BY since",
                arguments: [chatID])
        }
    }

    /// For /stats: challenges made and played, friendships (each counted once).
    public func socialCounts() throws -> (challenges: Int, plays: Int, friendships: Int) {
        try writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM challenge") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM challenge_play") ?? 0,
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM friendship WHERE removed_at IS NULL") ?? 0) / 2
            )
        }
    }
}
