import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// The work that is not an update: timers, reminders, broadcasts, blocks reported by the sender,
/// pruning and metrics.
extension Bot {
    /// Moves every broadcast that is sending along: queues the next recipients while the bulk
    /// queue is short (replies to learners always go first), edits the admin's progress message
    /// every few seconds, and reports when it is done.
    public func pumpBroadcasts() throws {
        let now = clock.now()
        let desk = AdminDesk(bot: self)
        // A console moves along its own admin's broadcasts (and those of the command line), so
        // two consoles don't both edit one admin's progress message.
        for b in try store.sendingBroadcasts()
        where config.onlyChat == nil || [nil, config.onlyChat].contains(b.adminChatID) {
            if try store.pendingBulkCount() < Self.bulkQueueTarget {
                let renderer = self.renderer
                _ = try store.enqueueBroadcast(b.id, limit: Self.bulkQueueTarget, now: now) { b, chat in
                    let quiz = InlineKeyboardButton(
                        text: renderer.prompts.label(.quickQuiz),
                        callbackData: ButtonAction.menu(.quickQuiz).callbackData)
                    let request = SendMessageRequest(
                        chatID: chat, text: desk.learnerText(b.text), replyMarkup: InlineKeyboardMarkup([[quiz]]))
                    return (try? OutboxRenderer.encoder.encode(request)) ?? Data()
                }
            }
            let done = try store.finishBroadcastIfComplete(b.id, now: now)
            let due = progressEdits.withLock { last -> Bool in
                // The first edit waits a full interval: the progress message itself was just sent.
                guard let previous = last[b.id] else {
                    last[b.id] = now
                    return done
                }
                if done || now.timeIntervalSince(previous) >= Self.progressEvery {
                    last[b.id] = now
                    return true
                }
                return false
            }
            guard due else { continue }
            let progress = try store.broadcastProgress(b.id)
            if done {
                logger.info(
                    """
                    broadcast \(b.id) done: \(progress.sent) sent, \(progress.blocked) blocked, \
                    \(progress.failed) failed
                    """
                )
            }
            if let admin = b.adminChatID {
                var edit = renderer.item(
                    admin, "editMessageText",
                    EditMessageTextRequest(
                        chatID: admin, messageID: 0, text: desk.progressText(b, progress, done: done)))
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
            let due = try store.dueNudges(now: clock.now(), chatID: config.onlyChat)
            guard !due.isEmpty else { return 0 }
            var batch = Batch(bot: self)
            for chatID in due {
                batch.apply(
                    .nudgeDue, chatID: chatID, sender: nil, isGroup: false,
                    seed: ExamBuilder.stableHash("nudge/\(chatID)"), updateID: nil)
            }
            let committed = try commit(batch, offset: nil)
            metrics.remindersDue.increment(by: due.count)
            metrics.remindersSent.increment(by: committed.filter { !$0.outbox.isEmpty }.count)
            return due.count
        }
    }

    /// Fires the timers that are due (timed-challenge questions running out), as one batch.
    /// Returns how many fired.
    @discardableResult
    public func fireDueTimers() throws -> Int {
        try serially { try fireTimers() }
    }

    private func fireTimers() throws -> Int {
        let due = try store.dueTimers(now: clock.now(), chatID: config.onlyChat)
        guard !due.isEmpty else { return 0 }
        var batch = Batch(bot: self)
        for t in due {
            batch.apply(
                .timerFired(key: t.key), chatID: t.chatID, sender: nil, isGroup: false,
                seed: ExamBuilder.stableHash("\(t.chatID)/\(t.key)"), updateID: nil, firedTimer: t.key)
        }
        try commit(batch, offset: nil)
        return due.count
    }

    /// The sender met "bot was blocked by the user": the learner's row changes through the reducer
    /// in a batch (`.botBlocked`), never by a direct write a concurrent batch could overwrite.
    func telegramSaysBlocked(_ chatID: Int64) {
        blockedByTelegram.withLock { $0.append(chatID) }
    }

    /// Runs the waiting `.botBlocked` events as one batch (kept for the next try if it fails).
    func applyBlocked() throws {
        let chats = blockedByTelegram.withLock { list -> [Int64] in
            defer { list.removeAll() }
            return list
        }
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

    /// A reminder or a friend's news not sent within this long is dropped, not sent late (the
    /// bot was down, or a console closed): "time to study" belongs to its evening.
    static let newsKeepsFor: TimeInterval = 3 * 3600

    /// Fires due timers as they come due (checked at least 4 times a second).
    func runTimers() async {
        var lastNudgeCheck = Date.distantPast
        var lastBroadcastPump = Date.distantPast
        var lastMetrics = Date.distantPast
        var lastPrune = Date()  // the first pruning an interval after start, not during it
        while !Task.isCancelled {
            if let path = config.metricsFile, Date().timeIntervalSince(lastMetrics) >= config.metricsEverySeconds {
                lastMetrics = Date()
                maintenance.start { [self] in writeMetrics(to: path) }
            }
            // A console (`onlyChat`) serves its own chat only: the database's pruning is the
            // running bot's or `permitready prune`'s, not every console's.
            if config.onlyChat == nil, Date().timeIntervalSince(lastPrune) >= config.pruneEverySeconds {
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
                    if checkNudges {
                        if try sendDueNudges() > 0 { queued = true }
                        let stale = try store.dropStaleNews(
                            queuedBefore: clock.now().addingTimeInterval(-Self.newsKeepsFor))
                        if stale > 0 {
                            logger.info(
                                """
                                dropped \(stale) reminder(s) or friend news that waited over \
                                \(Int(Self.newsKeepsFor / 3600)) h to be sent
                                """
                            )
                            sender.reread(chats: nil)
                        }
                    }
                    if pump {
                        try pumpBroadcasts()
                        if try store.flag(Self.reloadFlag) != nil {
                            let outcome = reloadBanks()
                            Self.returnFreedMemory()  // the old banks and the new ones' reading
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

    /// Removes what nobody reads any more (README "Data kept"); logged with what it took.
    public func prune() {
        do {
            let r = try store.prune(now: clock.now())
            if r.total > 0 {
                logger.info("\(r.summary)")
            }
        } catch {
            logger.error("pruning failed: \(error)")
        }
    }

    /// Refreshes the database gauges and writes the metrics file.
    public func writeMetrics(to path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard
            folder.isEmpty
                || (FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue)
        else {
            // Said once, plainly, not every 15 s as a raw Foundation error.
            if metricsFolderWarned.withLock({ was in
                defer { was = true }
                return !was
            }) {
                logger.warning(
                    """
                    PERMITREADY_METRICS_FILE: the folder \(folder) does not exist; metrics are not written until \
                    it does
                    """
                )
            }
            return
        }
        metricsFolderWarned.withLock { $0 = false }
        metrics.refreshGauges(store: store, now: clock.now())
        do { try metrics.write(to: path) } catch {
            logger.error("could not write metrics to \(path): \((error as NSError).localizedDescription)")
        }
    }
}
