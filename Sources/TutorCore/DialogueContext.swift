import Foundation
import Synchronization

/// What the reducer may look at besides the chat's own state: no I/O, no clock of its own.
public struct DialogueContext: Sendable {
    public var banks: Banks
    public var now: Date
    /// Seeds the shuffles; the runtime derives it from the update id so a replay is identical.
    public var seed: UInt64
    /// 128 random bits from the system (base64url), for an event that makes a challenge link;
    /// the seed is derived from the update id, so it must never make a link. Drawn by the edge's
    /// look-up when the reducer asks (`freshTokenLookup`), or given (tests).
    public var freshToken: String? {
        get { freshTokenLookup.map { $0.value } ?? givenToken }
        set {
            givenToken = newValue
            freshTokenLookup = nil
        }
    }
    private var givenToken: String? = nil
    public var freshTokenLookup: Lookup<String?>? = nil
    /// What the edge found for a `/start` challenge link.
    public var challenge: ChallengeLookup? = nil
    /// The bot's username, for the links it hands out (`https://t.me/<username>?start=…`).
    public var botUsername = "PermitReadyBot"
    /// The learner's friends (nil: none could be read). Asked for, not guessed: the edge hands
    /// over a look-up (`friendsLookup`) that reads them the first time a screen needs them, so any
    /// screen that shows friends gets them, and an answer that shows none costs no read.
    public var friends: [FriendSummary]? {
        get { friendsLookup.map { $0.value } ?? givenFriends }
        set {
            givenFriends = newValue
            friendsLookup = nil
        }
    }
    private var givenFriends: [FriendSummary]? = nil
    public var friendsLookup: Lookup<[FriendSummary]?>? = nil
    /// Others' Daily 5 scores in a state on a day, with the learner's friends' by name: read by
    /// the edge's look-up when the reducer shows a result (or given, in tests).
    public var dailyScoresLookup: (@Sendable (_ state: String, _ day: LocalDay) -> DailyScores?)? = nil
    /// The sender's first name as Telegram gives it with this update (private chats only).
    public var senderFirstName: String? = nil
    /// Who a friend's news would reach (`sendNews`): nil for a learner who stopped the bot, blocked
    /// it, deleted their data, or could not be read. Without a look-up (tests) news goes at once.
    public var newsRecipientLookup: (@Sendable (_ chatID: Int64) -> NewsRecipient?)? = nil
    public var dailyScores: DailyScores? = nil
    /// A state's Daily 5 on a day as first dealt (stored): `[]` when none is stored yet, nil when
    /// it could not be read. Read when the reducer deals one.
    public var dailySetLookup: (@Sendable (_ state: String, _ day: LocalDay) -> [String]?)? = nil
    public var dailySet: [String]? = nil

    func dailyScores(state: String, day: LocalDay) -> DailyScores? { dailyScoresLookup?(state, day) ?? dailyScores }
    func dailySet(state: String, day: LocalDay) -> [String]? { dailySetLookup?(state, day) ?? dailySet }
    /// What the edge's ask index found for typed text (`.textSent`): the card that answers it, if any.
    public var asked: AskLookup? = nil
    /// The edge's look-up of `Session.pendingAsk` for the state this event picks
    /// (`Dialogue.statePicked`).
    public var pendingAsked: AskLookup? = nil

    public init(banks: Banks, now: Date, seed: UInt64) {
        self.banks = banks
        self.now = now
        self.seed = seed
    }
}

/// A value the edge reads only if the reducer asks for it, at most once per event (the reducer
/// stays free of I/O: the look-up is the edge's, given to it like a dependency).
public final class Lookup<Value: Sendable>: Sendable {
    private enum Loaded {
        case notYet
        case done(Value)
    }
    private let load: @Sendable () -> Value
    private let loaded = Mutex<Loaded>(.notYet)

    public init(_ load: @escaping @Sendable () -> Value) { self.load = load }

    public var value: Value {
        if case .done(let known) = loaded.withLock({ $0 }) { return known }
        let value = load()
        loaded.withLock { $0 = .done(value) }
        return value
    }

    /// Whether the reducer asked (tests: a screen that needs friends asked for them).
    public var wasRead: Bool {
        if case .done = loaded.withLock({ $0 }) { return true }
        return false
    }
}

/// What the edge looks up before reducing an event, besides the typed text itself.
extension Dialogue {
    /// The state an event picks, if it may pick one: what the edge looks a kept question up for
    /// (`Session.pendingAsk`).
    public static func statePicked(by event: Event, session: Session, states: [StateInfo]) -> String? {
        switch event {
        case .buttonTapped(_, .pickState(let code)?, _), .buttonTapped(_, .switchState(let code)?, _): return code
        case .textSent(let text):
            // "wait no i meant georgia" under "Florida — is that right?" picks Georgia.
            return (StateMatcher.match(text, in: states) ?? StateMatcher.statedState(text, in: states))?.code
                ?? session.proposedState
        default: return nil
        }
    }
}
