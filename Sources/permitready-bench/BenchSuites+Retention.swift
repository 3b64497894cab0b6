import Drills
import FakeBotAPI
import Foundation
import LearnerSimulation
import TelegramAPI
import TutorBot
import TutorCore
import TutorStore

extension BenchSuites {
    /// Database size after `learners` learners studied daily for `days` days, with retention as the
    /// running bot applies it; then one more day's pruning, a backup and a restore, timed. The rows
    /// are written in bulk SQL shaped like the bot's own (same tables, ids, JSON bodies), holding
    /// what 90 days leave behind: ~15 answers a day, ~5 new questions a day (450 seen by day 90),
    /// a card per miss (150), the last 20 results, and the transient rows within their retention
    /// plus one day past it for the pruning to remove.
    func retention(learners: Int, days: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.sqlite").path
        let store = try TutorStore(path: path)
        let keep = Retention()
        let now = Date()
        let t = now.timeIntervalSince1970
        let day = 86_400.0
        let seen = min(450, 5 * days)
        let cards = min(150, seen / 3)
        let perDay = 15
        let answerDays = Int(keep.answerDays) + 1
        let refDays = Int(keep.messageRefDays) + 1
        let result = String(
            decoding: try JSONEncoder().encode(
                QuizResult(
                    quizID: 1, mode: .quick, stateCode: "TX", correct: 8, total: 10, passPercent: 70, startedAt: now,
                    finishedAt: now,
                    byTopic: Topic.allCases.prefix(6).map { TopicScore(topic: $0, correct: 1, total: 2) },
                    missedIDs: ["u-signs-014", "tx-031"])), as: UTF8.self)
        let session = String(decoding: try JSONEncoder().encode(Session()), as: UTF8.self)
        let body =
            #"{"chat_id":1234567,"#
            + #""text":"<b>Q3/10</b> · Road signs\n\nWhat does a yellow diamond sign warn you about?","#
            + #""parse_mode":"HTML","reply_markup":{"inline_keyboard":[[{"text":"A","callback_data":"1a:12:2:0"},"#
            + #"{"text":"B","callback_data":"1a:12:2:1"},{"text":"C","callback_data":"1a:12:2:2"}]]}}"#
        let fill0 = ContinuousClock.now
        let chunk = 5_000
        for start in stride(from: 1, through: learners, by: chunk) {
            let end = min(learners, start + chunk - 1)
            let ids = "WITH RECURSIVE l(x) AS (SELECT \(start) UNION ALL SELECT x + 1 FROM l WHERE x < \(end))"
            func n(_ count: Int, _ name: String) -> String {
                """
                , \(name)(\(name)) AS (SELECT 0 UNION ALL SELECT \(name) + 1 FROM \(name) WHERE \(name) < \
                \(count - 1))
                """
            }
            try store.execute(
                """
                \(ids) INSERT INTO learner(chat_id, user_id, first_name, language_code, state_code, time_zone, \
                joined_at, last_active_at,
                    streak_current, streak_best, streak_last_day, next_nudge_at, xp, badges, answered_today, \
                    answered_day)
                SELECT x, x, 'Learner', 'en', 'TX', 'America/Chicago', ?, ? - (x % 86400), ?, ?, '2026-11-23', ? + \
                (x % 86400), 9000, 'firstQuiz,streak7', 15, '2026-11-23' FROM l
                """, [t - Double(days) * day, t, days, days, t])
            try store.execute(
                "\(ids) INSERT INTO session(chat_id, body, updated_at) SELECT x, ?, ? FROM l", [session, t])
            try store.execute(
                """
                \(ids)\(n(seen, "q")) INSERT INTO question_progress(chat_id, question_id, seen, correct, \
                last_correct, last_answered_at, missed,
                    first_correct, first_answered_at, knowledge, knowledge_at, strength_days)
                SELECT x, CASE WHEN q % 5 = 0 THEN 'tx-' ELSE 'u-signs-' END || printf('%03d', q), 3, 2, 1, ? - q * \
                9000, 0, q % 2, ? + q * 9000, 0.83, ? - q * 9000, 12.5 FROM l, q
                """, [t, t - Double(days) * day, t])
            try store.execute(
                """
                \(ids)\(n(cards, "c")) INSERT INTO card(chat_id, question_id, state, step, stability, difficulty, \
                due, last_review)
                SELECT x, 'u-signs-' || printf('%03d', c * 3), 2, NULL, 14.2, 5.5, ? + c * 3600, ? - c * 3600 FROM l, c
                """, [t, t])
            try store.execute(
                """
                \(ids)\(n(20, "r")) INSERT INTO quiz_result(chat_id, quiz_id, body, correct, total, finished_at)
                SELECT x, ? - r, ?, 8, 10, ? - r * 86400 FROM l, r
                """, [days * 2, result, t])
            try store.execute(
                """
                \(ids)\(n(answerDays * perDay, "a")) INSERT INTO answer(chat_id, question_id, correct, quiz_id, \
                answered_at, local_day)
                SELECT x, 'u-signs-' || printf('%03d', a % 400), a % 4 > 0, a / 10, ? - (a / \(perDay)) * 86400 - \
                3600 - (a % \(perDay)) * 60, '2026-11-23' FROM l, a
                """, [t])
            try store.execute(
                """
                \(ids)\(n(refDays * perDay, "m")) INSERT INTO message_ref(chat_id, tag, message_id, saved_at)
                SELECT x, 'q' || (m / 10) || '.' || (m % 10), 1000 + m, ? - (m / \(perDay)) * 86400 - 3600 FROM l, m
                """, [t])
            // An hour and a half of sent messages (~40 a learner a day): half is past the hour kept.
            try store.execute(
                """
                \(ids)\(n(3, "o")) INSERT INTO outbox(chat_id, method, body, priority, created_at, status, \
                message_id, attempts)
                SELECT x, 'sendMessage', ?, 0, ? - (x % 5400) - o, 'sent', 100 + o, 1 FROM l, o
                """, [body, t])
        }
        try store.checkpoint()
        let fill = (ContinuousClock.now - fill0).inSeconds
        let before = store.fileSize()
        let counts = try store.counts()
        let pruned = try store.prune(now: now)
        try store.checkpoint()
        let after = store.fileSize()
        func size(_ b: Int64) -> String { ByteCountFormatter.string(fromByteCount: b, countStyle: .file) }
        print(
            "retention: \(learners) learners × \(days) days (\(counts)) filled in \(Timing.format(fill)): "
                + "\(size(before)) with a day past retention; "
                + "pruning removed \(pruned.total) rows (\(pruned.answers) answers, \(pruned.outbox) sent messages, "
                + "\(pruned.messageRefs) message ids) in \(Timing.format(pruned.seconds)); "
                + "\(size(after)) after (freed pages are reused by the next day's rows, so the file stays at this size)"
        )
        let backup = dir.appendingPathComponent("backup.sqlite").path
        let b0 = ContinuousClock.now
        try store.backup(to: backup)
        let backupTime = (ContinuousClock.now - b0).inSeconds
        let backupSize =
            (try? FileManager.default.attributesOfItem(atPath: backup)[.size] as? NSNumber)?.int64Value ?? 0
        let restored = dir.appendingPathComponent("restored.sqlite").path
        let r0 = ContinuousClock.now
        _ = try TutorStore.restore(from: backup, to: restored)
        _ = try TutorStore(path: restored)
        print(
            """
            backup of \(learners) learners: \(size(backupSize)) in \(Timing.format(backupTime)); restore (check \
            + copy + open): \(Timing.format((ContinuousClock.now - r0).inSeconds))
            """
        )
    }
}
