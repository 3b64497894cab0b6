import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorCore
import TutorStore

/// How a batch's chats are reduced: grouped by chat, side by side on the cores, each chat's
/// change prepared for the one writer as soon as it is done.
extension Bot {
    /// One batch being reduced: each chat read once, its events applied in order. Events are
    /// queued by `apply` and reduced together by `startReducing` (which `commit` calls): different
    /// chats are independent, so they are reduced side by side on the machine's cores.
    struct Batch {
        let bot: Bot
        let banks: Banks
        let ask: AskIndex?
        let now: Date
        var counts = BotCounters()
        /// Admin replies: they change no learner's state.
        var extraOutbox: [OutboxItem] = []
        var queued: [Queued] = []
        /// Set for a batch of updates: the reducing threads' CPU is added here (see `process`).
        var cpu: BatchCPU?

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
        /// Read once: the core count doesn't change, and asking the system every batch costs.
        static let cores = ProcessInfo.processInfo.activeProcessorCount

        init(bot: Bot) {
            self.bot = bot
            (self.banks, self.ask) = bot.banksAndIndex
            self.now = bot.clock.now()
        }

        mutating func apply(
            _ event: Event, chatID: Int64, sender: Sender?, isGroup: Bool, seed: UInt64, updateID: Int64?,
            firedTimer: String? = nil
        ) {
            queued.append(
                Queued(
                    event: event, chatID: chatID, sender: sender, isGroup: isGroup, seed: seed, updateID: updateID,
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
                if let i = slot[q.chatID] {
                    perChat[i].append(q)
                } else {
                    slot[q.chatID] = perChat.count
                    perChat.append([q])
                }
            }
            // Read before the write transaction opens; nil (a failed read) reads per chat instead.
            let facts = try? bot.store.batchFacts(chatIDs: perChat.map { $0[0].chatID })
            let reducer = ChatReducer(bot: bot, banks: banks, ask: ask, now: now, facts: facts)
            let run = Reductions(chats: perChat)
            guard perChat.count >= Self.sideBySideFrom else {
                for i in perChat.indices { run.put(i, reducer.reduce(perChat[i])) }
                run.finish()
                return run
            }
            let workers = max(1, min(Self.cores, perChat.count))
            let caller = pthread_self()
            let cpu = self.cpu
            let work: @Sendable () -> Void = {
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    let start = cpu == nil ? 0 : ProcessFigures.threadCPUNanoseconds()
                    // Each worker takes the next chat not yet taken: the chats finish about in the
                    // order the writer wants them, and no core idles while another has a queue.
                    while let i = run.nextToReduce() { run.put(i, reducer.reduce(run.chats[i])) }
                    // The calling thread's share is in its own figure already.
                    if let cpu, pthread_equal(pthread_self(), caller) == 0 {
                        cpu.add(ProcessFigures.threadCPUNanoseconds() - start)
                    }
                }
                run.finish()
            }
            if alongsideWrite { DispatchQueue.global(qos: .userInitiated).async(execute: work) } else { work() }
            return run
        }
    }

    /// CPU (ns) a batch's helper threads spent on it, added up for `BotMetrics.updateCPUNanoseconds`.
    final class BatchCPU: Sendable {
        private let nanoseconds = Atomic<Int64>(0)
        func add(_ n: UInt64) { nanoseconds.add(Int64(n), ordering: .relaxed) }
        func subtract(_ n: UInt64) { nanoseconds.subtract(Int64(n), ordering: .relaxed) }
        var total: Int64 { nanoseconds.load(ordering: .relaxed) }
    }

    /// A batch's chats as they are reduced: outcomes are put by the reducing threads and taken,
    /// in first-arrival order, by the committing one (which waits for each that isn't done yet).
    final class Reductions: @unchecked Sendable {  // `outcomes` and `finished` only under `ready`'s lock
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
            ready.lock()
            outcomes[i] = outcome
            ready.broadcast()
            ready.unlock()
        }

        func take(_ i: Int) -> Batch.ChatOutcome {
            ready.lock()
            defer { ready.unlock() }
            while outcomes[i] == nil { ready.wait() }
            defer { outcomes[i] = Batch.ChatOutcome() }  // the taker owns it now: free the copy
            return outcomes[i]!
        }

        func finish() {
            ready.lock()
            finished = true
            ready.broadcast()
            ready.unlock()
        }

