import Foundation

/// The weekly friends' league: each learner and their friends, ranked by XP earned this week.
///
/// One week for everyone: Monday 00:00 to Sunday midnight, US Eastern time (friends in different
/// states compare the same seven days). The Friends screen says when that is in the learner's own
/// time zone ("a new week starts Monday 12 am US Eastern: Sunday 9 pm your time").
///
/// Hiding works both ways: a learner who hides is left out of their friends' leagues, sees no
/// league themselves, and can't win one. Their friends see "1 friend is hidden", never who.
public enum League {
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    /// The Monday that starts the league week `instant` falls in.
    public static func week(of instant: Date) -> LocalDay {
        let day = LocalDay(instant, in: timeZone)
        // Day 0 (1970-01-01) was a Thursday: three days after a Monday.
        return day.adding(days: -(((day.ordinal + 3) % 7 + 7) % 7))
    }

    /// The instant the league week starting on `monday` begins.
    public static func start(of monday: LocalDay) -> Date { Nudges.instant(monday, minute: 0, in: timeZone) }

    static func xp(inWeek week: LocalDay, weekXP: Int, xpWeek: LocalDay?, prevWeekXP: Int) -> Int {
        if xpWeek == week { return weekXP }
        if xpWeek == week.adding(days: 7) { return prevWeekXP }
        return 0
    }

    /// Ranked entries (most XP first; ties by name), the learner among them.
    public static func standings(me: LeagueEntry, friends: [LeagueEntry]) -> [LeagueEntry] {
        (friends + [me]).sorted { a, b in
            a.xp != b.xp ? a.xp > b.xp : (a.name, a.isYou ? 1 : 0) < (b.name, b.isYou ? 1 : 0)
        }
    }

    /// The learner's line in ranked `table`: places are shared on equal XP ("tied with Ava and Kai").
    static func line(in table: [LeagueEntry], hiddenFriends: Int) -> LeagueLine? {
        guard table.count > 1, let me = table.first(where: \.isYou) else { return nil }
        let above = table.filter { $0.xp > me.xp }
        let tied = table.filter { !$0.isYou && $0.xp == me.xp }.map(\.name)
        return LeagueLine(
            place: above.count + 1, of: table.count, xp: me.xp, aheadName: above.last?.name,
            aheadBy: above.last.map { $0.xp - me.xp } ?? 0, tiedWith: tied, hiddenFriends: hiddenFriends,
            nobodyScored: table.allSatisfy { $0.xp == 0 })
    }

    /// Who won the week ranked in `table` (most XP, above 0; everyone sharing the top).
    static func winners(of table: [LeagueEntry]) -> LeagueWeekWinners? {
        guard let top = table.map(\.xp).max(), top > 0 else { return nil }
        let best = table.filter { $0.xp == top }
        return LeagueWeekWinners(
            friends: best.filter { !$0.isYou }.map(\.name), you: best.contains(where: \.isYou), xp: top)
    }
}

/// What the edge reads of one friend for the Friends screen and the league (nothing else about
/// them reaches the learner: first name, this week's XP, streak).
/// What news for another learner needs to know of them: their time zone (or state, for its
/// zone) for their quiet hours, and whether they are using the bot right now.
public struct NewsRecipient: Equatable, Sendable {
    public var timeZone: String?
    public var stateCode: String?
    public var lastActive: Date

    public init(timeZone: String?, stateCode: String?, lastActive: Date) {
        self.timeZone = timeZone
        self.stateCode = stateCode
        self.lastActive = lastActive
    }
}

public struct FriendSummary: Equatable, Sendable {
    public var chatID: Int64
    public var firstName: String
    public var weekXP: Int
    /// The league week `weekXP` was earned in (an older week counts as 0 now).
    public var xpWeek: LocalDay?
    public var streak: Streak
    /// Asked to be left out of their friends' leagues.
    public var hidden: Bool
    public var prevWeekXP: Int = 0
    /// Their own time zone and state (their streak is kept by their own days).
    public var timeZone: String? = nil
    public var stateCode: String? = nil

    /// No longer a friend (removed this week): counted only in last week's league.
    public var removedThisWeek: Bool = false
    /// Their latest challenge still open that this learner hasn't played (its token): Friends
    /// offers it, so a challenge whose news scrolled away can be found again.
    public var openChallenge: String? = nil

