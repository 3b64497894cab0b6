import Foundation
import Testing

@testable import TutorCore

/// Issue #25's league after its play-test: places shared on a tie, hiding both ways (and never
/// naming who hides), Remove asks first and names its friend by a key, last week's winner said.
struct LeagueScreenTests {
    static let thisWeek = League.week(of: Sample.t0)
    static func friend(_ id: Int64, _ name: String, xp: Int, week: LocalDay? = thisWeek, hidden: Bool = false)
        -> FriendSummary
    {
        LeagueTests.friend(id, name, xp: xp, week: week, hidden: hidden)
    }

    static func chat(xp: Int, state: String = "NY") -> ChatState {
        var s = Sample.newChat()
        s.learner.stateCode = state
        s.learner.weekXP = xp
        s.learner.xpWeek = thisWeek
        return s
    }

    static func tap(_ s: inout ChatState, _ action: ButtonAction, friends: [FriendSummary], now: Date = Sample.t0)
        -> [Effect]
    {
        var ctx = Sample.context(now)
        ctx.friends = friends
        let (next, effects) = Dialogue.reduce(s, .buttonTapped(callbackID: "cb", action: action, messageID: 9), ctx)
        s = next
        return effects
    }

    static func screen(_ effects: [Effect]) -> (FriendsView, [[Button]])? {
        for e in effects.reversed() {
            if case .send(let r) = e, case .friends(let v) = r.message { return (v, r.buttons) }
        }
        return nil
    }

    static func removals(_ buttons: [[Button]]) -> [(name: String, key: String)] {
        // Each friend's row: "⚔️ Challenge Ava" then "✖ Remove Ava".
        buttons.compactMap { row in
            guard let remove = row.first(where: { if case .removeFriend = $0.label { true } else { false } }),
                case .removeFriend(let name) = remove.label, case .removeFriend(let key) = remove.action
            else { return nil }
            return (name, key)
        }
    }

