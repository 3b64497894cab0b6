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
        case .badToken: return "Telegram rejected TELEGRAM_BOT_TOKEN (401 Unauthorized): check the token with @BotFather"
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
    private let banksBox: Mutex<Banks>
    private let countersBox = Mutex(BotCounters())
    /// Chats as last committed, so a busy chat is not re-read from SQLite on every batch (reading
    /// and decoding a chat was a quarter of an update's cost). Written only after a commit
    /// succeeds; anything else that changes a chat's rows must call `forget(chatID:)`.
    let chatCache = ChatCache()
    /// Where batches (updates, timers, reminders, broadcasts) are reduced and written, and where
    /// pruning and metrics run: threads outside Swift's cooperative pool (see `OffPool`).
    let batches = OffPool("batches")
    let maintenance = OffPool("maintenance", qos: .utility)
    /// Chats whose saves failed, and how many times in a row (for the log line).
    private let chatFailures = Mutex([Int64: Int]())
    /// When each broadcast's progress message was last edited.
    private let progressEdits = Mutex([Int64: Date]())

    public var banks: Banks { banksBox.withLock { $0 } }
    public var counters: BotCounters { countersBox.withLock { $0 } }

    /// Wires the real parts together: the same entry point the CLI and the tests use.
    /// `transport` defaults to libcurl against `config.apiBase`.
    public static func build(_ config: Config, transport: (any BotAPITransport)? = nil, logger: Logger? = nil) throws -> Bot {
        let logger = logger ?? Logger(label: "permitready")
        let (banks, problems) = try BankFiles.load(config.banksDirectory)
        guard let banks else { throw BotError.banks(.invalid(problems)) }
        let prompts = try Prompts.load(directory: config.promptsDirectory)
        let store = try TutorStore(path: config.databasePath, synchronous: config.sqliteSynchronous)
        let transport = transport ?? CurlTransport(baseURL: config.apiBase, token: config.token)
        let api = BotAPI(transport: transport, pollTimeout: config.pollTimeout)
        return Bot(config: config, api: api, store: store, banks: banks, prompts: prompts, logger: logger)
    }

    init(config: Config, api: BotAPI, store: TutorStore, banks: Banks, prompts: Prompts, logger: Logger) {
        self.config = config
        self.api = api
        self.store = store
        self.banksBox = Mutex(banks)
        self.renderer = OutboxRenderer(prompts: prompts)
        self.clock = BotClock(fakeNow: config.fakeNow)
        self.notifier = SystemdNotify(socketPath: config.notifySocket)
        self.logger = logger
        self.sender = OutboxSender(api: api, store: store, clock: clock, banksDirectory: config.banksDirectory,
                                   messagesPerSecond: config.messagesPerSecond, perChatPerSecond: config.perChatPerSecond,
                                   metrics: metrics, logger: logger)
    }

    /// Drops a chat from the cache after its rows changed outside `process` (blocked by the sender, erased).
    public func forget(chatID: Int64) { chatCache.forget(chatID) }

    /// Swaps in new banks atomically (a reload); readers see the old or the new, never a mix.
    public func replaceBanks(_ banks: Banks) { banksBox.withLock { $0 = banks } }

    /// The line a learner gets when their update was dropped on our side (and their screen is
    /// whatever it was: they try again from there).
    func apology(_ chatID: Int64) -> [OutboxItem] {
        renderer.items(for: [.send(Reply(.notice(.ourFault)))], chatID: chatID).outbox
    }

    /// A chat was loaded with mended rows: logged with what was mended, and counted.
    func noteRepaired(_ chatID: Int64, _ repairs: [String]) {
        metrics.chatsRepaired.increment()
        countersBox.withLock { $0.chatsRepaired += 1 }
        logger.warning("chat \(chatID) loaded with mended rows: \(repairs.joined(separator: "; "))", metadata: ["chat_id": "\(chatID)"])
    }

    // MARK: - one batch

    /// Parses, reduces and commits a getUpdates batch in ONE transaction with the next offset.
    /// Returns the new offset (nil if the batch had no update ids at all). Throws only when the
    /// commit itself fails, in which case nothing was written and the batch will come again.
    @discardableResult
    public func process(_ received: [ReceivedUpdate]) throws -> Int64? {
        try serially { try processBatch(received) }
    }

    private func processBatch(_ received: [ReceivedUpdate]) throws -> Int64? {
        var batch = Batch(bot: self)
        for r in received {
            guard let update = r.update else {
                batch.counts.updatesGarbled += 1
                logger.warning("skipped an update that did not decode", metadata: ["update_id": "\(r.updateID.map(String.init) ?? "none")"])
                continue
            }
            guard let parsed = UpdateParser.parse(update) else {
                batch.counts.updatesSkipped += 1
                logger.debug("skipped an update we have no use for", metadata: ["update_id": "\(update.updateID)"])
                continue
            }
            if let replies = adminWork(update, parsed) {
                batch.extraOutbox += replies
                batch.counts.updatesProcessed += 1
                continue
            }
            batch.apply(parsed.event, chatID: parsed.chatID, sender: parsed.sender, isGroup: parsed.isGroup,
                        seed: Self.seed(updateID: update.updateID, chatID: parsed.chatID), updateID: update.updateID)
        }
        let offset = received.compactMap(\.updateID).max().map { $0 + 1 }
        try commit(batch, offset: offset)
        return offset
    }

    /// The reducer's random seed for an update: from the update and the chat, so two learners whose
    /// updates share ids (two consoles, each counting from 1) are still dealt different questions.
    static func seed(updateID: Int64, chatID: Int64) -> UInt64 {
        (UInt64(bitPattern: updateID) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: chatID) &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// An admin command or admin button from an admin: handled at the edge (see `AdminDesk`).
    /// Anyone else's falls through to the dialogue, which treats it as unclear input.
    func adminWork(_ update: Update, _ parsed: ParsedUpdate) -> [OutboxItem]? {
        guard !parsed.isGroup, config.admins.contains(parsed.sender.userID) else { return nil }
        let desk = AdminDesk(bot: self)
        switch parsed.event {
        case .unknownCommandSent(let name) where AdminDesk.commands.contains(name):
            let text = update.message?.text ?? ""
            let payload = text.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
            logger.info("admin command", metadata: ["command": "\(name)", "user_id": "\(parsed.sender.userID)"])
            return desk.handle(command: name, payload: payload, chatID: parsed.chatID)
        case .buttonTapped(let callbackID, nil, _):
            guard let data = update.callbackQuery?.data, data.hasPrefix(AdminDesk.callbackPrefix) else { return nil }
            return desk.handleButton(data: data, callbackID: callbackID, chatID: parsed.chatID)
        default:
            return nil
        }
    }

    /// Moves every broadcast that is sending along: queues the next recipients while the bulk
    /// queue is short (replies to learners always go first), edits the admin's progress message
    /// every few seconds, and reports when it is done.
    public func pumpBroadcasts() throws {
        let now = clock.now()
        let desk = AdminDesk(bot: self)
        for b in try store.sendingBroadcasts() {
            if try store.pendingBulkCount() < Self.bulkQueueTarget {
                let renderer = self.renderer
                _ = try store.enqueueBroadcast(b.id, limit: Self.bulkQueueTarget, now: now) { b, chat in
                    let quiz = InlineKeyboardButton(text: renderer.prompts.label(.quickQuiz), callbackData: ButtonAction.menu(.quickQuiz).callbackData)
                    let request = SendMessageRequest(chatID: chat, text: desk.learnerText(b.text), replyMarkup: InlineKeyboardMarkup([[quiz]]))
                    return (try? OutboxRenderer.encoder.encode(request)) ?? Data()
                }
            }
            let done = try store.finishBroadcastIfComplete(b.id, now: now)
            let due = progressEdits.withLock { last -> Bool in
                // The first edit waits a full interval: the progress message itself was just sent.
                guard let previous = last[b.id] else { last[b.id] = now; return done }
                if done || now.timeIntervalSince(previous) >= Self.progressEvery { last[b.id] = now; return true }
                return false
            }
            guard due else { continue }
            let progress = try store.broadcastProgress(b.id)
            if done { logger.info("broadcast \(b.id) done: \(progress.sent) sent, \(progress.blocked) blocked, \(progress.failed) failed") }
            if let admin = b.adminChatID {
                var edit = renderer.item(admin, "editMessageText", EditMessageTextRequest(chatID: admin, messageID: 0, text: desk.progressText(b, progress, done: done)))
                edit.editTag = "bc\(b.id)"
                try store.commit([], offset: nil, extraOutbox: [edit])
            }
        }
    }

    static let bulkQueueTarget = 500
    /// `permitready banks reload` asks the running bot through these bot_state keys.
    public static let reloadFlag = "reload_requested"
    public static let reloadResultFlag = "reload_result"
    static let progressEvery: TimeInterval = 3

    /// Sends the reminders that are due: each due learner gets a `.nudgeDue` event, and the
    /// reducer decides (quiet hours, studied today, paused). Returns how many learners were looked at.
    @discardableResult
    public func sendDueNudges() throws -> Int {
        try serially {
            let due = try store.dueNudges(now: clock.now())
            guard !due.isEmpty else { return 0 }
            var batch = Batch(bot: self)
            for chatID in due {
                batch.apply(.nudgeDue, chatID: chatID, sender: nil, isGroup: false,
                            seed: ExamBuilder.stableHash("nudge/\(chatID)"), updateID: nil)
            }
            let committed = try commit(batch, offset: nil)
            metrics.remindersDue.increment(by: due.count)
            metrics.remindersSent.increment(by: committed.filter { !$0.outbox.isEmpty }.count)
            return due.count
        }
    }

    /// Batches (updates, timers, nudges) read and write chats: one at a time, so none works from
    /// a copy another is about to replace.
    private let batchLock = Mutex(())
    func serially<T>(_ body: () throws -> T) throws -> T {
        try batchLock.withLock { _ in try body() }
    }

    /// Fires the timers that are due (timed-challenge questions running out), as one batch.
    /// Returns how many fired.
    @discardableResult
    public func fireDueTimers() throws -> Int {
        try serially { try fireTimers() }
    }

    private func fireTimers() throws -> Int {
        let due = try store.dueTimers(now: clock.now())
        guard !due.isEmpty else { return 0 }
        var batch = Batch(bot: self)
        for t in due {
            batch.apply(.timerFired(key: t.key), chatID: t.chatID, sender: nil, isGroup: false,
                        seed: ExamBuilder.stableHash("\(t.chatID)/\(t.key)"), updateID: nil, firedTimer: t.key)
        }
        try commit(batch, offset: nil)
        return due.count
    }

    /// Reduces what the batch queued and commits it in one transaction; returns the changes
    /// committed. With a file database the write transaction opens at once and saves each chat
    /// as soon as its reduction is done, while the other cores reduce the next chats: the serial
    /// write overlaps the parallel work instead of following it.
    @discardableResult
    private func commit(_ queuedBatch: Batch, offset: Int64?) throws -> [ChatChange] {
        var batch = queuedBatch
        // Button-tap answers are not stored: they are sent from memory the moment the batch is
        // committed (below). A crash in between costs a spinner that Telegram clears itself; a
        // stored answer re-sent after a restart would be past Telegram's 15 s anyway.
        var taps: [OutboxItem] = []
        var committed: [ChatChange] = []
        var failed: [(chatID: Int64, updateIDs: [Int64], reason: String)] = []
        let extra = batch.extraOutbox.filter { $0.priority != OutboxItem.tapPriority }
        let reductions = batch.startReducing(alongsideWrite: store.readsAlongsideWrite)
        // No reduction outlives its batch, even when the write fails half-way.
        defer { reductions.waitUntilFinished() }
        let started = ContinuousClock.now
        let now = batch.now
        do {
            try store.commit(offset: offset, extraOutbox: extra) { write in
                for i in reductions.chats.indices {
                    let outcome = reductions.take(i)
                    batch.counts.updatesProcessed += outcome.processed
                    batch.counts.updatesSkipped += outcome.skipped
                    let chatID = reductions.chats[i][0].chatID
                    // A chat that could not be loaded or saved costs that chat its updates in this
                    // batch, never anyone else's: its rows roll back alone, it hears that something
                    // went wrong on our side (if a person was waiting), and the batch commits.
                    var failure = outcome.failure
                    if failure == nil, var change = outcome.change {
                        let chatTaps = change.outbox.filter { $0.priority == OutboxItem.tapPriority }
                        change.outbox.removeAll { $0.priority == OutboxItem.tapPriority }
                        if let refused = try write.save(change) {
                            failure = refused.reason
                        } else {
                            committed.append(change)
                        }
                        taps += chatTaps
                    }
                    guard let failure else { continue }
                    failed.append((chatID, outcome.updateIDs, failure))
                    if !outcome.updateIDs.isEmpty { try write.queue(apology(chatID), now: now) }
                }
            }
            let took = ContinuousClock.now - started
            metrics.commitTime.recordNanoseconds(took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
            countersBox.withLock { $0.commitFailuresInRow = 0 }
        } catch {
            countersBox.withLock { $0.commitFailures += 1; $0.commitFailuresInRow += 1 }
            throw error
        }
        for f in failed {
            chatCache.forget(f.chatID)
            let inRow = chatFailures.withLock { $0[f.chatID, default: 0] += 1; return $0[f.chatID]! }
            logger.error("chat \(f.chatID): its update(s) were dropped (\(inRow) in a row): \(f.reason)",
                         metadata: ["chat_id": "\(f.chatID)", "update_ids": "\(f.updateIDs.map(String.init).joined(separator: ","))"])
        }
        if !failed.isEmpty {
            metrics.chatFailures.increment(by: failed.count)
            countersBox.withLock { $0.chatFailures += failed.count }
        }
        if !committed.isEmpty, !chatFailures.withLock({ $0.isEmpty }) {
            chatFailures.withLock { m in for c in committed { m.removeValue(forKey: c.after.learner.chatID) } }
        }
        taps += batch.extraOutbox.filter { $0.priority == OutboxItem.tapPriority }
        if !taps.isEmpty { sender.answerTaps(taps) }
        chatCache.put(committed.filter { !$0.erase }.map(\.after))
        for change in committed where change.erase { chatCache.forget(change.after.learner.chatID) }
        countersBox.withLock {
            $0.updatesProcessed += batch.counts.updatesProcessed
            $0.updatesSkipped += batch.counts.updatesSkipped
            $0.updatesGarbled += batch.counts.updatesGarbled
            $0.batchesCommitted += 1
        }
        metrics.updatesProcessed.increment(by: batch.counts.updatesProcessed)
        if batch.counts.updatesSkipped > 0 { metrics.updatesSkipped.increment(by: batch.counts.updatesSkipped) }
        if batch.counts.updatesGarbled > 0 { metrics.updatesGarbled.increment(by: batch.counts.updatesGarbled) }
        return committed
    }

    /// One batch being reduced: each chat read once, its events applied in order. Events are
    /// queued by `apply` and reduced together by `startReducing` (which `commit` calls): different
    /// chats are independent, so they are reduced side by side on the machine's cores.
    struct Batch {
        let bot: Bot
        let banks: Banks
        let now: Date
        var counts = BotCounters()
        /// Admin replies: they change no learner's state.
        var extraOutbox: [OutboxItem] = []
        var queued: [Queued] = []

        struct Queued: Sendable {
            var event: Event
            var chatID: Int64
            var sender: Sender?
            var isGroup: Bool
            var seed: UInt64
            var updateID: Int64?
            var firedTimer: String?
        }

        /// What one chat's events came to: its change (nil if the chat is gone) and the tallies.
        struct ChatOutcome: Sendable {
            var change: ChatChange?
            var processed = 0
            var skipped = 0
            /// The updates (not timers or reminders) among the chat's events: a person is waiting.
            var updateIDs: [Int64] = []
            /// Why the chat could not be loaded; its events are dropped (see `Bot.commit`).
            var failure: String?
        }

        /// Below this many chats the batch is reduced on the calling thread: handing work to
        /// another core costs more than one chat's reduction.
        static let sideBySideFrom = 4
        /// Read once: asking the system every batch showed in the profile.
        static let cores = ProcessInfo.processInfo.activeProcessorCount

        init(bot: Bot) {
            self.bot = bot
            self.banks = bot.banks
            self.now = bot.clock.now()
        }

        mutating func apply(_ event: Event, chatID: Int64, sender: Sender?, isGroup: Bool, seed: UInt64, updateID: Int64?,
                            firedTimer: String? = nil) {
            queued.append(Queued(event: event, chatID: chatID, sender: sender, isGroup: isGroup, seed: seed, updateID: updateID,
                                 firedTimer: firedTimer))
        }

        /// Starts reducing every queued event: each chat's in the order they came, different chats
        /// side by side. `alongsideWrite`: return at once and let the cores work while the caller
        /// takes the outcomes in order (the store must allow reads during its write transaction);
        /// otherwise return when every chat is reduced.
        func startReducing(alongsideWrite: Bool) -> Reductions {
            var slot: [Int64: Int] = [:]
            var perChat: [[Queued]] = []
            for q in queued {
                if let i = slot[q.chatID] { perChat[i].append(q) } else { slot[q.chatID] = perChat.count; perChat.append([q]) }
            }
            let reducer = ChatReducer(bot: bot, banks: banks, now: now)
            let run = Reductions(chats: perChat)
            guard perChat.count >= Self.sideBySideFrom else {
                for i in perChat.indices { run.put(i, reducer.reduce(perChat[i])) }
                run.finish()
                return run
            }
            let workers = max(1, min(Self.cores, perChat.count))
            let work: @Sendable () -> Void = {
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    // Each worker takes the next chat not yet taken: the chats finish about in the
                    // order the writer wants them, and no core idles while another has a queue.
                    while let i = run.nextToReduce() { run.put(i, reducer.reduce(run.chats[i])) }
                }
                run.finish()
            }
            if alongsideWrite { DispatchQueue.global(qos: .userInitiated).async(execute: work) } else { work() }
            return run
        }
    }

    /// A batch's chats as they are reduced: outcomes are put by the reducing threads and taken,
    /// in first-arrival order, by the committing one (which waits for each that isn't done yet).
    final class Reductions: @unchecked Sendable {   // `outcomes` and `finished` only under `ready`'s lock
        let chats: [[Batch.Queued]]
        private var outcomes: [Batch.ChatOutcome?]
        private var finished = false
        private let ready = NSCondition()
        private let claimed = Atomic<Int>(0)

        /// The next chat for a reducing thread, nil when every one is taken.
        func nextToReduce() -> Int? {
            let i = claimed.add(1, ordering: .relaxed).oldValue
            return i < chats.count ? i : nil
        }

        init(chats: [[Batch.Queued]]) {
            self.chats = chats
            outcomes = Array(repeating: nil, count: chats.count)
        }

        func put(_ i: Int, _ outcome: Batch.ChatOutcome) {
            ready.lock(); outcomes[i] = outcome; ready.broadcast(); ready.unlock()
        }

        func take(_ i: Int) -> Batch.ChatOutcome {
            ready.lock(); defer { ready.unlock() }
            while outcomes[i] == nil { ready.wait() }
            defer { outcomes[i] = Batch.ChatOutcome() }   // the taker owns it now: free the copy
            return outcomes[i]!
        }

        func finish() {
            ready.lock(); finished = true; ready.broadcast(); ready.unlock()
        }

        func waitUntilFinished() {
            ready.lock(); while !finished { ready.wait() }; ready.unlock()
        }
    }

    struct ChatReducer: Sendable {
        let bot: Bot
        let banks: Banks
        let now: Date

        func reduce(_ events: [Batch.Queued]) -> Batch.ChatOutcome {
            var outcome = Batch.ChatOutcome()
            for e in events { apply(e, to: &outcome) }
            // Diffed and encoded here, beside the other chats, not in the serial write (if this
            // fails, `save` tries again and the batch's commit reports the error).
            try? outcome.change?.prepare()
            return outcome
        }

        /// Input a chat can send hundreds of (text, stickers, edits); commands and buttons are never stray.
        static func isStray(_ event: Event) -> Bool {
            switch event {
            case .textSent, .unsupportedContentSent, .messageEdited: return true
            default: return false
            }
        }

        /// Whether the reducer answered input that changed nothing (its first message is a stray notice).
        static func answersStrayInput(_ effects: [Effect]) -> Bool {
            for effect in effects {
                guard case .send(let reply) = effect else { continue }
                if case .notice(let notice) = reply.message { return notice.answersStrayInput }
                return false
            }
            return false
        }

        private func apply(_ e: Batch.Queued, to outcome: inout Batch.ChatOutcome) {
            let chatID = e.chatID
            if let id = e.updateID { outcome.updateIDs.append(id) }
            guard outcome.failure == nil else { outcome.skipped += 1; return }
            do {
                var change: ChatChange
                if let existing = outcome.change {
                    change = existing
                } else {
                    var repairs: [String] = []
                    let before = try bot.chatCache.get(chatID) ?? bot.store.loadChat(chatID, repairs: &repairs)
                    guard let start = before ?? e.sender.map({ Dialogue.newChat(chatID: chatID, sender: $0, isGroup: e.isGroup, now: now) }) else {
                        return   // a timer for a chat that no longer exists
                    }
                    change = ChatChange(before: before, after: start, answers: [], outbox: [])
                    if !repairs.isEmpty {
                        // Mended, not refused: the learner keeps their progress and gets an answer.
                        change.repaired = true
                        bot.noteRepaired(chatID, repairs)
                    }
                }
                if let sender = e.sender, !e.isGroup { change.after.learner.firstName = sender.firstName }
                let (state, effects) = Dialogue.reduce(change.after, e.event, DialogueContext(banks: banks, now: now, seed: e.seed))
                var rendered = bot.renderer.items(for: effects, chatID: chatID)
                if Self.isStray(e.event), Self.answersStrayInput(effects), !rendered.outbox.isEmpty,
                   change.outbox.contains(where: { $0.priority == 0 }) || (try? bot.store.hasPendingReplies(chatID: chatID)) == true {
                    // Backpressure: stray input while this chat's replies are still queued gets no
                    // further "didn't catch that" + screen (a chat sending hundreds of messages
                    // would queue two replies for each); button answers and commands still do.
                    rendered.outbox.removeAll { $0.priority == 0 }
                    bot.metrics.strayDropped.increment()
                }
                change.after = state
                change.answers += rendered.answers
                change.outbox += rendered.outbox
                for effect in effects {
                    switch effect {
                    case .setTimer(let key, let at): change.timers.append((key, at))
                    case .cancelTimer(let key): change.timers.append((key, nil))
                    case .eraseLearner:
                        change.erase = true
                        change.answers = []
                        change.timers = []
                        change.outbox = rendered.outbox   // only the goodbye
                    default: break
                    }
                }
                if let firedTimer = e.firedTimer { change.firedTimers.append(firedTimer) }
                outcome.change = change
                outcome.processed += 1
            } catch {
                // One chat's unreadable rows must not hold up everyone else's updates.
                outcome.skipped += 1
                outcome.failure = "could not be loaded: \(error)"
            }
        }
    }

    // MARK: - the long poll

    /// Chats Telegram answered 403 for, waiting to be marked blocked through the reducer.
    private let blockedByTelegram = Mutex([Int64]())

    /// The sender met "bot was blocked by the user": the learner's row changes through the reducer
    /// in a batch (`.botBlocked`), never by a direct write a concurrent batch could overwrite.
    func telegramSaysBlocked(_ chatID: Int64) {
        blockedByTelegram.withLock { $0.append(chatID) }
    }

    /// Runs the waiting `.botBlocked` events as one batch (kept for the next try if it fails).
    func applyBlocked() throws {
        let chats = blockedByTelegram.withLock { list -> [Int64] in defer { list.removeAll() }; return list }
        guard !chats.isEmpty else { return }
        do {
            try serially {
                var batch = Batch(bot: self)
                for chatID in Set(chats) {
                    batch.apply(.botBlocked, chatID: chatID, sender: nil, isGroup: false, seed: 0, updateID: nil)
                }
                try commit(batch, offset: nil)
            }
        } catch {
            blockedByTelegram.withLock { $0 = chats + $0 }
            throw error
        }
    }

    /// Fires due timers as they come due (checked at least 4 times a second).
    func runTimers() async {
        var lastNudgeCheck = Date.distantPast
        var lastBroadcastPump = Date.distantPast
        var lastMetrics = Date.distantPast
        var lastPrune = Date()   // the first pruning an interval after start, not during it
        while !Task.isCancelled {
            if let path = config.metricsFile, Date().timeIntervalSince(lastMetrics) >= config.metricsEverySeconds {
                lastMetrics = Date()
                maintenance.start { [self] in writeMetrics(to: path) }
            }
            if Date().timeIntervalSince(lastPrune) >= config.pruneEverySeconds {
                lastPrune = Date()
                // Pruning a big database takes seconds: on its own thread, timers don't wait for it.
                maintenance.start { [self] in prune() }
            }
            let checkNudges = Date().timeIntervalSince(lastNudgeCheck) >= config.nudgeCheckSeconds
            if checkNudges { lastNudgeCheck = Date() }
            let pump = Date().timeIntervalSince(lastBroadcastPump) >= 1
            if pump { lastBroadcastPump = Date() }
            do {
                let queued = try await batches.run { [self] () -> Bool in
                    try applyBlocked()
                    var queued = try fireDueTimers() > 0
                    if checkNudges, try sendDueNudges() > 0 { queued = true }
                    if pump {
                        try pumpBroadcasts()
                        if try store.flag(Self.reloadFlag) != nil {
                            let outcome = reloadBanks()
                            try store.setFlag(Self.reloadFlag, nil)
                            try store.setFlag(Self.reloadResultFlag, OutboxRenderer.plain(outcome.report))
                        }
                        queued = true
                    }
                    return queued
                }
                if queued { await sender.wake() }
            } catch {
                logger.error("timers or reminders failed: \(error)")
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Runs until the task is cancelled or the transport closes (the console chat's end of input).
    public func run() async throws {
        do {
            let me = try await api.getMe()
            logger.info("connected", metadata: ["bot": "\(me.username ?? me.firstName)"])
            try await api.deleteWebhook()
        } catch BotAPIError.unauthorized {
            throw BotError.badToken
        } catch {
            logger.warning("start-up call failed, polling anyway: \(error)")
        }
        do {
            try await api.setMyCommands(Command.menu.map { BotCommand(command: $0.rawValue, description: renderer.prompts.commandDescription($0)) })
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
        do {
            try await poll()
        } catch {
            await stop(sending, timers)
            throw error
        }
        await stop(sending, timers)
    }

    /// Removes what nobody reads any more (README "Data kept"); logged with what it took.
    public func prune() {
        do {
            let r = try store.prune(now: clock.now())
            if r.total > 0 {
                logger.info("pruned \(r.outbox) sent messages, \(r.answers) old answers, \(r.messageRefs) message ids, \(r.broadcastDeliveries) broadcast rows in \(String(format: "%.2f", r.seconds)) s")
            }
        } catch {
            logger.error("pruning failed: \(error)")
        }
    }

    /// Refreshes the database gauges and writes the metrics file.
    public func writeMetrics(to path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) else {
            // Said once, plainly, not every 15 s as a raw Foundation error.
            if metricsFolderWarned.withLock({ was in defer { was = true }; return !was }) {
                logger.warning("PERMITREADY_METRICS_FILE: the folder \(folder) does not exist; metrics are not written until it does")
            }
            return
        }
        metricsFolderWarned.withLock { $0 = false }
        metrics.refreshGauges(store: store, now: clock.now())
        do { try metrics.write(to: path) } catch { logger.error("could not write metrics to \(path): \((error as NSError).localizedDescription)") }
    }
    private let metricsFolderWarned = Mutex(false)

    /// A batch that failed this many times in a row is committed one update at a time, and an
    /// update that fails alone is skipped: one poisoned update must not hold up everyone's.
    static let batchTriesBeforeSplitting = 3

    /// Commits the updates of a batch that keeps failing one by one; an update that still fails
    /// is skipped (the offset moves past it) with a log line naming its chat, its id and the error.
    /// Returns the offset reached, nil if nothing could be committed (the database itself fails:
    /// then nothing is skipped, and health reports it).
    func processOneByOne(_ received: [ReceivedUpdate]) -> Int64? {
        var reached: Int64?
        for r in received {
            do {
                if let next = try process([r]) { reached = next }
            } catch {
                guard let id = r.updateID else { continue }
                let chat = r.update.flatMap(UpdateParser.parse).map { String($0.chatID) } ?? "unknown"
                do { try store.commit([], offset: id + 1) } catch { return reached }
                reached = id + 1
                metrics.updatesSkipped.increment()
                countersBox.withLock { $0.updatesSkipped += 1 }
                logger.error("skipped update \(id) of chat \(chat): it failed \(Self.batchTriesBeforeSplitting) times and again alone: \(error)",
                             metadata: ["chat_id": "\(chat)", "update_id": "\(id)"])
            }
        }
        return reached
    }

    struct PollMarks {
        var ready = false
        var checked = Date.distantPast
        var problem: String?
    }

    /// After every good poll: the heartbeat `permitready health` reads (every few seconds at most)
    /// and systemd's READY=1 (the first time) and WATCHDOG=1 — but only while the bot is really
    /// working: with batches failing to commit or an outbox that stopped draining, the heartbeat
    /// ages and the watchdog pings stop, so `health` and systemd see it (the reason is stored for
    /// `health` to print).
    private func polled(_ marks: inout PollMarks) {
        let now = Date()
        metrics.lastPoll.record(now.timeIntervalSince1970)
        if now.timeIntervalSince(marks.checked) >= config.heartbeatEverySeconds {
            marks.checked = now
            // Reading and writing the database: on the maintenance thread, not this loop's.
            maintenance.start { [self] in checkHealth(at: now) }
        }
        marks.problem = healthState.withLock { $0 }
        guard marks.problem == nil else { return }
        if !marks.ready {
            marks.ready = true
            notifier.notify("READY=1\nSTATUS=polling Telegram")
            logger.info("first poll done: ready")
        } else {
            notifier.notify("WATCHDOG=1")
        }
    }

    /// The last health check's finding (nil: healthy), read by the poll loop for the watchdog.
    private let healthState = Mutex<String?>(nil)

    /// Looks for what stops the bot working; stores the reason for `health` when it changes, and
    /// writes the heartbeat only while there is none.
    private func checkHealth(at now: Date) {
        let problem = healthProblem(now: clock.now())
        let before = healthState.withLock { state -> String? in defer { state = problem }; return state }
        if problem != before {
            if let problem { logger.error("unhealthy: \(problem)") } else { logger.info("healthy again") }
            try? store.setFlag(TutorStore.healthProblemKey, problem)
        }
        guard problem == nil else { return }
        do { try store.writeHeartbeat(now) } catch { logger.error("could not write the heartbeat: \(error)") }
    }

    /// What stops the bot from doing its job although Telegram answers, if anything.
    func healthProblem(now: Date) -> String? {
        let inRow = counters.commitFailuresInRow
        if inRow >= Self.batchTriesBeforeSplitting { return "\(inRow) batches in a row could not be saved" }
        if let due = try? store.oldestDuePending(), now.timeIntervalSince(due) > Self.outboxStuckAfter {
            return "the outbox is not draining: a message due \(Int(now.timeIntervalSince(due))) s ago is still waiting"
        }
        return nil
    }

    /// A message due this long ago and still unsent means the sender is stuck (429 holds move a
    /// row's due time forward, so they never count).
    static let outboxStuckAfter: TimeInterval = 300

    private func stop(_ sending: Task<Void, Never>, _ timers: Task<Void, Never>) async {
        timers.cancel()
        await timers.value
        await sender.stop()
        sending.cancel()
        await sending.value
    }

    private func poll() async throws {
        var offset = try store.updateOffset()
        var failures = 0
        var batchFailures = 0
        var marks = PollMarks()
        while !Task.isCancelled {
            let received: [ReceivedUpdate]
            do {
                received = try await api.getUpdates(offset: offset)
                failures = 0
                polled(&marks)
            } catch where Task.isCancelled {
                return   // stopping (SIGTERM, SIGINT): the poll in flight was abandoned
            } catch is TransportClosed {
                await sender.drain(timeout: 5)
                return
            } catch BotAPIError.conflict(let d) {
                logger.error("another process is polling this bot token (409: \(d)); backing off 10 s")
                try? await Task.sleep(for: .seconds(10))
                continue
            } catch BotAPIError.unauthorized {
                throw BotError.badToken
            } catch {
                failures += 1
                let delay = min(30.0, 0.5 * pow(2, Double(min(failures, 6))))
                logger.warning("getUpdates failed (\(error)); retrying in \(delay) s")
                try? await Task.sleep(for: .seconds(delay))
                continue
            }
            guard !received.isEmpty else { continue }
            let arrived = ContinuousClock.now
            do {
                if let next = try await batches.run({ [self] in try process(received) }) { offset = next }
                batchFailures = 0
                sender.wakeSoon()
                if config.deliverBeforeNextPoll { await sender.drain(timeout: 10) }
                if received.count < BotAPI.updatesPerPoll, config.pollGatherSeconds > 0 {
                    try? await Task.sleep(until: arrived + .milliseconds(Int(config.pollGatherSeconds * 1000)), clock: .continuous)
                }
            } catch {
                batchFailures += 1
                logger.error("could not commit a batch of \(received.count) update(s) (\(batchFailures) in a row): \(error); Telegram will re-deliver it")
                if batchFailures >= Self.batchTriesBeforeSplitting, let next = try? await batches.run({ [self] in processOneByOne(received) }) {
                    offset = next
                    batchFailures = 0
                    sender.wakeSoon()
                    continue
                }
                try? await Task.sleep(for: .seconds(2))
            }
        }
    }
}

/// Chats as last committed, bounded (cleared whole when full: simple, and a miss only costs a read).
final class ChatCache: Sendable {
    /// Each state in a box: a dictionary keeps room for more entries than it holds, and a
    /// ChatState is several hundred bytes inline (a full table was 1.5 MB with 1,000 chats).
    private final class Entry: Sendable {
        let state: ChatState
        init(_ state: ChatState) { self.state = state }
    }
    private let map = Mutex([Int64: Entry]())
    static let limit = 20_000

    func get(_ chatID: Int64) -> ChatState? { map.withLock { $0[chatID]?.state } }
    func forget(_ chatID: Int64) { _ = map.withLock { $0.removeValue(forKey: chatID) } }
    func put(_ states: [ChatState]) {
        map.withLock { m in
            if m.count + states.count > Self.limit { m.removeAll(keepingCapacity: true) }
            for s in states { m[s.learner.chatID] = Entry(s) }
        }
    }
}
