import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

public enum BotError: Error, CustomStringConvertible {
    case badToken
    case banks(BankFilesError)

    public var description: String {
        switch self {
        case .badToken:
            return "Telegram rejected TELEGRAM_BOT_TOKEN (401 Unauthorized): check the token with @BotFather"
        case .banks(let e): return e.description
        }
    }
}

/// Counters an operator (and the tests) can read: what was skipped, what went wrong.
public struct BotCounters: Sendable, Equatable {
    public var updatesProcessed = 0
    public var updatesSkipped = 0
    public var updatesGarbled = 0
    public var batchesCommitted = 0
    public var commitFailures = 0
    /// Batches that failed to commit since the last one that did (health watches it).
    public var commitFailuresInRow = 0
    /// Chats whose updates were dropped because they could not be loaded or saved.
    public var chatFailures = 0
    /// Chats loaded with mended rows (a value outside its CHECK, a session that did not decode).
    public var chatsRepaired = 0
}

/// The runtime: long-polls Telegram, runs each update through the reducer, commits state and
/// outbox in one transaction per batch, and lets the sender deliver after the commit.
public final class Bot: Sendable {
    public let api: BotAPI
    public let store: TutorStore
    public let renderer: OutboxRenderer
    public let config: Config
    public let clock: BotClock
    public let sender: OutboxSender
    public let metrics = BotMetrics()
    let notifier: SystemdNotify
    let logger: Logger
    /// The banks and the ask index built from them, swapped together on a reload.
    private let banksBox: Mutex<(banks: Banks, ask: AskIndex?)>
    let countersBox = Mutex(BotCounters())
    /// Chats as last committed, so a busy chat is not re-read from SQLite on every batch (reading
    /// and decoding a chat was a quarter of an update's cost). Written only after a commit
    /// succeeds; anything else that changes a chat's rows must call `forget(chatID:)`.
    let chatCache = ChatCache()
    /// Where batches (updates, timers, reminders, broadcasts) are reduced and written, and where
    /// pruning and metrics run: threads outside Swift's cooperative pool (see `OffPool`).
    let batches = OffPool("batches")
    let maintenance = OffPool("maintenance", qos: .utility)
    /// Chats whose saves failed, and how many times in a row (for the log line).
    let chatFailures = Mutex([Int64: Int]())
    /// When each broadcast's progress message was last edited.
    let progressEdits = Mutex([Int64: Date]())
    /// The transport was made here (libcurl's thread, its epoll descriptor): shut down when the bot stops.
    let ownsTransport: Bool
    /// The batch in progress, remembered across a crash (see `BatchAttempts`).
    let batchAttempts: BatchAttempts
    #if DEBUG
        /// Test builds only: typed text that traps in the reduction, as a bug in the core would
        /// (`PERMITREADY_TEST_TRAP`; the crash-loop tests restart the bot as systemd would).
        let testTrapText = ProcessInfo.processInfo.environment["PERMITREADY_TEST_TRAP"]
    #endif

    public var banks: Banks { banksBox.withLock { $0.banks } }
    /// Where typed questions are looked up (nil: it could not be built, see the log).
    public var askIndex: AskIndex? { banksBox.withLock { $0.ask } }
    /// Both at once, so a batch never looks up in one version of the banks and answers from another.
    var banksAndIndex: (banks: Banks, ask: AskIndex?) { banksBox.withLock { $0 } }
    public var counters: BotCounters { countersBox.withLock { $0 } }

    /// Wires the real parts together: the same entry point the CLI and the tests use.
    /// `transport` defaults to libcurl against `config.apiBase`.
    public static func build(_ config: Config, transport: (any BotAPITransport)? = nil, logger: Logger? = nil) throws
        -> Bot
    {
        let logger = logger ?? Logger(label: "permitready")
        let (banks, problems) = try BankFiles.load(config.banksDirectory)
        guard let banks else { throw BotError.banks(.invalid(problems)) }
        let prompts = try Prompts.load(directory: config.promptsDirectory)
        returnFreedMemory()
        let store = try TutorStore(path: config.databasePath, synchronous: config.sqliteSynchronous)
        let api = BotAPI(
            transport: transport ?? CurlTransport(baseURL: config.apiBase, token: config.token),
            pollTimeout: config.pollTimeout)
        return Bot(
            config: config, api: api, store: store, banks: banks, prompts: prompts, logger: logger,
            ownsTransport: transport == nil)
    }

    init(
        config: Config, api: BotAPI, store: TutorStore, banks: Banks, prompts: Prompts, logger: Logger,
        ownsTransport: Bool = false
    ) {
        self.ownsTransport = ownsTransport
        self.config = config
        self.api = api
        self.store = store
        self.banksBox = Mutex((banks, Bot.askIndex(for: banks, logger: logger)))
        self.renderer = OutboxRenderer(prompts: prompts, admins: config.admins)
        self.clock = BotClock(fakeNow: config.fakeNow)
        self.notifier = SystemdNotify(socketPath: config.notifySocket)
        self.logger = logger
        self.batchAttempts = BatchAttempts(databasePath: config.databasePath, onlyChat: config.onlyChat)
        self.sender = OutboxSender(
            api: api, store: store, clock: clock, banksDirectory: config.banksDirectory,
            messagesPerSecond: config.messagesPerSecond, perChatPerSecond: config.perChatPerSecond,
            metrics: metrics, logger: logger)
    }

