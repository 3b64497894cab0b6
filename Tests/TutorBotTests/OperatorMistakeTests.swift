import Foundation
import Testing
import TutorCore

@testable import TutorBot

/// What an operator or a driving-school admin gets wrong, and what the bot then says.
@Suite struct OperatorMistakeTests {
    let ops = OperationsTests()

    func copyOfBanks() throws -> URL {
        let dir = try ops.temporaryDirectory()
        try FileManager.default.copyItem(atPath: "\(repoRoot)/Banks", toPath: dir.appendingPathComponent("Banks").path)
        return dir
    }

    /// Before: `http://` to anywhere was accepted, and every request's URL carries the token.
    @Test func theTokenNeverTravelsInClearTextBeyondThisMachine() throws {
        #expect(Config.apiBaseProblem("https://api.telegram.org") == nil)
        #expect(Config.apiBaseProblem("http://127.0.0.1:8081") == nil)
        #expect(Config.apiBaseProblem("http://localhost:8081") == nil)
        #expect(Config.apiBaseProblem("http://[::1]:8081") == nil)
        #expect(Config.apiBaseProblem("http://api.telegram.org")?.contains("https://") == true)
        #expect(Config.apiBaseProblem("http://10.0.0.5:8081") != nil)
        #expect(Config.apiBaseProblem("ftp://127.0.0.1") != nil)
        #expect(Config.apiBaseProblem("not a url") != nil)

        let dir = try ops.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: OperationsTests.binary)
        p.arguments = ["run", "--db", dir.appendingPathComponent("bot.sqlite").path, "--banks", "\(repoRoot)/Banks"]
        p.environment = [
            "TELEGRAM_BOT_TOKEN": "4242424:test-token-for-the-fake-bot-api-only",
            "TELEGRAM_API_BASE": "http://example.org",
        ]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus != 0)
        #expect(text.contains("TELEGRAM_API_BASE must start with https://"), "\(text)")
        #expect(!text.contains("test-token"))
    }

    /// Before: one trailing comma in states/TX.json printed 65 problems, 64 of them lesson cards
    /// pointing at "missing" questions, and `banks reload` exited 0 though nothing was reloaded.
    @Test func aBrokenStateFileIsNamedFirstAndReloadRefusesIt() throws {
        let dir = try copyOfBanks()
        defer { try? FileManager.default.removeItem(at: dir) }
        let banks = dir.appendingPathComponent("Banks").path
        let tx = "\(banks)/states/TX.json"
        let text = try String(contentsOfFile: tx, encoding: .utf8)
        try text.replacingOccurrences(of: "\"stateCode\": \"TX\",", with: "\"stateCode\": \"TX\",,").write(
            toFile: tx, atomically: true, encoding: .utf8)

        let validate = try ops.cli(["banks", "validate", "--dir", banks])
        #expect(validate.status != 0)
        // stderr's closing line may come before stdout's (two pipes into one): the report alone.
        let lines = validate.output.split(separator: "\n").filter { !$0.hasPrefix("permitready:") }
        #expect(lines.first?.hasPrefix("states/TX.json: -: file: not valid JSON") == true, "\(lines.prefix(3))")
        #expect(lines.count <= 3, "the cause and one line for what follows from it: \(lines)")
        #expect(validate.output.contains("that follow from it"))

        let reload = try ops.cli([
            "banks", "reload", "--banks", banks, "--db", dir.appendingPathComponent("bot.sqlite").path,
        ])
        #expect(reload.status != 0)
        #expect(reload.output.contains("the bot will not start with these files"), "\(reload.output)")
        #expect(reload.output.contains("states/TX.json"))
    }

    @Test func problemsThatFollowFromAnUnreadableFileAreCountedNotListed() {
        let problems = [
            BankProblem(file: "lessons/states/TX.json", id: "l-tx-1", field: "teaches", message: "no question tx-001"),
            BankProblem(file: "states/TX.json", id: "-", field: "file", message: "not valid JSON"),
            BankProblem(file: "lessons/states/TX.json", id: "l-tx-2", field: "teaches", message: "no question tx-002"),
            BankProblem(file: "lessons/states/NY.json", id: "l-ny-1", field: "teaches", message: "no question ny-001"),
        ]
        let lines = BankProblemReport.lines(problems)
        #expect(lines.count == 3)
        #expect(lines[0] == "states/TX.json: -: file: not valid JSON")
        #expect(lines[1].contains("2 problems that follow from it"))
        #expect(lines[2].contains("ny-001"))
    }
}