    public func with(openChallenge token: String?) -> FriendSummary {
        var f = self
        f.openChallenge = token
        return f
    }

    public func with(prevWeekXP: Int, zone: String? = nil, state: String? = nil, removed: Bool = false) -> FriendSummary
    {
        var f = self
        f.prevWeekXP = prevWeekXP
        f.timeZone = zone
        f.stateCode = state
        f.removedThisWeek = removed
        return f
    }

    public init(chatID: Int64, firstName: String, weekXP: Int, xpWeek: LocalDay?, streak: Streak, hidden: Bool) {
        self.chatID = chatID
        self.firstName = firstName
        self.weekXP = weekXP
        self.xpWeek = xpWeek
        self.streak = streak
        self.hidden = hidden
    }

    /// Earned in league week `week` (0 for a week they didn't study; their last two are kept).
    public func xp(inWeek week: LocalDay) -> Int {
        League.xp(inWeek: week, weekXP: weekXP, xpWeek: xpWeek, prevWeekXP: prevWeekXP)
    }
}

public struct LeagueEntry: Equatable, Sendable {
    public var name: String
    public var xp: Int
    public var streak: Int
    public var isYou: Bool
    public init(name: String, xp: Int, streak: Int, isYou: Bool) {
        self.name = name
        self.xp = xp
        self.streak = streak
        self.isYou = isYou
    }
}

/// "2nd of 5 · 340 XP · Jordan is 40 XP ahead" (Progress, Home, Friends).
public struct LeagueLine: Equatable, Sendable {
    /// Shared on equal XP: two learners on 300 XP behind one on 340 are both 2nd.
    public var place: Int
    /// Everyone ranked, the learner included.
    public var of: Int
    public var xp: Int
    /// The friend just ahead and by how much (nil when first).
    public var aheadName: String?
    public var aheadBy: Int
    /// Whether today's Daily 5 could settle it: the friend ahead gets the same five (same state)
    /// and the learner hasn't played today's yet. Set by the screen that knows both.
    public var dailyCanSettleIt = false
    /// Friends on the same XP ("tied with Ava and Kai").
    public var tiedWith: [String] = []
    /// Friends left out because they hide (said as a count, never who).
    public var hiddenFriends: Int = 0
    /// A new week nobody has earned XP in yet (no one leads; "1st" would mean nothing).
    public var nobodyScored: Bool = false
}

/// Where the learner stands this week, for Home, Progress and the Friends screen.
public enum LeagueStanding: Equatable, Sendable {
    /// No friends yet: an invitation, not an empty table.
    case noFriends
    /// The learner hides from their friends' leagues, so there is no league for them either.
    case youHide(friends: Int)
    /// Every friend hides: nobody to compare with.
    case friendsHidden(Int)
    case ranked(LeagueLine)

    public var line: LeagueLine? { if case .ranked(let l) = self { l } else { nil } }
}

/// Last week's league as the learner first saw it this week, kept in the session.
public struct LastWeekSnapshot: Codable, Equatable, Sendable {
    /// The Monday of the week it was read in.
    public var readInWeek: LocalDay
    public var winners: LeagueWeekWinners?
}

/// Last week's league: who had the most XP (several on a tie), and whether that was the learner.
public struct LeagueWeekWinners: Codable, Equatable, Sendable {
    public var friends: [String]
    public var you: Bool
    public var xp: Int
}

/// The Friends screen: the league this week (unless the learner hides), last week's winner, and
/// each friend the learner can see, to remove.
public struct FriendsView: Equatable, Sendable {
    public var standings: [LeagueEntry]
    public var standing: LeagueStanding
    /// Friends shown by name (in league order), each with a Remove button.
    public var friendNames: [String]
    /// The learner hides from their friends' leagues (Settings).
    public var hidden: Bool
    public var lastWeek: LeagueWeekWinners? = nil
    /// When the next league week starts in the learner's own time zone, if that isn't US Eastern:
    /// weekday (1 = Sunday … 7 = Saturday) and minute of the day.
    public var weekStartsLocal: LocalWeekTime? = nil
    /// Set after a removal: "Removed Jordan."
    public var removed: String? = nil
}

public struct LocalWeekTime: Equatable, Sendable {
    public var weekday: Int
    public var minute: Int
}

/// "Remove Jordan from your friends?"
public struct ConfirmUnfriendView: Equatable, Sendable {
    public var name: String
}
