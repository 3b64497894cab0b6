import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// Delivers the outbox: strictly in order within a chat, concurrently across chats (one slow
/// chat never holds up another), under one global rate, honouring 429/5xx/403.
public actor OutboxSender {
    let api: BotAPI
    let store: TutorStore
    let clock: BotClock
    let banksDirectory: String
    /// Button-tap answers: sent at once, beside the sender's own work (see `TapAnswers`).
    let taps: TapAnswers
    /// Reminders and broadcasts: their configured cap (PERMITREADY_RATE).
    var limiter: RateLimiter
    /// Every message: unpaced until Telegram says the bot is over its overall limit (`FloodControl`).
    var overall: RateLimiter
    var flood = FloodControl()
    let metrics: BotMetrics?
    let logger: Logger
    var inFlight: Set<Int64> = []
    /// The pending rows, read in once each (the database is the log): see `OutboxQueue`.
    var queue = OutboxQueue()
    /// Read every pending row again at the next look (at start, after rows changed outside the
    /// sender, and every `rereadEvery` in case something else changed them).
    var rereadAll = true
    var lastFullRead = ContinuousClock.now
    /// Replies this process committed, handed over by the store after each commit (in commit
    /// order) while `run` runs, not read back after every commit. Rows another process writes are
    /// found by the full re-read (`rereadEvery`).
    let handOff = Mutex(HandOff())
    struct HandOff {
        var open = false
        var rows: [OutboxItem] = []
    }
    /// The highest row id handed out when the last full read began: a handed-over row at or below
    /// it was committed before that read, which took it in if it was still pending. Taking it again
    /// could send a row already delivered and marked.
    var fullReadUpTo: Int64 = 0
    /// The same for chats read again on their own since (erased chats).
    var chatReadUpTo: [Int64: Int64] = [:]
    /// Bulk rows are looked for at most this often (see `readNewRows`).
    static let bulkReadEvery = Duration.milliseconds(100)
    var lastBulkRead = ContinuousClock.now - .seconds(1)
    static let rereadEvery = Duration.seconds(30)
    /// Chats whose rows changed outside the sender (erased): read again at the next look.
    var rereadChats: Set<Int64> = []
    /// Rows in a request now, or delivered with their mark not yet written: still pending in the
    /// database, so a re-read must not take them in again.
    var delivering: Set<Int64> = []
    var unmarkedIDs: Set<Int64> = []
    /// Set when the run loop ends: chats being worked on finish their current request and stop.
    var stopped = false
    var blockedHandler: (@Sendable (Int64) -> Void)?
    /// Set for a console sharing its database: deliver only this chat's rows (`Config.onlyChat`).
    var onlyChat: Int64?
    public func deliverOnly(_ chatID: Int64?) {
        onlyChat = chatID
        rereadAll = true
    }
    var wakeup: CheckedContinuation<Void, Never>?
    /// False while the loop naps (its throttle): a wake is kept for after it.
    var wakeupTakesWakes = true
    var wokenEarly = false
    /// When the pending timer fires, if one is pending (see `OutboxSender+Waiting`).
    var timerDue: ContinuousClock.Instant?
    /// Chats waiting for their pace to let the next message go, released by the loop's looks.
    var pacedChats = PacedChats()
    /// Per-chat pacing: about one message a second, with short bursts (an answer's edit plus the
    /// next question) let through, as Telegram does.
    var chatPace: [Int64: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    let chatRate: Double
    static let chatBurst = 3.0

    /// Retries of a transient failure before the row is given up as failed.
    static let maxAttempts = 8
    static let concurrentChats = 256
    static let concurrentTaps = 256
    /// Bulk needs few chats at once to fill its budget (25/s at ~50 ms a request); hundreds of
    /// waiters would wake late on a busy machine and bunch up past Telegram's 30/s.
    static let concurrentBulkChats = 8
    var bulkInFlight: Set<Int64> = []

    /// Delivered rows whose "sent" mark is not yet written: marked together every `markEvery`
    /// (or every `markBatch` rows), in one transaction. A chat stays in `inFlight` until its
    /// marks are written, so no query can hand out a delivered row again; a crash in between
    /// re-sends at most the last `markEvery` of messages.
    var unmarked: [(item: OutboxItem, messageID: Int64?)] = []
    var unmarkedPerChat: [Int64: Int] = [:]
    /// Chats whose delivery is over but whose marks are still waiting.
    var awaitingMarks: Set<Int64> = []
    /// Message ids of tagged messages delivered: an edit finds its message here, with no
    /// database read (see `MessageRefs`).
    var messageRefs = MessageRefs()
    var markScheduled = false
    /// When the run loop is to write the waiting marks (`markEvery` after the first).
    var marksDue: ContinuousClock.Instant?
    /// Telegram's file_id of each sign picture already uploaded: a file_id never changes, so it is
    /// read from the database once, not before every sign question (a read was a pool hand-off).
    var pictureFileIDs: [String: String] = [:]
    /// The sender's database writes run here, off Swift's cooperative pool (see `OffPool`).
    let writes = OffPool("sender-writes")
    /// Its reads (a message id not in `messageRefs`, a picture's file_id, a sign's PNG file) and
    /// the progress chart's drawing: each blocks a thread, never one of the cooperative pool's.
    let reads = OffPool("sender-reads")
    let drawings = OffPool("sender-drawings", qos: .utility)
    static let markEvery = Duration.milliseconds(10)
    static let markBatch = 256

    init(
        api: BotAPI, store: TutorStore, clock: BotClock, banksDirectory: String, messagesPerSecond: Double,
        perChatPerSecond: Double = 1, metrics: BotMetrics? = nil, logger: Logger
    ) {
        self.api = api
        self.store = store
        self.clock = clock
        self.banksDirectory = banksDirectory
        self.chatRate = max(perChatPerSecond, 0.1)
        // No burst: a steady pace keeps every one-second window under Telegram's ~30 messages.
        self.limiter = RateLimiter(perSecond: messagesPerSecond, burst: 1)
        self.overall = RateLimiter(perSecond: nil, burst: 1)
        self.metrics = metrics
        self.logger = logger
        self.taps = TapAnswers(api: api, metrics: metrics, logger: logger, limit: Self.concurrentTaps)
        store.observeCommittedReplies { [weak self] rows in self?.handOver(rows) }
    }

    nonisolated func handOver(_ rows: [OutboxItem]) {
        handOff.withLock { if $0.open { $0.rows += rows } }
    }

    /// Called when a learner turns out to have blocked the bot (the runtime marks them blocked
    /// through the reducer).
    public func onBlocked(_ handler: @escaping @Sendable (Int64) -> Void) { blockedHandler = handler }

    /// `wake()` without waiting for this actor: the poll loop calls it after every commit, and
    /// awaiting the actor there put taking in updates (and answering their taps) behind every
    /// delivery the sender had queued.
    public nonisolated func wakeSoon() {
        Task { await self.wake() }
    }

    /// Rows were changed outside the sender (a chat erased, stale news dropped): the chats given
    /// (nil: all) are read again before the next look.
    public nonisolated func reread(chats: [Int64]?) {
        Task { await self.markForReread(chats) }
    }

    func markForReread(_ chats: [Int64]?) {
        if let chats {
            rereadChats.formUnion(chats)
            for chatID in chats { messageRefs.forget(chatID: chatID) }
        } else {
            rereadAll = true
        }
        wake()
    }

    /// New rows were committed: look now rather than at the next timeout.
    public func wake() {
        if let w = wakeup, wakeupTakesWakes {
            wakeup = nil
            w.resume()
        } else {
            wokenEarly = true
        }
    }

    public func run() async {
        stopped = false
        // From here on commits hand their replies over; what was committed before, the first
        // (full) read finds.
        handOff.withLock { $0 = HandOff(open: true) }
        rereadAll = true
        defer { handOff.withLock { $0 = HandOff() } }
        var lastPass = ContinuousClock.now - .seconds(1)
        while !Task.isCancelled && !stopped {
            // Wakes come with every commit and every finished chat: at hundreds a second, look
            // at most every 5 ms (each look walks the queue's heads).
            while ContinuousClock.now - lastPass < .milliseconds(5), !stopped {
                await nap(until: lastPass + .milliseconds(5))
            }
            if stopped { break }
            lastPass = .now
            var next: TimeInterval = 1
            let pacedDue = releasePacedChats()
            if let due = marksDue, due <= .now {
                marksDue = nil
                Task { await self.writeMarks() }
            }
            do {
                try readNewRows()
                let now = clock.now()
                let heads = queue.heads(limit: Self.concurrentChats - inFlight.count, now: now, excluding: inFlight)
                for item in heads {
                    if item.priority >= OutboxItem.bulkPriority {
                        guard bulkInFlight.count < Self.concurrentBulkChats else { continue }
                        bulkInFlight.insert(item.chatID)
                    }
                    inFlight.insert(item.chatID)
                    Task { await self.deliverChat(startingWith: item) }
                }
                // Rows due now are looked at again when a chat is freed or a batch commits (both
                // wake this loop); only held rows need a timed wake.
                if let due = queue.nextHeld(after: now) { next = min(1, max(0.01, due.timeIntervalSince(now))) }
            } catch {
                logger.error("outbox read failed: \(error)")
            }
            for due in [pacedDue, marksDue].compactMap({ $0 }) { next = min(next, max(0.001, (due - .now).inSeconds)) }
            await sleep(seconds: next)
        }
        // Nobody looks any more: chats waiting for their pace go (and stop, `deliver` sees `stopped`),
        // and marks waiting for a look are written now (`stop()` writes them too; a cancelled
        // loop without it would have left them, and their chats held, until the next start).
        stopped = true
        _ = releasePacedChats(stopping: true)
        if marksDue != nil { Task { await self.writeMarks() } }
    }

    /// Takes in the replies committed since the last look (handed over, not read back), bulk rows
    /// while there is room for them (an index range: only new rows are read), and re-reads what
    /// was marked for it.
    private func readNewRows() throws {
        let handed = handOff.withLock { h -> [OutboxItem] in
            defer { h.rows = [] }
            return h.rows
        }
        for row in handed where onlyChat == nil || row.chatID == onlyChat {
            guard row.id > fullReadUpTo, row.id > chatReadUpTo[row.chatID] ?? 0, isFree(row) else { continue }
            queue.add([row])
        }
        if rereadAll || ContinuousClock.now - lastFullRead > Self.rereadEvery {
            rereadAll = false
            rereadChats = []
            lastFullRead = .now
            let pending = try store.pendingSnapshot(chatID: onlyChat, bulkLimit: OutboxQueue.bulkHeldAtMost)
            queue.replaceAll(
                with: (pending.replies + pending.bulk).filter(isFree),
                bulkComplete: pending.bulk.count < OutboxQueue.bulkHeldAtMost)
            fullReadUpTo = pending.upTo
            chatReadUpTo = [:]
            return
        }
        for chatID in rereadChats where onlyChat == nil || onlyChat == chatID {
            let pending = try store.pendingSnapshot(chatID: chatID)
            queue.replace(chatID: chatID, with: pending.rows.filter(isFree))
            chatReadUpTo[chatID] = pending.upTo
        }
        rereadChats = []
        // Bulk rows (reminders, news, broadcasts) aren't urgent: looked for every `bulkReadEvery`,
        // not at every look (the sender looks hundreds of times a second under load).
        if queue.bulkRoom > 0, ContinuousClock.now - lastBulkRead >= Self.bulkReadEvery {
            lastBulkRead = .now
            queue.add(
                try store.pendingBulk(after: queue.bulkReadUpTo, limit: queue.bulkRoom, chatID: onlyChat).filter(isFree)
            )
        }
    }

    /// Not being delivered, nor delivered and waiting for its mark (it still reads as pending).
    private func isFree(_ item: OutboxItem) -> Bool {
        !delivering.contains(item.id) && !unmarkedIDs.contains(item.id)
    }

    /// Stops taking new rows and waits (a few seconds at most) for requests in flight, so a
    /// stopped bot never overlaps with the next one.
    public func stop() async {
        stopped = true
        wake()
        let deadline = Date().addingTimeInterval(5)
        while !inFlight.isEmpty && Date() < deadline {
            await writeMarks()
            try? await Task.sleep(for: .milliseconds(10))
        }
        await writeMarks()
    }

    /// Waits until the outbox has nothing due (or `timeout` passes): used by a console after each
    /// line. A console waits for its own chat's rows only (another console's, closed with a message
    /// still queued, are not its to send), and not for rows held for later (news waiting out quiet
    /// hours): waiting on either cost every reply the full timeout.
    public func drain(timeout: TimeInterval) async {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? store.pendingCount(chatID: onlyChat, dueBy: clock.now())) == 0 && inFlight.isEmpty { return }
            wake()
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Answers button taps straight after their batch is committed (`TapAnswers`).
    public nonisolated func answerTaps(_ items: [OutboxItem]) {
        taps.answer(items)
    }

    /// Sends one chat's due rows one after another, then frees the chat for the main loop (once
    /// its rows' marks are written).
    private func deliverChat(startingWith first: OutboxItem) async {
        var item: OutboxItem? = first
        while let current = item, !stopped {
            delivering.insert(current.id)
            let delivered = await deliver(current, markLater: true)
            delivering.remove(current.id)
            item = delivered ? queue.next(chatID: current.chatID, now: clock.now(), after: current.id) : nil
        }
        if unmarkedPerChat[first.chatID, default: 0] > 0 {
            awaitingMarks.insert(first.chatID)
        } else {
            free(first.chatID)
        }
    }

    func free(_ chatID: Int64) {
        inFlight.remove(chatID)
        bulkInFlight.remove(chatID)
        wake()
    }

    /// Notes a delivered row; its mark is written with others shortly (`writeMarks`).
    func markLater(_ item: OutboxItem, messageID: Int64?) {
        unmarked.append((item, messageID))
        unmarkedIDs.insert(item.id)
        queue.remove(item)
        unmarkedPerChat[item.chatID, default: 0] += 1
        if let tag = item.saveTag, let messageID {
            messageRefs.remember(chatID: item.chatID, tag: tag, messageID: messageID)
        }
        // One write scheduled at a time (another may be in flight): under load every delivery
        // lands here, and a task per delivery past `markBatch` crowded the cooperative threads
        // that answer taps.
        guard !markScheduled else { return }
        markScheduled = true
        if unmarked.count >= Self.markBatch || stopped {
            Task { await self.writeMarks() }
        } else {
            // The run loop starts the write when it is due (no timer of its own: see `OutboxSender+Waiting`).
            marksDue = .now + Self.markEvery
            armTimer(for: marksDue!)
        }
    }

    /// A write of the sender's (a retry time, a failure, a dropped queue) on its own thread; a
    /// failure is logged: the row stays as it was and is looked at again.
    func write(_ body: @escaping @Sendable () throws -> Void) async {
        do { try await writes.run(body) } catch { logger.error("outbox write failed: \(error)") }
    }

    /// Writes every waiting mark in one transaction and frees the chats that were waiting on them.
    private func writeMarks() async {
        markScheduled = false
        marksDue = nil
        guard !unmarked.isEmpty else { return }
        let marks = unmarked
        unmarked = []
        do {
            try await writes.run { [store] in try store.markSent(marks) }
        } catch {
            // Kept and tried again: a row written as pending would otherwise be sent twice.
            logger.error("could not mark \(marks.count) sent message(s): \(error); trying again")
            unmarked = marks + unmarked
            if !markScheduled {
                markScheduled = true
                Task {
                    try? await Task.sleep(for: .milliseconds(200))
                    await self.writeMarks()
                }
            }
            return
        }
        for (item, _) in marks {
            unmarkedIDs.remove(item.id)
            let left = unmarkedPerChat[item.chatID, default: 1] - 1
            if left > 0 {
                unmarkedPerChat[item.chatID] = left
                continue
            }
            unmarkedPerChat.removeValue(forKey: item.chatID)
            if awaitingMarks.remove(item.chatID) != nil { free(item.chatID) }
        }
    }
}
