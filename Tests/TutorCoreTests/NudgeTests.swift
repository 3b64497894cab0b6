import Foundation
import Testing

@testable import TutorCore

/// Daily reminders: local time, quiet hours, once a day, paused after three ignored, DST-safe.
@Suite struct NudgeTests {
    let eastern = TimeZone(identifier: "America/New_York")!

    func learner(_ configure: (inout Learner) -> Void = { _ in }) -> Learner {
        var l = Learner(chatID: 1, userID: 1, firstName: "Sam", stateCode: "NY", joinedAt: Sample.t0)
        configure(&l)
        return l
    }

    func utc(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    @Test func defaultIsFourPMLocalOnADayNotYetStudied() {
        #expect(
            Nudges.next(for: learner(), now: utc("2026-11-18T14:00:00Z"), timeZone: eastern)
                == utc("2026-11-18T21:00:00Z"))
        let studied = learner { $0.streak.record(LocalDay(iso: "2026-11-18")!) }
        #expect(
            Nudges.next(for: studied, now: utc("2026-11-18T14:00:00Z"), timeZone: eastern)
                == utc("2026-11-19T21:00:00Z"))
    }

    /// The walkthrough got a reminder while using the bot: none within an hour of the last action.
    @Test func noReminderWithinAnHourOfTheLastAction() {
        let busy = learner { $0.lastActiveAt = self.utc("2026-11-18T20:45:00Z") }  // 3:45 pm, browsing
        #expect(
            Nudges.next(for: busy, now: utc("2026-11-18T20:46:00Z"), timeZone: eastern) == utc("2026-11-18T21:45:00Z"),
            "4:45 pm, not 4 pm")
        #expect(!Nudges.mayRemind(busy, now: utc("2026-11-18T21:00:00Z"), timeZone: eastern))
        #expect(Nudges.mayRemind(busy, now: utc("2026-11-18T21:45:00Z"), timeZone: eastern))
        // Active at 8:30 pm: an hour later is quiet hours, so tomorrow at 4 pm.
        let late = learner { $0.lastActiveAt = self.utc("2026-11-19T01:30:00Z") }
        #expect(
            Nudges.next(for: late, now: utc("2026-11-19T01:31:00Z"), timeZone: eastern) == utc("2026-11-19T21:00:00Z"))
    }

    /// The day an instant falls on is the Gregorian calendar's, in every zone a learner can be
    /// in and ones with odd offsets, hour by hour across both DST changes of 2026 and the year's
    /// turn (`LocalDay.init(_:in:)` works from the offset, not a Calendar).
    @Test func theLocalDayIsTheCalendarsAcrossDaylightSavingAndOddOffsets() {
        let zones = [
            "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
            "America/Anchorage", "Pacific/Honolulu", "America/Puerto_Rico", "Pacific/Guam", "Europe/London",
            "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu", "Pacific/Kiritimati", "Pacific/Pago_Pago",
            "UTC",
        ]
        // 2026-03-07 .. 2026-03-10, 2026-10-31 .. 2026-11-03, 2026-12-31 .. 2027-01-02, a 1969 day (before 1970).
        let starts: [TimeInterval] = [1_772_841_600, 1_793_404_800, 1_798_675_200, -86_400 * 2]
        var checked = 0
        for id in zones {
            let zone = TimeZone(identifier: id)!
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = zone
            for start in starts {
                for quarterHour in 0..<(4 * 24 * 3) {
                    let instant = Date(timeIntervalSince1970: start + Double(quarterHour) * 900 + 7)
                    let c = cal.dateComponents([.year, .month, .day], from: instant)
                    let expected = LocalDay.ordinal(year: c.year!, month: c.month!, day: c.day!)
                    #expect(LocalDay(instant, in: zone).ordinal == expected, "\(id) \(instant)")
                    checked += 1
                }
            }
        }
        #expect(checked == 16 * 4 * 288)
    }

    @Test func theLocalTimeHoldsAcrossDaylightSavingTime() {
        // The clocks go back on 2026-11-01: 4 pm EDT is 20:00 UTC the day before, 4 pm EST is 21:00 UTC the day after.
        #expect(
            Nudges.next(for: learner(), now: utc("2026-10-31T12:00:00Z"), timeZone: eastern)
                == utc("2026-10-31T20:00:00Z"))
        #expect(
            Nudges.next(for: learner(), now: utc("2026-11-02T12:00:00Z"), timeZone: eastern)
                == utc("2026-11-02T21:00:00Z"))
    }

    @Test func lateInTheDayItStillGoesOutButNeverInQuietHours() {
        #expect(
            Nudges.next(for: learner(), now: utc("2026-11-18T23:00:00Z"), timeZone: eastern)
                == utc("2026-11-18T23:00:00Z"), "6 pm: now")
        #expect(
            Nudges.next(for: learner(), now: utc("2026-11-19T02:30:00Z"), timeZone: eastern)
                == utc("2026-11-19T21:00:00Z"), "9:30 pm: tomorrow")
        let early = learner { $0.nudgeMinute = 5 * 60 }
        #expect(
            Nudges.next(for: early, now: utc("2026-11-18T06:00:00Z"), timeZone: eastern) == utc("2026-11-18T13:00:00Z"),
            "never before 8 am")
    }

    @Test func offStoppedBlockedOrPausedMeansNone() {
        let now = utc("2026-11-18T14:00:00Z")
        #expect(Nudges.next(for: learner { $0.nudgesOn = false }, now: now, timeZone: eastern) == nil)
        #expect(Nudges.next(for: learner { $0.stopped = true }, now: now, timeZone: eastern) == nil)
        #expect(Nudges.next(for: learner { $0.blocked = true }, now: now, timeZone: eastern) == nil)
        #expect(Nudges.next(for: learner { $0.ignoredNudges = 3 }, now: now, timeZone: eastern) == nil)
        #expect(Nudges.next(for: learner { $0.stateCode = nil }, now: now, timeZone: eastern) == nil)
    }

    @Test func theReducerSendsOneReminderADayAndPausesAfterThreeIgnored() {
        var (s, _) = Dialogue.reduce(
            Sample.newChat(), .commandSent(.start, payload: "NY"), Sample.context(utc("2026-11-18T14:00:00Z")))
        #expect(s.learner.nextNudgeAt == utc("2026-11-18T21:00:00Z"))
        var effects: [Effect]
        for day in 0..<3 {
            let at = utc("2026-11-18T21:00:00Z").addingTimeInterval(Double(day) * 86_400)
            (s, effects) = Dialogue.reduce(s, .nudgeDue, Sample.context(at))
            // The reminder also invites to today's Daily 5 (not played yet).
            #expect(
                effects == [
                    .send(
                        Reply(
                            .nudge(
                                NudgeView(firstName: "Sam", streak: 0, missedCount: 0, cardsDue: 0, dailyWaiting: true)),
                            buttons: [
                                [Button(.quickQuiz, .menu(.quickQuiz))], [Button(.daily(done: false), .menu(.daily))],
                            ],
                            bulk: true))
                ], "day \(day)")
            #expect(s.learner.ignoredNudges == day + 1)
            let again = Dialogue.reduce(s, .nudgeDue, Sample.context(at.addingTimeInterval(60)))
            #expect(again.1.isEmpty, "never twice a day")
        }
        #expect(s.learner.nextNudgeAt == nil, "paused after three ignored")
        (s, _) = Dialogue.reduce(s, .commandSent(.progress, payload: nil), Sample.context(utc("2026-11-21T15:00:00Z")))
        #expect(
            s.learner.ignoredNudges == 0 && s.learner.nextNudgeAt == utc("2026-11-21T21:00:00Z"),
            "back again: reminders resume")
    }

    @Test func aStreakFreezeBridgesOneMissedDay() {
        var streak = Streak()
        let d = LocalDay(iso: "2026-11-01")!
        for i in 0..<7 { streak.record(d.adding(days: i)) }
        #expect(streak.freezes == 1 && streak.current == 7)
        #expect(streak.current(on: d.adding(days: 8)) == 7, "alive over one missed day with a freeze")
        streak.record(d.adding(days: 8))  // day 7 missed
        #expect(streak.current == 8 && streak.freezes == 0)
        streak.record(d.adding(days: 10))  // another miss, no freeze left
        #expect(streak.current == 1 && streak.best == 8)
    }

    @Test func choosingAnotherZoneMovesTheReminder() {
        let tx = StateInfo(
            code: "TX", name: "Texas", timeZones: ["America/Chicago", "America/Denver"], minPermitAge: 15, handbook: "",
            launch: true, confidence: .medium, note: nil, test: Sample.ca.test)
        let banks = Banks(states: [tx], universal: Sample.banks.universal, stateQuestions: [:])
        let ctx = DialogueContext(banks: banks, now: utc("2026-11-18T14:00:00Z"), seed: 1)
        var (s, _) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "TX"), ctx)
        #expect(s.learner.nextNudgeAt == utc("2026-11-18T22:00:00Z"))
        (s, _) = Dialogue.reduce(s, .buttonTapped(callbackID: "z", action: .setZone(1), messageID: 1), ctx)
        #expect(s.learner.timeZone == "America/Denver")
        #expect(s.learner.nextNudgeAt == utc("2026-11-18T23:00:00Z"))
    }

    @Test func quietHoursEndAtEightTheirTime() {
        let chicago = TimeZone(identifier: "America/Chicago")!
        let elevenPM = Date(timeIntervalSince1970: 1_795_755_600)  // 2026-11-27 05:00 UTC = 11 pm on the 26th in Chicago
        #expect(
            Nudges.quietHoursEnd(after: elevenPM, in: chicago) == Date(timeIntervalSince1970: 1_795_755_600 + 9 * 3600))
        #expect(
            Nudges.quietHoursEnd(after: elevenPM.addingTimeInterval(4 * 3600), in: chicago)
                == Date(timeIntervalSince1970: 1_795_755_600 + 9 * 3600),
            "3 am: the same morning")
        #expect(
            Nudges.quietHoursEnd(after: elevenPM.addingTimeInterval(-6 * 3600), in: chicago) == nil, "5 pm: not quiet")
    }
}
