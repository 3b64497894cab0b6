import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// The long poll: getUpdates, batches handed to the batch thread, health and the watchdog.
extension Bot {
    /// A batch started this many times (failed to commit, or the process died on it) is processed
    /// one update at a time, so one poisoned update cannot hold up everyone's.
    static let batchTriesBeforeSplitting = 3

    /// Processes a batch that keeps failing one update at a time, marking each update in flight
    /// first (`BatchAttempts`): if the process dies on it, the next start skips it.
    /// - `diedOn`: the update that was in flight when the process died last time: skipped at once.
    /// - An update whose commit fails because of its own rows (a constraint, a value SQLite won't
    ///   take) is skipped too. Any other failure (the database busy with a command-line `prune`, a
    ///   passing I/O error) skips nothing: the run stops there and the poll loop retries later.
    /// Returns the offset reached, nil if nothing could be committed.
    func processOneByOne(_ received: [ReceivedUpdate], mark: BatchAttempts.Mark, diedOn: Int64?) -> Int64? {
        var reached: Int64?
        for r in received {
            guard let id = r.updateID else { continue }
            let chat = r.update.flatMap(UpdateParser.parse)?.chatID
            if id == diedOn {
                guard skip(id, chat: chat, because: "the process died while it was processed alone") else {
                    return reached
                }
                reached = id + 1
                continue
            }
            var alone = mark
            alone.alone = id
            batchAttempts.write(alone)
            // Whatever happens next, the process is alive: this update did not kill it.
            defer { batchAttempts.write(mark) }
            do {
                if let next = try process([r]) { reached = next }
            } catch  where ChatSaveFailure.isAboutTheRows(error) {
                guard
                    skip(
                        id, chat: chat,
                        because: "it failed \(Self.batchTriesBeforeSplitting) times and again alone: \(error)")
                else {
                    return reached
                }
                reached = id + 1
            } catch {
                logger.warning("update \(id) could not be committed (\(error)); it will be tried again")
                return reached
            }
        }
        return reached
    }

    /// Moves the offset past one update for good: its chat (if a person can be told) hears that
    /// something went wrong on our side; the log names the chat, the update and why.
    private func skip(_ id: Int64, chat: Int64?, because reason: String) -> Bool {
        do {
            try store.commit(offset: id + 1, extraOutbox: chat.map(apology) ?? []) { _ in }
        } catch {
            logger.warning("could not skip update \(id) (\(error)); it will be tried again")
            return false
        }
        metrics.updatesSkipped.increment()
        countersBox.withLock { $0.updatesSkipped += 1 }
        let chatName = chat.map(String.init) ?? "unknown"
        logger.error(
            "skipped update \(id) of chat \(chatName): \(reason)",
            metadata: ["chat_id": "\(chatName)", "update_id": "\(id)"])
        sender.wakeSoon()
        return true
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
    func polled(_ marks: inout PollMarks) {
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

    /// Looks for what stops the bot working; stores the reason for `health` when it changes, and
    /// writes the heartbeat only while there is none.
    func checkHealth(at now: Date) {
        // A console is not a service: no heartbeat, no watchdog, and nothing logged into its chat
        // (its clock can jump days with PERMITREADY_FAKE_NOW, leaving rows "late" for a moment).
        guard config.onlyChat == nil else { return }
        let problem = healthProblem(now: clock.now())
        let before = healthState.withLock { state -> String? in
            defer { state = problem }
            return state
        }
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
        // A console sends only its own chat's rows: another console's waiting rows are not its problem.
        // The words stay the same while the problem lasts (logged once, not every check).
        if let due = try? store.oldestDuePending(chatID: config.onlyChat),
            now.timeIntervalSince(due) > Self.outboxStuckAfter
        {
            return
                """
                the outbox is not draining: a message due more than \(Int(Self.outboxStuckAfter / 60)) minutes \
                ago is still waiting
                """
        }
        return nil
    }

    /// A message due this long ago and still unsent means the sender is stuck (429 holds move a
    /// row's due time forward, so they never count).
    static let outboxStuckAfter: TimeInterval = 300

    func poll() async throws {
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
            } catch  where Task.isCancelled {
                return  // stopping (SIGTERM, SIGINT): the poll in flight was abandoned
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
            // Marked before the work, so a restart knows this batch was started (and how often).
            let next = batchAttempts.next(updateIDs: received.compactMap(\.updateID))
            if let (mark, diedOn) = next, diedOn != nil || mark.attempts >= Self.batchTriesBeforeSplitting {
                if mark.attempts == Self.batchTriesBeforeSplitting || diedOn != nil {
                    logger.error(
                        """
                        a batch of \(received.count) update(s) was started \(mark.attempts - 1) time(s) without \
                        being saved; processing it one update at a time
                        """
                    )
                }
                batchAttempts.write(mark)
                if let reached = try? await batches.run({ [self] in
                    processOneByOne(received, mark: mark, diedOn: diedOn)
                }) {
                    offset = reached
                    sender.wakeSoon()
                }
                if offset <= received.compactMap(\.updateID).max() ?? offset {
                    // Something passing stopped the run (the database busy): wait, then try again.
                    batchFailures += 1
                    try? await Task.sleep(for: .seconds(min(30.0, 0.5 * pow(2, Double(min(batchFailures, 6))))))
                } else {
                    batchFailures = 0
                }
                continue
            }
            if let (mark, _) = next { batchAttempts.write(mark) }
            do {
                if let next = try await batches.run({ [self] in try process(received) }) { offset = next }
                batchFailures = 0
                sender.wakeSoon()
                if config.deliverBeforeNextPoll { await sender.drain(timeout: 10) }
                if received.count < BotAPI.updatesPerPoll, config.pollGatherSeconds > 0 {
                    try? await Task.sleep(
                        until: arrived + .milliseconds(Int(config.pollGatherSeconds * 1000)), clock: .continuous)
                }
            } catch {
                batchFailures += 1
                logger.error(
                    """
                    could not commit a batch of \(received.count) update(s) (\(batchFailures) in a row): \
                    \(error); Telegram will re-deliver it
                    """
                )
                try? await Task.sleep(for: .seconds(2))
            }
        }
    }
}
