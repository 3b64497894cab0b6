import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TutorBot
import TutorCore
import TutorStore

@main
struct PermitReady: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permitready",
        abstract: "A Telegram tutor that gets teens ready for their learner's-permit test.",
        version: PermitReadyVersion.string,
        subcommands: [
            Run.self, Chat.self, Migrate.self, BanksCommand.self, Stats.self, BroadcastCommand.self, Ask.self,
            Backup.self, Restore.self, Health.self, Prune.self,
        ],
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
        Config.resolve(token: token, db: db, banks: banks, prompts: prompts, defaultDB: defaultDB)
    }
}

/// Runs the bot until it ends or SIGTERM / SIGINT arrives (systemctl stop, Ctrl-C), under
/// swift-service-lifecycle's `ServiceGroup`: a signal starts its graceful shutdown, which cancels
/// the bot's run: polling stops (the long poll in flight is abandoned), the batch being written
/// finishes or rolls back, the sender finishes what is in flight and writes its sent marks, and
/// the database closes — within 5 s; past 10 s the group cancels whatever is left.
func runUntilSignalled(_ bot: Bot, lock: DatabaseLock) async throws {
    let logger = Logger(label: "permitready")
    var configuration = ServiceGroupConfiguration(
        // The bot's run ending on its own (the console's input ended, /quit) ends the group too.
        services: [.init(service: BotService(bot: bot), successTerminationBehavior: .gracefullyShutdownGroup)],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(10)
    do { try await ServiceGroup(configuration: configuration).run() } catch { throw fail("\(error)") }
    withExtendedLifetime(lock) {}
}

/// The bot as a service: its run is cancelled when the group's graceful shutdown begins.
struct BotService: Service {
    let bot: Bot
    func run() async throws {
        try await cancelWhenGracefulShutdown { try await bot.run() }
    }
}

/// Exits with a one-line message on stderr (never the token).
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("permitready: \(message)\n".utf8))
    return ExitCode(1)
}

extension PermitReady {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the bot against Telegram (long polling).",
            discussion:
                """
                Needs TELEGRAM_BOT_TOKEN in the environment (never on the command line). TELEGRAM_API_BASE \
                points it at another Bot API server.
                """
        )
        @OptionGroup var paths: Paths

        func run() async throws {
            guard let token = ProcessInfo.processInfo.environment["TELEGRAM_BOT_TOKEN"], !token.isEmpty else {
                throw fail("TELEGRAM_BOT_TOKEN is not set: put the token from @BotFather in the environment")
            }
            guard Config.isWellFormedToken(token) else {
                throw fail(
                    "TELEGRAM_BOT_TOKEN is malformed: expected digits, a colon, then 30+ letters, digits, _ or -")
            }
            LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
            let config = paths.config(token: token, defaultDB: "permitready.sqlite")
            if let problem = Config.apiBaseProblem(config.apiBase) { throw fail(problem) }
            let bot: Bot
            let lock: DatabaseLock
            do {
                // Held for the bot's whole life: a second bot, or a restore, on this file is refused.
                lock = try DatabaseLock(database: config.databasePath)
                bot = try Bot.build(config)
            } catch { throw fail("\(error)") }
            try await runUntilSignalled(bot, lock: lock)
        }
    }

    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Talk to the bot in this terminal: the same dialogue, no token needed.",
            discussion:
                """
                Type what you would type in Telegram; type a button's number to press it; /quit to leave. \
                Progress is kept in the database file.
                """
        )
        @OptionGroup var paths: Paths
        @Option(
            help:
                """
                Your Telegram user and chat id in the console (default 1). Two consoles with different ids on \
                one database are two learners; PERMITREADY_ADMINS=<id> makes one an admin.
                """
        )
        var user: Int64 = ConsoleTransport.defaultUserID
        @Option(help: "Your first name in the console (default: your login name).") var name: String?

        func run() async throws {
            LoggingSystem.bootstrap { label in
                var h = StreamLogHandler.standardError(label: label)
                h.logLevel = .info
                return h
            }
            let bot: Bot
            var config = paths.config(token: "console", defaultDB: "chat.sqlite")
            config.deliverBeforeNextPoll = true
            // A terminal has no flood limits: show replies at once.
            config.messagesPerSecond = 1_000
            config.perChatPerSecond = 1_000
            config.onlyChat = user
            let lock: DatabaseLock
            do {
                // Shared: consoles may share a database (two learners), but not with a running bot.
                lock = try DatabaseLock(database: config.databasePath, shared: true)
                bot = try Bot.build(config, transport: ConsoleTransport(userID: user, name: name))
            } catch { throw fail("\(error)") }
            // The bot's log goes to a file beside the database, not between the chat's lines (an
            // admin's refused /reload printed "error permitready: …" into the conversation).
            let logPath = config.databasePath + ".log"
            let logFile = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if logFile < 0 || dup2(logFile, STDERR_FILENO) < 0 {
                print("(could not open \(logPath): the bot's log stays on stderr)")
            }
            print(
                "PermitReady console chat — type a button's number to press it, or /quit. The bot's log: \(logPath)\n")
            do { try await runUntilSignalled(bot, lock: lock) } catch {
                print("permitready: the chat stopped on an error (its line is in \(logPath))")
                throw error
            }
        }
    }

    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or migrate the database, then print the applied migrations.",
            discussion:
                """
                Takes the database's lock (stop the bot first). --check only lists them, read-only, while the \
                bot runs.
                """
        )
        @OptionGroup var paths: Paths
        @Flag(help: "Only list the applied migrations and those this binary would apply (read-only; no lock needed).")
        var check = false

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            if check {
                do {
                    let applied = try TutorStore(path: path, access: .readOnly).appliedMigrations()
                    let pending = TutorStore.knownMigrations.filter { !applied.contains($0) }
                    print("\(path): migrations applied: \(applied.joined(separator: ", "))")
                    print(
                        pending.isEmpty
                            ? "nothing for this binary to apply"
                            : "this binary would apply: \(pending.joined(separator: ", "))")
                } catch { throw fail("\(error)") }
                return
            }
            do {
                let lock = try DatabaseLock(database: path)
                let store = try TutorStore(path: path)
                withExtendedLifetime(lock) {}
                print("\(path): migrations applied: \(try store.appliedMigrations().joined(separator: ", "))")
            } catch { throw fail("\(error)") }
        }
    }
}