    @Test func theTableSkipsWhoHidesSaysHowManyAndRemoveButtonsFollowIt() throws {
        var s = Self.chat(xp: 300)
        let friends = [
            Self.friend(501, "Jordan Lee", xp: 340),
            Self.friend(502, "Ava", xp: 900, week: Self.thisWeek.adding(days: -7)),
            Self.friend(503, "Kai", xp: 999, hidden: true), Self.friend(504, "Zoe", xp: 500),
        ]
        let (view, buttons) = try #require(Self.screen(Self.tap(&s, .menu(.friends), friends: friends)))
        #expect(view.standings.map(\.name) == ["Zoe", "Jordan", "Sam", "Ava"], "Kai hides; Ava's XP was last week's")
        #expect(
            view.standing
                == .ranked(
                    LeagueLine(
                        place: 3, of: 4, xp: 300, aheadName: "Jordan", aheadBy: 40, tiedWith: [], hiddenFriends: 1)))
        // Everyone can be removed (a friend who hides too): the table's order, then who hides.
        #expect(Self.removals(buttons).map(\.name) == ["Zoe", "Jordan", "Ava", "Kai"])
        #expect(
            Set(Self.removals(buttons).map(\.key)).count == 4 && Self.removals(buttons).allSatisfy { $0.key.count == 6 }
        )
    }

    @Test func equalXPIsATieNotZeroXPAhead() throws {
        var s = Self.chat(xp: 340)
        let (view, _) = try #require(
            Self.screen(
                Self.tap(
                    &s, .menu(.friends),
                    friends: [Self.friend(501, "Ava", xp: 340), Self.friend(502, "Jordan", xp: 400)])))
        #expect(
            view.standing.line
                == LeagueLine(
                    place: 2, of: 3, xp: 340, aheadName: "Jordan", aheadBy: 60, tiedWith: ["Ava"], hiddenFriends: 0))
        var t = Self.chat(xp: 400)
        let (top, _) = try #require(
            Self.screen(
                Self.tap(
                    &t, .menu(.friends), friends: [Self.friend(501, "Ava", xp: 400), Self.friend(502, "Kai", xp: 400)]))
        )
        #expect(
            top.standing.line?.place == 1 && top.standing.line?.tiedWith == ["Ava", "Kai"]
                && top.standing.line?.aheadName == nil,
            "everyone in a tie is named")
        // A new week nobody has earned in: no one leads.
        var u = Self.chat(xp: 0)
        let (fresh, _) = try #require(
            Self.screen(
                Self.tap(
                    &u, .menu(.friends), friends: [Self.friend(501, "Ava", xp: 0), Self.friend(502, "Kai", xp: 0)])))
        #expect(fresh.standing.line?.nobodyScored == true)
    }

    @Test func removingAsksFirstAndAKeyFromAnOldScreenRemovesItsOwnFriendOrNobody() throws {
        var s = Self.chat(xp: 300)
        let friends = [Self.friend(501, "Jordan", xp: 340), Self.friend(502, "Ava", xp: 100)]
        let (_, buttons) = try #require(Self.screen(Self.tap(&s, .menu(.friends), friends: friends)))
        let ava = try #require(Self.removals(buttons).first { $0.name == "Ava" })
        // The first tap asks; nothing is removed yet.
        var effects = Self.tap(&s, .removeFriend(ava.key), friends: friends)
        #expect(!effects.contains { if case .unfriend = $0 { true } else { false } })
        guard case .send(let ask)? = effects.last, case .confirmUnfriend(let confirm) = ask.message else {
            Issue.record("no confirmation")
            return
        }
        #expect(confirm.name == "Ava" && ask.buttons.first?.first?.action == .unfriend(ava.key))
        // Meanwhile Jordan's list changed order (Ava now leads): the old key still means Ava.
        let reordered = [Self.friend(502, "Ava", xp: 900), Self.friend(501, "Jordan", xp: 340)]
        effects = Self.tap(&s, .unfriend(ava.key), friends: reordered)
        #expect(effects.contains(.unfriend(502)) && !effects.contains(.unfriend(501)))
        let (after, _) = try #require(Self.screen(effects))
        #expect(after.removed == "Ava" && after.friendNames == ["Jordan"])
        // A forged or spent key is a stale button, never a removal.
        for key in ["zzzzzz", ava.key] {
            effects = Self.tap(&s, .unfriend(key), friends: [Self.friend(501, "Jordan", xp: 340)])
            #expect(!effects.contains { if case .unfriend = $0 { true } else { false } })
            #expect(effects.contains(.answerButton(callbackID: "cb", toast: .staleButton)))
        }
        // Jordan removed Sam first: Sam's "Yes, remove Jordan" just shows the list, not "an earlier screen".
        let (_, now) = try #require(
            Self.screen(Self.tap(&s, .menu(.friends), friends: [Self.friend(501, "Jordan", xp: 340)])))
        let jordan = try #require(Self.removals(now).first)
        effects = Self.tap(&s, .unfriend(jordan.key), friends: [])
        #expect(
            !effects.contains(.answerButton(callbackID: "cb", toast: .staleButton))
                && Self.screen(effects)?.0.standing == .noFriends)
        #expect(
            effects.contains(.answerButton(callbackID: "cb", toast: .friendAlreadyGone)), "the redrawn list says why")
        #expect(ButtonAction(callbackData: ButtonAction.unfriend("ab3dk9").callbackData) == .unfriend("ab3dk9"))
        #expect(ButtonAction(callbackData: "1u:501") == nil && ButtonAction(callbackData: "1f:AB'--") == nil)
    }

    @Test func hidingWorksBothWaysAndAHiddenLearnerCantWin() throws {
        var s = Self.chat(xp: 300)
        var effects = Self.tap(&s, .menu(.toggleHideFromFriends), friends: [])
        #expect(s.learner.hideFromFriends && effects.contains(.send(Reply(.notice(.hiddenFromLeague)))))
        let friends = [Self.friend(501, "Jordan", xp: 340), Self.friend(502, "Ava", xp: 100)]
        let (view, buttons) = try #require(Self.screen(Self.tap(&s, .menu(.friends), friends: friends)))
        #expect(view.standing == .youHide(friends: 2) && view.standings.isEmpty && view.lastWeek == nil)
        #expect(Self.removals(buttons).map(\.name) == ["Ava", "Jordan"], "their friends, by name, to remove")
        effects = Self.tap(&s, .menu(.home), friends: friends)
        guard case .send(let home)? = effects.last, case .home(let h) = home.message else {
            Issue.record("no home")
            return
        }
        #expect(h.league == nil)
        // Last week they had the most: no badge for a league nobody saw them in.
        var w = Self.chat(xp: 0)
        w.learner.hideFromFriends = true
        w.learner.weekXP = 900
        w.learner.xpWeek = Self.thisWeek.adding(days: -7)
        _ = Self.tap(
            &w, .menu(.home), friends: [Self.friend(501, "Jordan", xp: 300, week: Self.thisWeek.adding(days: -7))])
        #expect(!w.learner.badges.contains(.leagueWinner))
    }

    @Test func friendsWhoAllHideAreNotNoFriends() throws {
        var s = Self.chat(xp: 300)
        let effects = Self.tap(&s, .menu(.progress), friends: [Self.friend(501, "Jordan", xp: 340, hidden: true)])
        guard
            let p = effects.lazy.compactMap({ e -> ProgressView? in
                if case .send(let r) = e, case .progress(let v) = r.message { return v }
                return nil
            }).first
        else {
            Issue.record("no progress")
            return
        }
        #expect(p.league == .friendsHidden(1), "not the invitation to find friends")
        let none = Self.tap(&s, .menu(.progress), friends: [])
        #expect(
            none.contains {
                if case .send(let r) = $0, case .progress(let v) = r.message { v.league == .noFriends } else { false }
            })
    }

    @Test func lastWeeksWinnerIsSaidOnTheFriendsScreenAndOnMondaysHome() throws {
        let monday = League.start(of: Self.thisWeek.adding(days: 7)).addingTimeInterval(3600)  // next Monday 1 am Eastern
        var s = Self.chat(xp: 200)  // this week's 200 becomes last week's on Monday
        let friends = [Self.friend(501, "Jordan", xp: 420), Self.friend(502, "Ava", xp: 50)]
        let (view, _) = try #require(Self.screen(Self.tap(&s, .menu(.friends), friends: friends, now: monday)))
        #expect(view.lastWeek == LeagueWeekWinners(friends: ["Jordan"], you: false, xp: 420))
        // Removing Jordan later this week doesn't rewrite who won it.
        let (again, _) = try #require(
            Self.screen(Self.tap(&s, .menu(.friends), friends: [Self.friend(502, "Ava", xp: 50)], now: monday + 7200)))
        #expect(again.lastWeek == view.lastWeek)
        let effects = Self.tap(&s, .menu(.home), friends: friends, now: monday)
        guard case .send(let home)? = effects.last, case .home(let h) = home.message else {
            Issue.record("no home")
            return
        }
        #expect(h.lastWeek?.friends == ["Jordan"])
        // Tuesday's home no longer says it.
        let tuesday = Self.tap(&s, .menu(.home), friends: friends, now: monday.addingTimeInterval(86_400))
        guard case .send(let later)? = tuesday.last, case .home(let t) = later.message else {
            Issue.record("no home")
            return
        }
        #expect(t.lastWeek == nil)
    }

    /// 11:05 pm Sunday in California is already Monday in New York: a Californian friend's streak,
    /// alive by their own days, must not read as broken (the play-test saw "🔥 6" vanish at Eastern midnight).
    @Test func aFriendsStreakCountsByTheirOwnDays() throws {
        let lateSunday = Date(timeIntervalSince1970: 1_796_627_100)  // 2026-12-07 07:05 UTC: Sunday 11:05 pm Pacific
        let s = Self.chat(xp: 10)
        var texan = FriendSummary(
            chatID: 501, firstName: "Maya", weekXP: 0, xpWeek: nil,
            streak: Streak(current: 6, best: 6, lastDay: LocalDay(iso: "2026-12-05")), hidden: false)
        texan = texan.with(prevWeekXP: 0, state: "CA")
        var ctx = Sample.context(lateSunday)
        ctx.friends = [texan]
        let (_, effects) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "f", action: .menu(.friends), messageID: 1), ctx)
        let (view, _) = try #require(Self.screen(effects))
        #expect(view.standings.first { $0.name == "Maya" }?.streak == 6)
    }

    /// The play-test's bug A: Ava (645 XP) removed Maya (429) on Monday before Maya looked, and
    /// Maya was told she had won. Friends removed this week still count for last week.
    @Test func aFriendRemovedThisWeekStillCountsForLastWeek() throws {
        let monday = League.start(of: Self.thisWeek.adding(days: 7)).addingTimeInterval(9 * 3600)
        var s = Self.chat(xp: 429)  // this week's 429 is last week's on Monday
        let ava = Self.friend(501, "Ava", xp: 645).with(prevWeekXP: 0, removed: true)
        var ctx = Sample.context(monday)
        ctx.friends = [ava, Self.friend(502, "Jordan", xp: 100)]
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(s, .buttonTapped(callbackID: "f", action: .menu(.friends), messageID: 1), ctx)
        let (view, buttons) = try #require(Self.screen(effects))
        #expect(view.lastWeek == LeagueWeekWinners(friends: ["Ava"], you: false, xp: 645))
        #expect(!s.learner.badges.contains(.leagueWinner))
        #expect(
            !view.standings.contains { $0.name == "Ava" } && Self.removals(buttons).map(\.name) == ["Jordan"],
            "not a friend now")
    }

    @Test func theWeekBoundaryIsGivenInTheLearnersOwnTime() throws {
        var s = Self.chat(xp: 10, state: "CA")
        let (view, _) = try #require(
            Self.screen(Self.tap(&s, .menu(.friends), friends: [Self.friend(501, "Jordan", xp: 5)])))
        #expect(
            view.weekStartsLocal == LocalWeekTime(weekday: 1, minute: 21 * 60),
            "Monday 12 am Eastern is Sunday 9 pm in California")
        var n = Self.chat(xp: 10, state: "NY")
        let (east, _) = try #require(
            Self.screen(Self.tap(&n, .menu(.friends), friends: [Self.friend(501, "Jordan", xp: 5)])))
        #expect(east.weekStartsLocal == nil)
    }

    @Test func lastWeeksWinnerGetsTheBadgeOnce() {
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        let thisWeek = League.week(of: Sample.t0)
        let lastWeek = thisWeek.adding(days: -7)
        s.learner.weekXP = 500
        s.learner.xpWeek = lastWeek
        var ctx = Sample.context()
        // Jordan studied this week already: his last week's 300 is kept as prevWeekXP.
        ctx.friends = [
            LeagueTests.friend(501, "Jordan", xp: 40, week: thisWeek).with(prevWeekXP: 300),
            LeagueTests.friend(502, "Ava", xp: 0, week: nil),
        ]
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(s, .buttonTapped(callbackID: "h", action: .menu(.home), messageID: 1), ctx)
        #expect(s.learner.badges.contains(.leagueWinner) && effects.contains(.send(Reply(.badgeEarned(.leagueWinner)))))
        // A week where a friend had more: no badge.
        var t = Sample.newChat()
        t.learner.stateCode = "NY"
        t.learner.weekXP = 200
        t.learner.xpWeek = lastWeek
        (t, _) = Dialogue.reduce(t, .buttonTapped(callbackID: "h", action: .menu(.home), messageID: 1), ctx)
        #expect(!t.learner.badges.contains(.leagueWinner))
        // Earning XP in a new week keeps last week's figure.
        var u = Sample.newChat()
        u.learner.stateCode = "NY"
        u.learner.weekXP = 120
        u.learner.xpWeek = lastWeek
        (u, _) = Dialogue.reduce(
            u, .buttonTapped(callbackID: "q", action: .menu(.quickQuiz), messageID: 1), Sample.context())
        let q = Sample.banks.question(u.session.quiz!.currentQuestionID)!
        (u, _) = Dialogue.reduce(
            u,
            .buttonTapped(
                callbackID: "a", action: .answer(quiz: u.session.quiz!.id, question: 0, option: q.correctAnswerIndex),
                messageID: 2), Sample.context())
        #expect(u.learner.prevWeekXP == 120 && u.learner.xpWeek == thisWeek && u.learner.weekXP > 0)
    }
}
