import Foundation
import Synchronization
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// #39 item 7: two processes on one database (two consoles, say). Each keeps a copy of the chats
/// it served and a save writes only what changed from that copy, so a stale copy could overwrite
/// the other process's newer progress; and every console ran reminders and timers for every chat.
@Suite(.serialized) struct TwoProcessesTests {
    let learner: Int64 = 31

    func twoBots(onlyChat: Int64? = nil) throws -> (Bot, Bot, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var config = Config(
            token: "0:test", apiBase: "http://127.0.0.1:9",
            databasePath: dir.appendingPathComponent("shared.sqlite").path,
            banksDirectory: "\(repoRoot)/Banks", promptsDirectory: "\(repoRoot)/Prompts/en")
        config.fakeNow = Date(timeIntervalSince1970: 1_795_000_000)
        config.onlyChat = onlyChat
        let first = try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
        let second = try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
        return (first, second, dir)
    }

    func say(_ text: String, update: Int64, chat: Int64? = nil) -> ReceivedUpdate {
        let chatID = chat ?? learner
        let message = TelegramAPI.Message(
            messageID: update, from: User(id: chatID, firstName: "Sam"),
            chat: Chat(id: chatID, type: "private"), date: 0, text: text)
        return ReceivedUpdate(updateID: update, update: Update(updateID: update, message: message))
    }

    @Test func aStaleCopyIsReadAgainNeverWrittenOverNewerProgress() throws {
        let (a, b, dir) = try twoBots()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Process A serves the learner into a quick quiz: A's copy has question 1 open, 0 answered.
        _ = try a.process([say("/start", update: 1), say("Texas", update: 2), say("/quiz", update: 3)])
        // Process B (nothing cached) answers question 1 and moves on to question 2.
        _ = try b.process([say("A", update: 4)])
        _ = try b.process([say("next", update: 5)])
        let afterB = try #require(try a.store.loadChat(learner))
        #expect(afterB.learner.answeredToday == 1 && afterB.session.quiz?.index == 1, "B's answer is stored")
        // A, with its old copy, takes the next answer: it must answer question 2 on B's stored
        // progress (2 answered), not question 1 again over it.
        _ = try a.process([say("B", update: 6)])
        let after = try #require(try a.store.loadChat(learner))
        // (Whether "B" counts depends on question 2: a letter at a fill-in question is not taken.)
        #expect(after.session.quiz?.index == 1, "A went on from B's question 2, not its own question 1")
        #expect(after.learner.answeredToday >= 1 && (after.session.quiz?.answers.count ?? 0) >= 1, "B's answer kept")
        #expect(a.counters.chatFailures == 0, "a stale copy is redone, not dropped")
    }

    @Test func aConsoleRunsRemindersAndTimersForItsOwnChatOnly() throws {
        let (a, _, dir) = try twoBots(onlyChat: learner)
        defer { try? FileManager.default.removeItem(at: dir) }
        let other: Int64 = 32
        _ = try a.process([
            say("/start", update: 1), say("Texas", update: 2),
            say("/start", update: 3, chat: other), say("Texas", update: 4, chat: other),
        ])
        // Both reminders due (set as another process's save would: the version moves on).
        try a.store.execute("UPDATE learner SET next_nudge_at = 1, version = version + 1")
        #expect(try a.sendDueNudges() == 1, "the console's own learner only")
        let waiting = try a.store.rows("SELECT chat_id FROM learner WHERE next_nudge_at = 1").compactMap {
            $0["chat_id"]
        }
        #expect(waiting == ["\(other)"], "the other learner's reminder waits for their own console: \(waiting)")
    }
}

/// #39 item 13: two consoles on one database, an admin's broadcast to both: each console prints
/// its own learner's copy, once, and never the other's.
@Suite(.serialized) struct TwoConsolesTests {
    /// A console whose learner types `lines`, one every 0.4 s (`wait` holds the next line until
    /// the output has something), then stays open `linger` seconds before its input ends.
    final class Typist: Sendable {
        let output = Mutex<[String]>([])
        let script: Mutex<[(line: String, after: String?)]>
        let linger: TimeInterval

        init(_ script: [(line: String, after: String?)], linger: TimeInterval) {
            self.script = Mutex(script)
            self.linger = linger
        }

        var printed: String { output.withLock { $0.joined(separator: "\n") } }

        func nextLine() -> String? {
            guard let next = script.withLock({ $0.first }) else {
                Thread.sleep(forTimeInterval: linger)
                return nil
            }
            let deadline = Date().addingTimeInterval(10)
            while let needle = next.after, !printed.contains(needle), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            Thread.sleep(forTimeInterval: 0.4)
            script.withLock { _ = $0.removeFirst() }
            return next.line
        }
    }

    @Test func eachConsolePrintsItsOwnChatsMessagesOnly() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-consoles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func console(_ user: Int64, _ typist: Typist) throws -> Bot {
            var config = Config(
                token: "console", apiBase: "http://127.0.0.1:9",
                databasePath: dir.appendingPathComponent("chat.sqlite").path,
                banksDirectory: "\(repoRoot)/Banks", promptsDirectory: "\(repoRoot)/Prompts/en", admins: [1])
            config.deliverBeforeNextPoll = true
            config.messagesPerSecond = 1_000
            config.perChatPerSecond = 1_000
            config.onlyChat = user
            return try Bot.build(
                config,
                transport: ConsoleTransport(
                    userID: user, name: "User\(user)", input: { typist.nextLine() },
                    write: { line in typist.output.withLock { $0.append(line) } }))
        }
        let learner = Typist([("/start", nil), ("Texas", "Pick your state"), ("/home", nil)], linger: 8)
        let admin = Typist(
            [
                ("/start", nil), ("Texas", "Pick your state"), ("/home", nil),
                ("/broadcast texas Road signs lesson updated", nil), ("1", "Preview"),
            ], linger: 6)
        let first = try console(2, learner)
        try await Task.sleep(for: .milliseconds(300))
        let second = try console(1, admin)
        async let one: Void = first.run()
        async let two: Void = second.run()
        _ = try await (one, two)
        let note = "Road signs lesson updated"
        let learnerCopies = learner.printed.components(separatedBy: note).count - 1
        let adminLines = admin.printed.components(separatedBy: "\n").filter {
            $0.contains(note) && !$0.contains("/broadcast")
        }
        #expect(learnerCopies == 1, "the learner's console printed the note once: \(learner.printed.suffix(600))")
        #expect(
            adminLines.count == 2,
            "the admin's console: the preview and the admin's own copy, no one else's: \(adminLines)")
        #expect(
            !admin.printed.contains("User2") && !learner.printed.contains("User1"), "no greeting of the other learner's"
        )
    }
}
