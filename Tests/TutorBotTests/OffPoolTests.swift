import FakeBotAPI
import Foundation
import Testing
import TutorStore

@testable import TutorBot

/// Blocking work never holds up a tap: batches, the sender's writes and maintenance run on threads
/// of their own, outside Swift's cooperative pool (two threads on this machine).
@Suite(.serialized) struct OffPoolTests {
    @Test func tapsAreAnsweredWithinASecondWhileALongPruneAndABigBackupRun() async throws {
        let h = try Harness()
        try h.start()
        let chat: Int64 = 8001
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        let bot = try #require(h.bot)
        // Old answers: about 100 MB, all of it old enough to prune.
        try bot.store.execute(
            """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 450000)
            INSERT INTO answer(chat_id, question_id, correct, quiz_id, answered_at, local_day)
            SELECT \(chat), 'u-old-' || (x % 500) || '-padding-to-make-the-rows-as-wide-as-real-ones', x % 2, x % 1000, 1000 + x, '2020-01-01' FROM n
            """)
        let size = bot.store.fileSize()
        #expect(size > 90_000_000, "\(size) bytes")
        let backup = h.dir.appendingPathComponent("backup.sqlite").path
        let backedUp = Locked(false)
        let pruned = Locked(false)
        DispatchQueue.global().async {
            _ = try? bot.store.backup(to: backup)
            backedUp.withLock { $0 = true }
        }
        bot.maintenance.start {
            bot.prune()
            pruned.withLock { $0 = true }
        }

        let tapsBefore = h.fake.tapLatencies.count
        var taps = 0
        // At least two taps: on an idle machine the prune and the backup take well under a
        // second (0.4 s seen), so the taps are asked for while they start, not only until they end.
        let busyAtFirstTap = !(backedUp.withLock { $0 } && pruned.withLock { $0 })
        while (taps < 2 || !(backedUp.withLock { $0 } && pruned.withLock { $0 })) && taps < 60 {
            // Progress and home in turn, each pressed once the screen with its button is there.
            let (button, next) = taps % 2 == 0 ? ("📊 Progress", "Your progress") : ("🏠 Home", "Questions seen")
            let before = h.fake.messages(chat: chat).count
            #expect(h.fake.press(button, chat: chat))
            taps += 1
            #expect(
                h.fake.wait(timeout: 5) {
                    h.fake.messages(chat: chat).dropFirst(before).contains { $0.text.contains(next) }
                })
        }
        #expect(h.fake.wait { h.fake.tapLatencies.count >= tapsBefore + taps })
        let latencies = h.fake.tapLatencies.dropFirst(tapsBefore)
        let slowest = latencies.max() ?? 0
        #expect(busyAtFirstTap, "the prune and the backup were running when the taps began")
        #expect(slowest < 1, "slowest tap answer \(String(format: "%.3f", slowest)) s during the prune and backup")
        print(
            "taps during a prune of 450,000 answers and a \(size / 1_000_000) MB backup: \(taps), slowest answer \(String(format: "%.3f", slowest)) s"
        )
        await h.kill()
    }
}