        func waitUntilFinished() {
            ready.lock()
            while !finished { ready.wait() }
            ready.unlock()
        }
    }

    struct ChatReducer: Sendable {
        let bot: Bot
        let banks: Banks
        let ask: AskIndex?
        let now: Date
        /// The batch's chats' queued replies and friendships, read once (nil: read per chat).
        let facts: BatchFacts?

        func reduce(_ events: [Batch.Queued]) -> Batch.ChatOutcome {
            var outcome = Batch.ChatOutcome()
            for e in events { apply(e, to: &outcome) }
            // Diffed and encoded here, beside the other chats, not in the serial write (if this
            // fails, `save` tries again and the batch's commit reports the error).
            try? outcome.change?.prepare()
            return outcome
        }

        /// Whether replies to this chat from earlier batches are still queued.
        func hasQueuedReplies(_ chatID: Int64) -> Bool {
            if let facts { return facts.chatsWithQueuedReplies.contains(chatID) }
            return (try? bot.store.hasPendingReplies(chatID: chatID)) == true
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
            guard outcome.failure == nil else {
                outcome.skipped += 1
                return
            }
            do {
                var change: ChatChange
                if let existing = outcome.change {
                    change = existing
                } else {
                    var repairs: [String] = []
                    let stored = try bot.chatCache.get(chatID) ?? bot.store.loadVersionedChat(chatID, repairs: &repairs)
                    let before = stored?.state
                    guard
                        let start = before
                            ?? e.sender.map({
                                Dialogue.newChat(chatID: chatID, sender: $0, isGroup: e.isGroup, now: now)
                            })
                    else {
                        return  // a timer for a chat that no longer exists
                    }
                    change = ChatChange(before: before, after: start, answers: [], outbox: [])
                    change.version = stored?.version ?? 0
                    change.madeAt = now
                    if !repairs.isEmpty {
                        // Mended, not refused: the learner keeps their progress and gets an answer.
                        change.repaired = true
                        bot.noteRepaired(chatID, repairs)
                    }
                }
                var context = DialogueContext(banks: banks, now: now, seed: e.seed)
                if let sender = e.sender, !e.isGroup { context.senderFirstName = sender.firstName }
                // A link must not be guessable: 128 bits from the system, not the update-derived
                // seed, drawn only if the reducer makes a challenge.
                context.freshTokenLookup = Lookup {
                    var system = SystemRandomNumberGenerator()
                    return Challenge.newToken(using: &system)
                }
                context.botUsername = bot.botUsername.withLock { $0 }
                switch e.event {
                case .commandSent(.start, let payload):
                    // A friend's challenge link: the reducer is told what the token leads to.
                    if let token = Challenge.token(fromPayload: payload) {
                        context.challenge = try bot.store.challenge(token: token, openedBy: chatID)
                    }
                default: break
                }
                // Friends, read only if a screen asks for them (with friends removed this week,
                // marked: last week's league is judged with them). A chat that never had a friend
                // (most) has none to read.
                if facts?.chatsWithFriendships.contains(chatID) ?? true {
                    let store = bot.store
                    let logger = bot.logger
                    let since = League.start(of: League.week(of: now))
                    context.friendsLookup = Lookup {
                        do { return try store.friendSummaries(of: chatID, removedSince: since, now: now) } catch {
                            logger.error("chat \(chatID): friends could not be read: \(error)")
                            return nil
                        }
                    }
                } else {
                    context.friends = []
                }
                // Daily 5: the day's five as first dealt, and the others' and friends' scores,
                // read only when the reducer deals one or shows a result.
                let store = bot.store
                let logger = bot.logger
                context.dailySetLookup = { code, day in
                    do { return try store.dailySet(stateCode: code, day: day) ?? [] } catch {
                        logger.error("chat \(chatID): Daily 5 set could not be read: \(error)")
                        return nil
                    }
                }
                context.dailyScoresLookup = { code, day in
                    do { return try store.dailyScores(stateCode: code, day: day, excluding: chatID) } catch {
                        logger.error("chat \(chatID): Daily 5 scores could not be read: \(error)")
                        return nil
                    }
                }
                // A friend's news: the reducer asks who it would reach (and holds it in their quiet hours).
                context.newsRecipientLookup = { other in
                    do { return try store.newsRecipient(other) } catch {
                        logger.error("chat \(chatID): news for chat \(other) dropped, its learner unreadable: \(error)")
                        return nil
                    }
                }
                // Typed text: what the banks hold on it (the reducer decides whether it was a question).
                // ("b", "3" and a 4,000-character paste are never questions: no look-up for them.)
                if case .textSent(let text) = e.event, let ask,
                    (2...Dialogue.maxUsefulTextLength).contains(text.count)
                {
                    do {
                        context.asked =
                            try bot.askedAgain(text, ask: ask, chatID: chatID, now: context.now)
                            ?? ask.lookUp(
                                text,
                                // Under "Pennsylvania — is that right?", a question is asked for Pennsylvania.
                                learnerState: change.after.learner.stateCode ?? change.after.session.proposedState)
                    } catch {
                        bot.logger.error("ask index: look-up failed: \(error)")
                    }
                }
                // A question kept until the state is picked: looked up for the state this event picks.
                if let pending = change.after.session.pendingAsk, let ask,
                    let code = Dialogue.statePicked(by: e.event, session: change.after.session, states: banks.states)
                {
                    do { context.pendingAsked = try ask.lookUp(pending, learnerState: code) } catch {
                        bot.logger.error("ask index: look-up failed: \(error)")
                    }
                }
                #if DEBUG
                    if let trap = bot.testTrapText, case .textSent(trap) = e.event {
                        fatalError("test trap (PERMITREADY_TEST_TRAP)")
                    }
                #endif
                let (state, effects) = Dialogue.reduce(change.after, e.event, context)
                var rendered = bot.renderer.items(for: effects, chatID: chatID)
                if Self.isStray(e.event), Self.answersStrayInput(effects), !rendered.outbox.isEmpty,
                    change.outbox.contains(where: { $0.priority == 0 }) || hasQueuedReplies(chatID)
                {
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
                    case .createChallenge(let c): change.challengesMade.append(c)
                    case .recordChallengePlay(let token, let correct): change.challengePlays.append((token, correct))
                    case .befriend(let friend): change.newFriends.append(friend)
                    case .unfriend(let friend): change.removedFriends.append(friend)
                    case .recordDailyResult(let code, let day, let score):
                        change.dailyResults.append((code, day, score))
                    case .recordDailySet(let code, let day, let ids): change.dailySets.append((code, day, ids))
                    case .recordAsk(let record): change.asks.append(record)
                    case .voteAsk(let ref, let helpful): change.askVotes.append((ref, helpful))
                    case .cancelTimer(let key): change.timers.append((key, nil))
                    case .eraseLearner:
                        change.erase = true
                        change.answers = []
                        change.timers = []
                        change.outbox = rendered.outbox  // only the goodbye
                        change.challengesMade = []
                        change.challengePlays = []
                        change.newFriends = []
                        change.removedFriends = []
                        change.dailyResults = []
                        change.asks = []
                        change.askVotes = []
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

}
