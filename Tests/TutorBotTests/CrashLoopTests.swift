import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot

#if canImport(Glibc)
    import Glibc
#endif

/// The real `permitready run` as a child process, restarted by the test as systemd would
/// (`Restart=always`): one update that traps, and a database another process keeps busy.
@Suite(.serialized) struct CrashLoopTests {
    static let learners: [Int64] = Array(7101...7108)
    static let trapChat: Int64 = 7100
    static let trap = "💥 trap"

    func tempDatabase() throws -> (dir: URL, db: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "permitready-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (dir, dir.appendingPathComponent("bot.sqlite").path)
    }

    func progressScreens(_ fake: FakeBotAPI, _ chat: Int64) -> Int {
        fake.messages(chat: chat).filter { $0.text.contains("Your progress") }.count
    }

    func apologies(_ fake: FakeBotAPI, _ chat: Int64) -> Int {
        fake.messages(chat: chat).filter { $0.text.contains("something went wrong on our side") }.count
    }

    /// Before: the trap killed the process before its batch's offset was committed, Telegram
    /// re-delivered the same batch, and the bot restarted into the same trap for ever.
    @Test func anUpdateThatTrapsCostsOnlyItselfAfterTwoRestarts() throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let (dir, db) = try tempDatabase()
        defer { try? FileManager.default.removeItem(at: dir) }
        // All in one batch: the trap sits among everyone's updates.
        for chat in [Self.trapChat] + Self.learners { fake.say("/start NY", chat: chat) }
        fake.say(Self.trap, chat: Self.trapChat)
        for chat in Self.learners { fake.say("/progress", chat: chat) }

        var log = ""
        var crashes = 0
        var child = try ProcessStopTests.Child(
            db: db, api: fake.baseURL, environment: ["PERMITREADY_TEST_TRAP": Self.trap])
        defer {
            if child.process.isRunning {
                kill(child.process.processIdentifier, SIGTERM)
                _ = child.exited(within: 10)
            }
        }
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if !child.process.isRunning {
                crashes += 1
                log += child.log
                if crashes > 5 { break }
                child = try ProcessStopTests.Child(
                    db: db, api: fake.baseURL, environment: ["PERMITREADY_TEST_TRAP": Self.trap])
            }
            if fake.allUpdatesConfirmed, Self.learners.allSatisfy({ progressScreens(fake, $0) >= 1 }),
                apologies(fake, Self.trapChat) >= 1
            {
                break
            }
            usleep(50_000)
        }
        #expect(crashes >= 1 && crashes <= 3, "the process died \(crashes) times")
        #expect(Self.learners.allSatisfy { progressScreens(fake, $0) >= 1 }, "every other chat was answered")
        #expect(fake.allUpdatesConfirmed, "the offset moved past every update")
        #expect(apologies(fake, Self.trapChat) == 1, "the trapped update was skipped once, with the apology")

        // The learner whose update trapped goes on as before, and so does the bot.
        fake.say("/progress", chat: Self.trapChat)
        #expect(fake.wait(timeout: 20) { progressScreens(fake, Self.trapChat) >= 1 })
        #expect(child.process.isRunning)
        kill(child.process.processIdentifier, SIGTERM)
        #expect(child.exited(within: 10))
        log += child.log
        #expect(log.contains("skipped update") && log.contains("of chat \(Self.trapChat)"), "\(log.suffix(2_000))")
    }

    /// Before: after three failed commits the one-at-a-time fallback skipped every update whose
    /// commit failed, for good and with no apology, although the database was only busy.
    @Test func aDatabaseBusyWithAnotherProcessDelaysUpdatesAndLosesNone() throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let (dir, db) = try tempDatabase()
        defer { try? FileManager.default.removeItem(at: dir) }
        var child = try ProcessStopTests.Child(db: db, api: fake.baseURL)
        defer {
            if child.process.isRunning {
                kill(child.process.processIdentifier, SIGTERM)
                _ = child.exited(within: 10)
            }
        }
        for chat in Self.learners { fake.say("/start NY", chat: chat) }
        #expect(
            fake.wait(timeout: 30) {
                fake.allUpdatesConfirmed && Self.learners.allSatisfy { !fake.messages(chat: $0).isEmpty }
            })

        // A command-line job holds the write lock longer than three whole-batch tries take
        // (three 5 s busy timeouts and their pauses), so the fallback runs while it is held.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(float(sys.argv[2])); c.execute('ROLLBACK')
            """, db, "32",
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        _ = out.fileHandleForReading.availableData  // "locked"
        for chat in Self.learners { fake.say("/progress", chat: chat) }
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)

        #expect(
            fake.wait(timeout: 60) {
                fake.allUpdatesConfirmed && Self.learners.allSatisfy { progressScreens(fake, $0) >= 1 }
            },
            "every update answered once the database was free")
        kill(child.process.processIdentifier, SIGTERM)
        #expect(child.exited(within: 10))
        let log = child.log
        #expect(!log.contains("skipped update"), "\(log.suffix(2_000))")
        #expect(Self.learners.allSatisfy { apologies(fake, $0) == 0 })
        child = try ProcessStopTests.Child(db: db, api: fake.baseURL)  // and it starts again on the same database
        #expect(!child.exited(within: 2))
        kill(child.process.processIdentifier, SIGTERM)
        #expect(child.exited(within: 10))
    }
}
