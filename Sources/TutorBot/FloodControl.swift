import Foundation

/// What the sender learned from Telegram's 429s. Telegram's answer does not say which limit was
/// hit (the chat's ~1/s or the bot's overall one), so the sender infers it: a 429 for a chat that
/// was within its own pace (the sender keeps every chat under Telegram's per-chat limit) is the
/// bot's, and so are 429s for two or more different chats within a second; only a lone 429 for a
/// chat that had just used its burst is that chat's. When in doubt the bot waits: every chat
/// pausing for retry_after costs a second or two, while sending on through a bot-wide wait makes
/// Telegram lengthen its waits.
/// A chat-scope 429 holds only that chat for retry_after. A bot-scope 429 holds every message for
/// retry_after and sets an overall pace at 70% of what was being sent, but never above 80% of
/// Telegram's documented ~30/s (a burst of a thousand replies "attempts" hundreds a second, and
/// 70% of that took several holds of more 429s to come down, each lowering the pace again, to the
/// floor); each quiet `raiseEvery` the pace rises 10% (at least 1/s), and after `releaseAfter`
/// with no 429 it is lifted again.
struct FloodControl {
    var recent429s: [(chat: Int64, at: ContinuousClock.Instant)] = []
    var sends: [ContinuousClock.Instant] = []
    var pausedUntil: ContinuousClock.Instant?
    var pace: Double?
    var lastLowered: ContinuousClock.Instant?
    var lastBot429: ContinuousClock.Instant?
    var lastChange: ContinuousClock.Instant?
    static let raiseEvery = Duration.seconds(5)
    static let releaseAfter = Duration.seconds(60)
    static let window = Duration.seconds(1)
    /// Telegram's overall limit is about 30/s; no backing-off goes below this.
    static let minimumPace = 5.0
    /// Telegram's documented overall limit: the first pace starts under it.
    static let telegramOverall = 30.0

    enum Scope: String { case chat, bot }

    mutating func sent(at now: ContinuousClock.Instant) {
        sends.append(now)
        if sends.count > 4_096 { sends.removeFirst(sends.count - 2_048) }
    }

    /// Records a 429 and says whose it was; a bot-scope one also lowers the pace (once per window).
    /// `chatAtItsPace`: the chat had used its burst, so the 429 may be its own.
    mutating func rateLimited(chat: Int64, retryAfter: Int, chatAtItsPace: Bool, at now: ContinuousClock.Instant)
        -> Scope
    {
        recent429s.removeAll { now - $0.at > Self.window }
        recent429s.append((chat, now))
        guard !chatAtItsPace || Set(recent429s.map(\.chat)).count >= 2 else { return .chat }
        let until = now + .seconds(retryAfter)
        pausedUntil = max(pausedUntil ?? until, until)
        // Lowered once per hold: the 429s of requests already in flight say nothing new.
        lastBot429 = now
        if lastLowered.map({ now - $0 > .seconds(retryAfter) + Self.window }) ?? true {
            let recentRate = Double(sends.filter { now - $0 <= .seconds(2) }.count) / 2
            pace = max(Self.minimumPace, pace.map { 0.7 * $0 } ?? min(0.7 * recentRate, 0.8 * Self.telegramOverall))
            lastChange = now
            lastLowered = now
        }
        return .bot
    }

    /// Raises or lifts the pace after quiet time; returns the new pace if it changed.
    mutating func relax(at now: ContinuousClock.Instant) -> (changed: Bool, pace: Double?) {
        guard let current = pace, let limited = lastBot429 else { return (false, pace) }
        if now - limited >= Self.releaseAfter {
            pace = nil
            lastChange = now
            return (true, nil)
        }
        if let changed = lastChange, now - changed >= Self.raiseEvery {
            // Up to 90% of Telegram's documented limit; beyond it only the lift (after a quiet
            // minute) probes, since raising past 30/s drew a hold of 429s every half minute.
            pace = max(current, min(max(current * 1.1, current + 1), 0.9 * Self.telegramOverall))
            if pace == current { return (false, pace) }
            lastChange = now
            return (true, pace)
        }
        return (false, pace)
    }
}
