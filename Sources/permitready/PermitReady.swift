import ArgumentParser
import Foundation
import Logging
import TutorBot
import TutorCore
import TutorStore

@main
struct PermitReady: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permitready",
        abstract: "A Telegram tutor that gets teens ready for their learner's-permit test.",
        subcommands: [Run.self, Chat.self, Migrate.self, BanksCommand.self, Bench.self],
        defaultSubcommand: nil
    )
}

/// Options every subcommand that opens the bot shares; each flag falls back to an environment variable.
struct Paths: ParsableArguments {
    @Option(name: .long, help: "SQLite database file (env PERMITREADY_DB).")
    var db: String?
    @Option(name: .long, help: "Question banks folder (env PERMITREADY_BANKS).")
    var banks: String?
    @Option(name: .long, help: "Prompts folder for the locale (env PERMITREADY_PROMPTS).")
    var prompts: String?

    func config(token: String, defaultDB: String) -> Config {
        let env = ProcessInfo.processInfo.environment
        var c = Config(token: token)
        c.databasePath = db ?? env["PERMITREADY_DB"] ?? defaultDB
        c.banksDirectory = banks ?? env["PERMITREADY_BANKS"] ?? "Banks"
        c.promptsDirectory = prompts ?? env["PERMITREADY_PROMPTS"] ?? "Prompts/en"
        c.apiBase = env["TELEGRAM_API_BASE"] ?? c.apiBase
        c.admins = Config.parseAdmins(env["PERMITREADY_ADMINS"])
        if let r = env["PERMITREADY_RATE"].flatMap(Double.init) { c.messagesPerSecond = r }
        if let p = env["PERMITREADY_POLL_TIMEOUT"].flatMap(Int.init) { c.pollTimeout = p }
        c.fakeNow = env["PERMITREADY_FAKE_NOW"].flatMap(Config.parseInstant)
        return c
    }
}

/// Exits with a one-line message on stderr (never the token).
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("permitready: \(message)\n".utf8))
    return ExitCode(1)
}

extension PermitReady {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the bot against Telegram (long polling).",
            discussion: "Needs TELEGRAM_BOT_TOKEN in the environment (never on the command line). TELEGRAM_API_BASE points it at another Bot API server.")
        @OptionGroup var paths: Paths

        func run() async throws {
            guard let token = ProcessInfo.processInfo.environment["TELEGRAM_BOT_TOKEN"], !token.isEmpty else {
                throw fail("TELEGRAM_BOT_TOKEN is not set: put the token from @BotFather in the environment")
            }
            guard Config.isWellFormedToken(token) else {
                throw fail("TELEGRAM_BOT_TOKEN is malformed: expected digits, a colon, then 30+ letters, digits, _ or -")
            }
            LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
            let bot: Bot
            do { bot = try Bot.build(paths.config(token: token, defaultDB: "permitready.sqlite")) }
            catch { throw fail("\(error)") }
            do { try await bot.run() } catch { throw fail("\(error)") }
        }
    }

    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Talk to the bot in this terminal: the same dialogue, no token needed.",
            discussion: "Type what you would type in Telegram; type a button's number to press it; /quit to leave. Progress is kept in the database file.")
        @OptionGroup var paths: Paths

        func run() async throws {
            LoggingSystem.bootstrap { label in
                var h = StreamLogHandler.standardError(label: label)
                h.logLevel = .error
                return h
            }
            let bot: Bot
            var config = paths.config(token: "console", defaultDB: "chat.sqlite")
            config.deliverBeforeNextPoll = true
            do { bot = try Bot.build(config, transport: ConsoleTransport()) }
            catch { throw fail("\(error)") }
            print("PermitReady console chat — type a button's number to press it, or /quit.\n")
            do { try await bot.run() } catch { throw fail("\(error)") }
        }
    }

    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create or migrate the database, then print the applied migrations.")
        @OptionGroup var paths: Paths

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            do {
                let store = try TutorStore(path: path)
                print("\(path): migrations applied: \(try store.appliedMigrations().joined(separator: ", "))")
            } catch { throw fail("\(error)") }
        }
    }

    struct BanksCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "banks", abstract: "Work with the question banks.",
                                                        subcommands: [Validate.self])

        struct Validate: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Check every bank file; list every problem (file: id: field: message).")
            @Option(name: .long, help: "Banks folder.") var dir: String = "Banks"

            func run() throws {
                let started = Date()
                let result: (banks: Banks?, problems: [BankProblem])
                do { result = try BankFiles.load(dir) } catch { throw fail("\(error)") }
                let ms = Int(Date().timeIntervalSince(started) * 1000)
                guard let banks = result.banks else {
                    for p in result.problems { print(p) }
                    throw fail("\(result.problems.count) problem(s) in \(dir)")
                }
                let stateCount = banks.stateQuestions.values.reduce(0) { $0 + $1.count }
                print("\(dir): OK — \(banks.states.count) states, \(banks.universal.count) universal + \(stateCount) state questions in \(banks.stateQuestions.count) state files, \(banks.signs.count) signs (\(ms) ms)")
            }
        }
    }
}
