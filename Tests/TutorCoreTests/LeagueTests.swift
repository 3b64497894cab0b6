import Foundation
import Testing

@testable import TutorCore

struct LeagueTests {
    static func friend(_ id: Int64, _ name: String, xp: Int, week: LocalDay?, streak: Int = 0, hidden: Bool = false)
        -> FriendSummary
    {
        FriendSummary(
            chatID: id, firstName: name, weekXP: xp, xpWeek: week,
            streak: Streak(current: streak, best: streak, lastDay: LocalDay(Sample.t0, in: League.timeZone)),
            hidden: hidden)
    }

    @Test func weeksStartOnMondayEasternTime() {
        // 2026-11-18 is a Wednesday: its week began Monday the 16th.
        #expect(League.week(of: Sample.t0) == LocalDay(iso: "2026-11-16"))
        // Sunday 23:59 Eastern is still that week; Monday 00:00 Eastern starts the next.
        let mondayEastern = Date(timeIntervalSince1970: 1_795_410_000)  // 2026-11-23 05:00 UTC = 00:00 Eastern
        #expect(League.week(of: mondayEastern) == LocalDay(iso: "2026-11-23"))
        #expect(League.week(of: mondayEastern.addingTimeInterval(-60)) == LocalDay(iso: "2026-11-16"))
    }

    /// Issue #43, item 14: friends already added challenge each other from Friends, no new link
    /// to pass on: "⚔️ Challenge Riley", ten questions, and Riley gets them with a Play button.
    @Test func aFriendIsChallengedFromTheFriendsScreen() throws {
        var sam = Dialogue.newChat(
            chatID: 77, sender: Sender(userID: 77, firstName: "Sam"), isGroup: false, now: Sample.t0)
        sam.learner.stateCode = "NY"
        let riley = FriendSummary(
            chatID: 78, firstName: "Riley", weekXP: 0, xpWeek: nil, streak: Streak(), hidden: false)
        var ctx = ChallengeTests.ctx(token: ChallengeTests.token)
        ctx.friends = [riley]
        var effects: [Effect]
        (sam, effects) = Dialogue.reduce(
            sam, .buttonTapped(callbackID: "f", action: .menu(.friends), messageID: 9), ctx)
        let buttons: [[Button]] =
            effects.compactMap { effect -> [[Button]]? in
                if case .send(let r) = effect, case .friends = r.message { return r.buttons }
                return nil
            }.first ?? []
        let challenge = try #require(
            buttons.joined().first { if case .challengeNamed(name: "Riley") = $0.label { true } else { false } })
        (sam, _) = Dialogue.reduce(sam, .buttonTapped(callbackID: "c", action: challenge.action, messageID: 9), ctx)
        #expect(sam.session.quiz?.mode == .challenge(ChallengeTests.token))
        let news = ChallengeTests.play(&sam, right: 8).compactMap {
            if case .notify(let chat, let r, _) = $0 { (chat, r) } else { nil }
        }
        #expect(news.count == 1 && news.first?.0 == 78)
        #expect(
            news.first?.1.message == .challengedBack(friend: "Sam", questions: 10, back: false),
            "'challenged you', not '… back'")
        // A forged key, or a friend gone since, does nothing but say so.
        let (_, forged) = Dialogue.reduce(
            sam, .buttonTapped(callbackID: "x", action: .challengeFriend("zzzzzz"), messageID: 9), ctx)
        #expect(!forged.contains { if case .notify = $0 { true } else { false } })
    }
}
