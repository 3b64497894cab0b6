import Foundation

/// The weekly friends' league: each learner and their friends, ranked by XP earned this week.
///
/// One week for everyone: Monday 00:00 to Sunday midnight, US Eastern time (friends in different
/// states compare the same seven days; said plainly on the Friends screen).
public enum League {
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    /// The Monday that starts the league week `instant` falls in.
    public static func week(of instant: Date) -> LocalDay {
        let day = LocalDay(instant, in: timeZone)
        // Day 0 (1970-01-01) was a Thursday: three days after a Monday.
        return day.adding(days: -(((day.ordinal + 3) % 7 + 7) % 7))
    }

    static func xp(inWeek week: LocalDay, weekXP: Int, xpWeek: LocalDay?, prevWeekXP: Int) -> Int {
        if xpWeek == week { return weekXP }
        if xpWeek == week.adding(days: 7) { return prevWeekXP }
        return 0
    }

    /// Ranked entries (most XP first; ties by name), the learner among them.
    public static func standings(me: LeagueEntry, friends: [LeagueEntry]) -> [LeagueEntry] {
        (friends + [me]).sorted { a, b in a.xp != b.xp ? a.xp > b.xp : (a.name, a.isYou ? 1 : 0) < (b.name, b.isYou ? 1 : 0) }
    }
}

/// What the edge reads of one friend for the Friends screen and the league (nothing else about
/// them reaches the learner: first name, this week's XP, streak).
public struct FriendSummary: Equatable, Sendable {
    public var chatID: Int64
    public var firstName: String
    public var weekXP: Int
    /// The league week `weekXP` was earned in (an older week counts as 0 now).
    public var xpWeek: LocalDay?
    public var streak: Streak
    /// Asked to be left out of their friends' leagues.
    public var hidden: Bool

    public func with(prevWeekXP: Int) -> FriendSummary { var f = self; f.prevWeekXP = prevWeekXP; return f }

    public init(chatID: Int64, firstName: String, weekXP: Int, xpWeek: LocalDay?, streak: Streak, hidden: Bool) {
        self.chatID = chatID; self.firstName = firstName; self.weekXP = weekXP; self.xpWeek = xpWeek; self.streak = streak; self.hidden = hidden
    }

    /// Earned in league week `week` (0 for a week they didn't study; their last two are kept).
    public func xp(inWeek week: LocalDay) -> Int { League.xp(inWeek: week, weekXP: weekXP, xpWeek: xpWeek, prevWeekXP: prevWeekXP) }
    public var prevWeekXP: Int = 0
}

public struct LeagueEntry: Equatable, Sendable {
    public var name: String
    public var xp: Int
    public var streak: Int
    public var isYou: Bool
    public init(name: String, xp: Int, streak: Int, isYou: Bool) { self.name = name; self.xp = xp; self.streak = streak; self.isYou = isYou }
}

/// "2nd of 5 · 340 XP · Jordan is 40 XP ahead" (Progress), or the invitation when alone.
public struct LeagueLine: Equatable, Sendable {
    public var place: Int
    public var of: Int
    public var xp: Int
    /// The friend just ahead and by how much (nil when first).
    public var aheadName: String?
    public var aheadBy: Int
}

/// The Friends screen: the league this week, and each friend to remove.
public struct FriendsView: Equatable, Sendable {
    public var standings: [LeagueEntry]
    public var line: LeagueLine?
    public var friendNames: [String]
    /// The learner hides from their friends' leagues (Settings).
    public var hidden: Bool
    /// Set after a removal: "Removed Jordan."
    public var removed: String? = nil
}

extension Reduction {
    var leagueWeek: LocalDay { League.week(of: ctx.now) }

    /// This learner's XP this league week.
    var weekXP: Int { learner.xpWeek == leagueWeek ? learner.weekXP : 0 }

    /// The league with the friends the edge loaded (nil: not loaded for this event).
    func leagueLine(_ loaded: [FriendSummary]? = nil) -> LeagueLine? {
        guard let friends = loaded ?? ctx.friends else { return nil }
        let me = LeagueEntry(name: Self.firstNameOnly(learner.firstName), xp: weekXP, streak: learner.streak.current(on: today), isYou: true)
        let table = League.standings(me: me, friends: visible(friends))
        guard table.count > 1, let i = table.firstIndex(where: \.isYou) else { return nil }
        return LeagueLine(place: i + 1, of: table.count, xp: weekXP, aheadName: i > 0 ? table[i - 1].name : nil,
                          aheadBy: i > 0 ? table[i - 1].xp - weekXP : 0)
    }

    func visible(_ friends: [FriendSummary]) -> [LeagueEntry] {
        friends.filter { !$0.hidden }.map {
            LeagueEntry(name: Self.firstNameOnly($0.firstName), xp: $0.xp(inWeek: leagueWeek),
                        streak: $0.streak.current(on: LocalDay(ctx.now, in: League.timeZone)), isYou: false)
        }
    }

    mutating func showFriends(removed: String? = nil, friends loaded: [FriendSummary]? = nil) {
        guard let friends = loaded ?? ctx.friends else { return showHome() }
        awardLastWeeksWinner()
        state.session.screen = .friends
        let me = LeagueEntry(name: Self.firstNameOnly(learner.firstName), xp: weekXP, streak: learner.streak.current(on: today), isYou: true)
        let view = FriendsView(standings: League.standings(me: me, friends: visible(friends)), line: leagueLine(friends),
                               friendNames: friends.map { Self.firstNameOnly($0.firstName) }, hidden: learner.hideFromFriends, removed: removed)
        var rows: [[Button]] = friends.enumerated().map { [Button(.removeFriend(name: Self.firstNameOnly($1.firstName)), .removeFriend($0))] }
        rows.append([Button(.challengeFriend, .menu(.challenge))])
        rows.append([Button(.home, .menu(.home))])
        send(.friends(view), buttons: rows)
    }

    /// "✖ Remove Jordan": both sides stop being friends; by position in the list the edge loaded
    /// (never a chat id in a button).
    mutating func removeFriend(at index: Int, callbackID: String) {
        guard var friends = ctx.friends, friends.indices.contains(index) else { return stale(callbackID) }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        let gone = friends.remove(at: index)
        effects.append(.unfriend(gone.chatID))
        showFriends(removed: Self.firstNameOnly(gone.firstName), friends: friends)
    }

    /// XP also counts toward this week's league.
    mutating func addWeekXP(_ points: Int) {
        if learner.xpWeek != leagueWeek {
            state.learner.prevWeekXP = learner.xpWeek == leagueWeek.adding(days: -7) ? learner.weekXP : 0
            state.learner.xpWeek = leagueWeek; state.learner.weekXP = 0
        }
        state.learner.weekXP += points
    }

    /// Last week's winner (most XP, ahead of at least one visible friend who studied) gets the
    /// badge, the first time friends are read in the new week.
    mutating func awardLastWeeksWinner() {
        guard let friends = ctx.friends, !learner.badges.contains(.leagueWinner) else { return }
        let last = leagueWeek.adding(days: -7)
        let mine = League.xp(inWeek: last, weekXP: learner.weekXP, xpWeek: learner.xpWeek, prevWeekXP: learner.prevWeekXP)
        let theirs = friends.filter { !$0.hidden }.map { $0.xp(inWeek: last) }
        guard mine > 0, theirs.contains(where: { $0 > 0 }), theirs.allSatisfy({ $0 < mine }) else { return }
        award(.leagueWinner)
    }
}
