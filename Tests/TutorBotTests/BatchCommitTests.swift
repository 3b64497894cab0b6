import Foundation
import TelegramAPI
import Testing
import TutorStore

@testable import TutorBot

/// A batch is committed while it is still being reduced when the database is a file (the write
/// transaction saves each chat as the other cores finish it); in memory it is reduced first.
/// Either way the learners must get the same messages, in the same order.
@Suite struct BatchCommitTests {
    /// 40 learners, 9 updates each, interleaved as a busy bot sees them: /start, a state, a quiz,
    /// then answers (tapped letters typed) and stray text — short of a quiz's end, whose results
    /// show a duration in seconds.
    static func batches() -> [[ReceivedUpdate]] {
        var all: [ReceivedUpdate] = []
        var updateID: Int64 = 1
        for step in 0..<9 {
            for l in 0..<40 {
                let chat = Int64(70_000 + l)
                let text =
                    ["/start", "Massachusetts", "/quiz"][safe: step]
                    ?? (step % 2 == 1 ? ["A", "B", "C", "D"][(l + step) % 4] : "next")
                let message = TelegramAPI.Message(
                    messageID: Int64(step + 1), from: User(id: chat, firstName: "L\(l)"),
                    chat: Chat(id: chat, type: "private"), date: 0, text: text)
                all.append(ReceivedUpdate(updateID: updateID, update: Update(updateID: updateID, message: message)))
                updateID += 1
            }
        }
        return stride(from: 0, to: all.count, by: 60).map { Array(all[$0..<min($0 + 60, all.count)]) }
    }

    func outbox(databasePath: String) throws -> [[String: String]] {
        var config = Config(
            token: "0:test", apiBase: "http://127.0.0.1:9", databasePath: databasePath,
            banksDirectory: "\(repoRoot)/Banks", promptsDirectory: "\(repoRoot)/Prompts/en")
        config.fakeNow = Date(timeIntervalSince1970: 1_795_000_000)
        let bot = try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
        for batch in Self.batches() { _ = try bot.process(batch) }
        #expect(bot.counters.updatesProcessed == 360)
        return try bot.store.rows(
            "SELECT id, chat_id, method, body, edit_tag, save_tag, priority FROM outbox ORDER BY id")
    }

    @Test func committingWhileReducingSendsWhatReducingFirstSends() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bot.sqlite").path
        #expect(try TutorStore(path: file).readsAlongsideWrite && !TutorStore(path: ":memory:").readsAlongsideWrite)
        let pipelined = try outbox(databasePath: file)
        let sequential = try outbox(databasePath: ":memory:")
        #expect(pipelined.count > 360, "every update got a reply (\(pipelined.count) rows)")
        #expect(pipelined == sequential)
        // First-arrival order: the first batch's replies go to learners 0, 1, 2 … in turn.
        var firstSeen: [String] = []
        for row in pipelined where !firstSeen.contains(row["chat_id"] ?? "") { firstSeen.append(row["chat_id"] ?? "") }
        #expect(firstSeen == (0..<40).map { String(70_000 + $0) })
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
