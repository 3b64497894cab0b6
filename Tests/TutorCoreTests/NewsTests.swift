import Foundation
import Testing

@testable import TutorCore

/// A friend's news (#44): the reducer asks who it would reach and holds it in their quiet hours;
/// the edge no longer filters and holds it behind the reducer's back.
struct NewsTests {
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// 11 pm in New York on the sample day.
    static var lateEvening: Date {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = newYork
        return c.date(bySettingHour: 23, minute: 0, second: 0, of: Sample.t0)!
    }

    func news(_ recipient: NewsRecipient?, lookup: Bool = true, at now: Date = lateEvening) -> [Effect] {
        var ctx = Sample.context(now)
        if lookup { ctx.newsRecipientLookup = { _ in recipient } }
        var r = Reduction(state: Sample.newChat(), ctx: ctx)
        r.sendNews(to: 501, Reply(.notice(.resumed), bulk: true))
        return r.effects.filter { if case .notify = $0 { true } else { false } }
    }

    @Test func newsWaitsOutTheRecipientsQuietHours() throws {
        let away = NewsRecipient(timeZone: "America/New_York", stateCode: "NY", lastActive: Self.lateEvening - 7200)
        guard case .notify(let chat, _, let held)? = news(away).first else {
            Issue.record("no news")
            return
        }
        #expect(chat == 501)
        let until = try #require(held, "11 pm their time: held")
        var c = Calendar(identifier: .gregorian)
        c.timeZone = Self.newYork
        #expect(c.component(.hour, from: until) == 8 && until > Self.lateEvening && until < Self.lateEvening + 86_400)
    }

    @Test func aRecipientUsingTheBotNowGetsItAtOnce() {
        let here = NewsRecipient(timeZone: "America/New_York", stateCode: "NY", lastActive: Self.lateEvening - 600)
        guard case .notify(_, _, let held)? = news(here).first else {
            Issue.record("no news")
            return
        }
        #expect(held == nil)
    }

    @Test func noRecipientNoNews() {
        #expect(news(nil).isEmpty, "stopped, blocked, erased or unreadable: dropped")
        #expect(news(nil, lookup: false).count == 1, "without a look-up (tests) it goes at once")
    }

    @Test func theZoneComesFromTheStateWhenNoneIsSet() {
        // 11 pm in New York is 8 pm in Los Angeles: not quiet there.
        let west = NewsRecipient(timeZone: nil, stateCode: "CA", lastActive: Self.lateEvening - 7200)
        guard case .notify(_, _, let held)? = news(west).first else {
            Issue.record("no news")
            return
        }
        #expect(held == nil, "8 pm in California")
    }
}
