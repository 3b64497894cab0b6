import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// One batch, end to end: updates parsed (admin commands answered at the edge), each chat's
/// events reduced, and everything committed in one transaction with the update offset.
extension Bot {
    /// Parses, reduces and commits a getUpdates batch in ONE transaction with the next offset.
    /// Returns the new offset (nil if the batch had no update ids at all). Throws only when the
    /// commit itself fails, in which case nothing was written and the batch will come again.
    @discardableResult
    public func process(_ received: [ReceivedUpdate]) throws -> Int64? {
        try serially { try processBatch(received) }
    }

    private func processBatch(_ received: [ReceivedUpdate]) throws -> Int64? {
        // What the engine costs, for operators and the bench's split of the bot's CPU: this
        // thread's CPU for the batch plus the reducing threads' (waits for them cost none).
        let cpuAtStart = ProcessFigures.threadCPUNanoseconds()
        let cpu = BatchCPU()
        defer {
            let total = Int64(ProcessFigures.threadCPUNanoseconds() - cpuAtStart) + cpu.total
            metrics.updateCPUNanoseconds.add(UInt64(max(0, total)), ordering: .relaxed)
        }
        var batch = Batch(bot: self)
        batch.cpu = cpu
        for r in received {
            guard let update = r.update else {
                batch.counts.updatesGarbled += 1
                logger.warning(
                    "skipped an update that did not decode",
                    metadata: ["update_id": "\(r.updateID.map(String.init) ?? "none")"])
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
            batch.apply(
                parsed.event, chatID: parsed.chatID, sender: parsed.sender, isGroup: parsed.isGroup,
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
            return desk.handle(command: name, payload: payload, chatID: parsed.chatID, updateID: update.updateID)
        case .buttonTapped(let callbackID, nil, _):
            guard let data = update.callbackQuery?.data, data.hasPrefix(AdminDesk.callbackPrefix) else { return nil }
            return desk.handleButton(
                data: data, callbackID: callbackID, chatID: parsed.chatID, updateID: update.updateID)
        default:
            return nil
        }
    }

    /// Reduces what the batch queued and commits it in one transaction; returns the changes
    /// committed. With a file database the write transaction opens at once and saves each chat
    /// as soon as its reduction is done, while the other cores reduce the next chats: the serial
    /// write overlaps the parallel work instead of following it.
    @discardableResult
    /// `redoing`: this batch is the chats a first commit found stale (each is done once more at most).
    func commit(_ queuedBatch: Batch, offset: Int64?, redoing: Bool = false) throws -> [ChatChange] {
        var batch = queuedBatch
        // Button-tap answers are not stored: they are sent from memory the moment the batch is
        // committed (below). A crash in between costs a spinner that Telegram clears itself; a
        // stored answer re-sent after a restart would be past Telegram's 15 s anyway.
        var taps: [OutboxItem] = []
        var committed: [ChatChange] = []
        var failed: [(chatID: Int64, updateIDs: [Int64], reason: String)] = []
        var stale: [[Batch.Queued]] = []
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
                        if let refused = try write.save(&change) {
                            if refused.stale, !redoing {
                                // Saved by another process since it was read: done again from the
                                // stored copy once this transaction is in (below), not lost.
                                stale.append(reductions.chats[i])
                                batch.counts.updatesProcessed -= outcome.processed
                                continue
                            }
                            failure = refused.reason
                        } else {
                            committed.append(change)
                            taps += chatTaps
                        }
                    }
                    guard let failure else { continue }
                    failed.append((chatID, outcome.updateIDs, failure))
                    if !outcome.updateIDs.isEmpty { try write.queue(apology(chatID), now: now) }
                }
            }
            let took = ContinuousClock.now - started
            metrics.commitTime.recordNanoseconds(
                took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
            countersBox.withLock { $0.commitFailuresInRow = 0 }
        } catch {
            countersBox.withLock {
                $0.commitFailures += 1
                $0.commitFailuresInRow += 1
            }
            throw error
        }
        for f in failed {
            chatCache.forget(f.chatID)
            let inRow = chatFailures.withLock {
                $0[f.chatID, default: 0] += 1
                return $0[f.chatID]!
            }
            logger.error(
                "chat \(f.chatID): its update(s) were dropped (\(inRow) in a row): \(f.reason)",
                metadata: [
                    "chat_id": "\(f.chatID)", "update_ids": "\(f.updateIDs.map(String.init).joined(separator: ","))",
                ])
        }
        if !failed.isEmpty {
            metrics.chatFailures.increment(by: failed.count)
            countersBox.withLock { $0.chatFailures += failed.count }
        }
        if !committed.isEmpty, !chatFailures.withLock({ $0.isEmpty }) {
            chatFailures.withLock { m in for c in committed { m.removeValue(forKey: c.after.learner.chatID) } }
        }
        taps += batch.extraOutbox.filter { $0.priority == OutboxItem.tapPriority }
        if !taps.isEmpty {
            let handOff = batch.cpu == nil ? 0 : ProcessFigures.threadCPUNanoseconds()
            sender.answerTaps(taps)
            if let cpu = batch.cpu { cpu.subtract(ProcessFigures.threadCPUNanoseconds() - handOff) }  // the I/O path's
        }
        chatCache.put(committed.filter { !$0.erase }.map { (state: $0.after, version: $0.version ?? 0) })
        let erased = committed.filter(\.erase).map(\.after.learner.chatID)
        for chatID in erased { chatCache.forget(chatID) }
        // Their queued rows were deleted with them: the sender holds its own copy.
        if !erased.isEmpty { sender.reread(chats: erased) }
        countersBox.withLock {
            $0.updatesProcessed += batch.counts.updatesProcessed
            $0.updatesSkipped += batch.counts.updatesSkipped
            $0.updatesGarbled += batch.counts.updatesGarbled
            $0.batchesCommitted += 1
        }
        metrics.updatesProcessed.increment(by: batch.counts.updatesProcessed)
        if batch.counts.updatesSkipped > 0 { metrics.updatesSkipped.increment(by: batch.counts.updatesSkipped) }
        if batch.counts.updatesGarbled > 0 { metrics.updatesGarbled.increment(by: batch.counts.updatesGarbled) }
        guard !stale.isEmpty else { return committed }
        // A second process shares the file (a second console): these chats' copies were older than
        // the stored rows. Their events are reduced again from a fresh read and saved on their own.
        var again = Batch(bot: self)
        for events in stale {
            chatCache.forget(events[0].chatID)
            logger.info(
                """
                chat \(events[0].chatID): saved by another process meanwhile; its events are done again on the \
                stored copy
                """
            )
            again.queued += events
        }
        return try committed + commit(again, offset: nil, redoing: true)
    }

}