    /// Hands the heap's free pages back to the system. Reading the banks' JSON leaves megabytes of
    /// freed temporaries between the pages that stay in use, which malloc keeps resident otherwise.
    static func returnFreedMemory() {
        #if os(Linux)
            _ = glibcMallocTrim(0)
        #endif
    }

    /// Drops a chat from the cache after its rows changed outside `process` (blocked by the sender, erased).
    public func forget(chatID: Int64) { chatCache.forget(chatID) }

    /// Swaps in new banks atomically (a reload); readers see the old or the new, never a mix.
    public func replaceBanks(_ banks: Banks) {
        let ask = Bot.askIndex(for: banks, logger: logger)  // built before the lock: readers never wait for it
        banksBox.withLock { $0 = (banks, ask) }
    }

    /// The full-text index of the banks; without it typed questions get the old "use Learn" line.
    static func askIndex(for banks: Banks, logger: Logger) -> AskIndex? {
        do { return try AskIndex(banks: banks) } catch {
            logger.error("typed questions will not be answered: the ask index could not be built: \(error)")
            return nil
        }
    }

    /// The line a learner gets when their update was dropped on our side (and their screen is
    /// whatever it was: they try again from there).
    func apology(_ chatID: Int64) -> [OutboxItem] {
        renderer.items(for: [.send(Reply(.notice(.ourFault)))], chatID: chatID).outbox
    }

    /// A chat was loaded with mended rows: logged with what was mended, and counted.
    func noteRepaired(_ chatID: Int64, _ repairs: [String]) {
        metrics.chatsRepaired.increment()
        countersBox.withLock { $0.chatsRepaired += 1 }
        logger.warning(
            "chat \(chatID) loaded with mended rows: \(repairs.joined(separator: "; "))",
            metadata: ["chat_id": "\(chatID)"])
    }

    /// The bot's username for the links it hands out (`getMe` at start replaces the default).
    let botUsername = Mutex("PermitReadyBot")

    /// Chats Telegram answered 403 for, waiting to be marked blocked through the reducer.
    let blockedByTelegram = Mutex([Int64]())

    let metricsFolderWarned = Mutex(false)

    /// The last health check's finding (nil: healthy), read by the poll loop for the watchdog.
    let healthState = Mutex<String?>(nil)

    /// Batches (updates, timers, nudges) read and write chats: one at a time, so none works from
    /// a copy another is about to replace.
    private let batchLock = Mutex(())
    func serially<T>(_ body: () throws -> T) throws -> T {
        try batchLock.withLock { _ in try body() }
    }

    /// Runs until the task is cancelled or the transport closes (the console chat's end of input).
    public func run() async throws {
        do {
            let me = try await api.getMe()
            logger.info("connected", metadata: ["bot": "\(me.username ?? me.firstName)"])
            if let username = me.username, !username.isEmpty { botUsername.withLock { $0 = username } }
            try await api.deleteWebhook()
        } catch BotAPIError.unauthorized {
            throw BotError.badToken
        } catch {
            logger.warning("start-up call failed, polling anyway: \(error)")
        }
        do {
            try await api.setMyCommands(
                Command.menu.map {
                    BotCommand(command: $0.rawValue, description: renderer.prompts.commandDescription($0))
                })
        } catch {
            logger.warning("setMyCommands failed: \(error)")
        }
        await sender.onBlocked { [weak self] chatID in self?.telegramSaysBlocked(chatID) }
        await sender.deliverOnly(config.onlyChat)
        // Delivering messages yields the cooperative threads to taking in updates (and answering
        // their taps): when both have more work than the machine, a learner's tap is answered
        // first and the messages it causes wait, rather than the other way round.
        let sending = Task(priority: .medium) { await sender.run() }
        let timers = Task { await self.runTimers() }
        // The poll loop at high priority: each batch is handed to the batch thread and awaited, and
        // its continuation must not queue behind hundreds of deliveries on the cooperative threads,
        // or taps are answered late under load.
        let polling = Task(priority: .high) { try await self.poll() }
        do {
            try await withTaskCancellationHandler {
                try await polling.value
            } onCancel: {
                polling.cancel()
            }
        } catch {
            await stop(sending, timers)
            throw error
        }
        await stop(sending, timers)
    }

    private func stop(_ sending: Task<Void, Never>, _ timers: Task<Void, Never>) async {
        timers.cancel()
        await timers.value
        await sender.stop()
        sending.cancel()
        await sending.value
        if ownsTransport { api.transport.shutdown() }
    }

}

#if os(Linux)
    /// glibc's `malloc_trim` (malloc.h is not in Swift's Glibc module).
    @_silgen_name("malloc_trim") private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
