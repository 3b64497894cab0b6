import Foundation

/// What the reducer may look at besides the chat's own state: no I/O, no clock of its own.
public struct DialogueContext: Sendable {
    public var banks: Banks
    public var now: Date
    /// Seeds the shuffles; the runtime derives it from the update id so a replay is identical.
    public var seed: UInt64
    /// 128 random bits from the system (base64url), for an event that makes a challenge link;
    /// the seed is derived from the update id, so it must never make a link.
    public var freshToken: String? = nil
    /// What the edge found for a `/start` challenge link.
    public var challenge: ChallengeLookup? = nil
    /// The bot's username, for the links it hands out (`https://t.me/<username>?start=…`).
    public var botUsername = "PermitReadyBot"
    /// The learner's friends, read by the edge for the events that show them (Friends, Progress, home, menus); nil if not read.
    public var friends: [FriendSummary]? = nil
    /// Others' daily-challenge scores today in the learner's state, read when the daily is answered.
    public var dailyScores: DailyScores? = nil
    /// Today's Daily 5 in the learner's state as first dealt (stored), read when Daily 5 may be
    /// dealt: `.some([])` means none is stored yet, nil that it was not read.
    public var dailySet: [String]? = nil
    /// What the edge's ask index found for typed text (`.textSent`): the card that answers it, if any.
    public var asked: AskLookup? = nil

    public init(banks: Banks, now: Date, seed: UInt64) { self.banks = banks; self.now = now; self.seed = seed }
}
