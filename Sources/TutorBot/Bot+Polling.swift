import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// The long poll: getUpdates, batches handed to the batch thread, health and the watchdog.
extension Bot {
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
        // A console sends only its own chat's rows: another console's waiting rows are not its problem.
        // The words stay the same while the problem lasts (logged once, not every check).
        if let due = try? store.oldestDuePending(chatID: config.onlyChat), now.timeIntervalSince(due) > Self.outboxStuckAfter {
            return "the outbox is not draining: a message due more than \(Int(Self.outboxStuckAfter / 60)) minutes ago is still waiting"
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
