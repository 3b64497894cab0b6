import FakeBotAPI
import Foundation
import Testing
import TutorStore

@testable import TutorBot

#if canImport(Glibc)
    import Glibc
#endif

/// The real `permitready run` as a child process, stopped mid-load the two ways an operator's
/// machine stops it: `systemctl stop` (SIGTERM) and a crash or OOM kill (SIGKILL).
@Suite(.serialized) struct ProcessStopTests {
    static let learners: [Int64] = Array(7001...7020)
    static let rounds = 6

    final class Child {
        let process = Process()
        let output = Pipe()
        init(db: String, api: String, environment extra: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: OperationsTests.binary)
            process.arguments = [
                "run", "--db", db, "--banks", "\(repoRoot)/Banks", "--prompts", "\(repoRoot)/Prompts/en",
            ]
            var env = ProcessInfo.processInfo.environment
            env["TELEGRAM_BOT_TOKEN"] = "4242424:test-token-for-the-fake-bot-api-only"
            env["TELEGRAM_API_BASE"] = api
            env["PERMITREADY_POLL_TIMEOUT"] = "1"
            env.merge(extra) { _, new in new }
            process.environment = env
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }
        func exited(within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            return !process.isRunning
        }
        var log: String { String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) }
    }

    func progressScreens(_ fake: FakeBotAPI, _ chat: Int64) -> Int {
        fake.messages(chat: chat).filter { $0.text.contains("Your progress") }.count
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aStopMidLoadLosesNothingAndARestartCarriesOn(signal: Int32) throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("bot.sqlite").path

        var child = try Child(db: db, api: fake.baseURL)
        for chat in Self.learners { fake.say("/start NY", chat: chat) }
        #expect(
            fake.wait(timeout: 30) {
                Self.learners.allSatisfy { fake.messages(chat: $0).contains { $0.text.contains("Questions seen") } }
            })
        // Load: every learner asks for their progress, round after round; the stop lands in the middle.
        for round in 1...Self.rounds {
            for chat in Self.learners { fake.say("/progress", chat: chat) }
            if round == 3 {
                _ = fake.wait(timeout: 10) { Self.learners.contains { progressScreens(fake, $0) >= 1 } }
                let sent = Date()
                kill(child.process.processIdentifier, signal)
                #expect(child.exited(within: 10))
                if signal == SIGTERM {
                    let took = Date().timeIntervalSince(sent)
                    #expect(took < 5, "stopped in \(String(format: "%.2f", took)) s")
                    #expect(child.process.terminationStatus == 0, "a clean stop exits 0: \(child.log)")
                }
            }
        }
        // The lock went with the process (however it ended): a restore needs no --force, and a new bot starts.
        child = try Child(db: db, api: fake.baseURL)
        defer {
            if child.process.isRunning {
                kill(child.process.processIdentifier, SIGTERM)
                _ = child.exited(within: 10)
            }
        }
        #expect(
            fake.wait(timeout: 60) {
                fake.allUpdatesConfirmed && Self.learners.allSatisfy { progressScreens(fake, $0) >= Self.rounds }
            }, "every update was answered: nothing lost")
        let counts = Self.learners.map { progressScreens(fake, $0) }
        if signal == SIGTERM {
            // A clean stop wrote every sent mark: nothing is sent twice.
            #expect(counts.allSatisfy { $0 == Self.rounds }, "\(counts)")
        } else {
            // kill -9 can re-send what was sent in the last moments before its marks were written.
            let doubled = counts.reduce(0) { $0 + $1 - Self.rounds }
            #expect(doubled <= Self.learners.count, "\(doubled) re-sent: \(counts)")
        }
        #expect(fake.callbacksAnsweredTwice.isEmpty)
        #expect(fake.rejections.isEmpty, "\(fake.rejections)")
        kill(child.process.processIdentifier, SIGTERM)
        #expect(child.exited(within: 10))
    }
}
