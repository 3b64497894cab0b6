import Foundation
import Logging
import TelegramAPI
import TutorCore
import TutorStore

/// One row's delivery: the chat's pace and the bot's overall pace first, then the request, then
/// what Telegram's answer means for the row (sent, wait and retry, blocked, given up).
extension OutboxSender {
    /// How long this chat must wait before its next message (and takes the token).
    func chatDelay(_ chatID: Int64) -> Duration {
        let now = ContinuousClock.now
        var pace = chatPace[chatID] ?? (Self.chatBurst, now)
        pace.tokens = min(Self.chatBurst, pace.tokens + (now - pace.at).inSeconds * chatRate)
        pace.at = now
        pace.tokens -= 1
        chatPace[chatID] = pace
        if chatPace.count > 50_000 { chatPace = chatPace.filter { $0.value.tokens < Self.chatBurst - 1 } }
        return pace.tokens >= 0 ? .zero : .seconds(-pace.tokens / chatRate)
    }

    /// Returns true when the chat may go on to its next row (sent, or given up for good).
    func deliver(_ item: OutboxItem, markLater later: Bool) async -> Bool {
        // Computed where a line is logged, not for every delivery (most log nothing).
        var meta: Logger.Metadata {
            ["chat_id": "\(item.chatID)", "method": "\(item.method)", "outbox_id": "\(item.id)"]
        }
        do {
            // Replies are paced per chat as Telegram requires; only bulk (reminders, broadcasts)
            // also takes the global budget, so replies never queue behind it. Taps take neither.
            if item.priority >= 0 {
                let wait = chatDelay(item.chatID)
                if wait > .zero {
                    await waitForPace(until: .now + wait)
                    // Stopped meanwhile: the row stays pending for the next start.
                    if stopped { return false }
                }
                // Telegram said the bot as a whole was over its limit: everyone waits it out —
                // also a message whose slot was taken before the hold began, which then takes a
                // new slot at the lowered pace (slots booked at the old pace reach seconds ahead,
                // and firing them drew hold after hold of 429s, each lowering the pace again).
                while true {
                    if let until = flood.pausedUntil, until > .now {
                        try? await Task.sleep(until: until, clock: .continuous)
                    }
                    relaxPace()
                    let holdBefore = flood.pausedUntil
                    if let slot = overall.takeSlot() { try? await Task.sleep(until: slot, clock: .continuous) }
                    guard let hold = flood.pausedUntil, hold != holdBefore, hold > .now else { break }
                }
            }
            if item.priority >= OutboxItem.bulkPriority, let slot = limiter.takeSlot() {
                try? await Task.sleep(until: slot, clock: .continuous)
            }
            // Attempts, not successes, are what Telegram counted when it said "too many".
            if item.priority >= 0 { flood.sent(at: .now) }
            let messageID = try await send(item)
            if later {
                markLater(item, messageID: messageID)
            } else {
                try await writes.run { [store] in try store.markSent(item, messageID: messageID) }
                queue.remove(item)
            }
            switch item.priority {
            case ..<0: metrics?.tapsAnswered.increment()
            case 0: metrics?.repliesSent.increment()
            default: metrics?.bulkSent.increment()
            }
            return true
        } catch let error as BotAPIError {
            switch error {
            case .retryAfter(let seconds):
                // Within its own pace (a token left after this send) the chat cannot be what was over.
                let atItsPace = (chatPace[item.chatID]?.tokens ?? Self.chatBurst) < 1
                let scope = flood.rateLimited(
                    chat: item.chatID, retryAfter: seconds, chatAtItsPace: atItsPace, at: .now)
                (scope == .bot ? metrics?.rateLimitedBot : metrics?.rateLimitedChat)?.increment()
                if scope == .bot {
                    overall.setRate(flood.pace)
                    metrics?.pacedRate.record(flood.pace ?? 0)
                }
                logger.warning("429 (\(scope.rawValue)): waiting \(seconds) s", metadata: meta)
                let until = clock.now().addingTimeInterval(TimeInterval(seconds))
                await retryLater(item, until: until, error: error)
                return false
            case .blocked:
                metrics?.blocked.increment()
                logger.info("learner blocked the bot; dropping their queue", metadata: meta)
                await write { [store] in try store.dropQueued(chatID: item.chatID) }
                queue.replace(chatID: item.chatID, with: [])
                blockedHandler?(item.chatID)
                return false
            case _ where BotAPI.isNotModified(error):
                await write { [store] in try store.markSent(item, messageID: nil) }
                queue.remove(item)
                return true
            case _ where error.isTransient && item.attempts + 1 < Self.maxAttempts:
                let delay = min(60, 0.5 * pow(2, Double(item.attempts)))
                logger.warning("\(error); retrying in \(delay) s", metadata: meta)
                let until = clock.now().addingTimeInterval(delay)
                await retryLater(item, until: until, error: error)
                return false
            default:
                metrics?.sendFailures.increment()
                logger.error("giving up on a message: \(error)", metadata: meta)
                await giveUp(item, error: error.description)
                return true
            }
        } catch {
            metrics?.sendFailures.increment()
            logger.error("giving up on a message: \(error)", metadata: meta)
            await giveUp(item, error: "\(error)")
            return true
        }
    }

    /// The row waits (the whole chat behind it, keeping order) until `until`, in the store and here.
    func retryLater(_ item: OutboxItem, until: Date, error: BotAPIError) async {
        await write { [store] in try store.retryLater(item, until: until, error: error.description) }
        var held = item
        held.attempts += 1
        held.notBefore = until
        queue.put(held)
    }

    func giveUp(_ item: OutboxItem, error: String) async {
        await write { [store] in try store.markFailed(item, error: error) }
        queue.remove(item)
    }

    /// Raises the overall pace after a quiet while, and lifts it after a long one.
    func relaxPace() {
        let (changed, pace) = flood.relax(at: .now)
        guard changed else { return }
        overall.setRate(pace)
        metrics?.pacedRate.record(pace ?? 0)
        logger.info(
            pace.map { "no 429 for a while: overall pace raised to \(Int($0))/s" }
                ?? "no 429 for a minute: overall pace lifted")
    }
}

enum SendError: Error, CustomStringConvertible {
    case missingPicture(String)
    case chartFailed
    var description: String {
        switch self {
        case .missingPicture(let p): return "sign picture \(p) is missing"
        case .chartFailed: return "the progress chart could not be drawn"
        }
    }
}

extension Duration {
    /// The duration as fractional seconds.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
