import Foundation

/// A calendar day in a learner's own time zone: streaks and "studied today" count these.
public struct LocalDay: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    /// The day `instant` falls on in `timeZone`: the wall-clock time there (UTC plus the offset in
    /// force at that instant, so DST is taken as it is that day) divided into days. What the
    /// Gregorian calendar's day component gives, without making a Calendar for every answer
    /// (~6,000 instructions each; tests compare the two across DST changes and odd offsets).
    /// Proleptic Gregorian like `ordinal`: Foundation's calendar turns Julian before 1582.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let local = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        self.ordinal = Int((local / 86_400).rounded(.down))
    }

    public init?(iso: String) {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        self.ordinal = LocalDay.ordinal(year: parts[0], month: parts[1], day: parts[2])
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.ordinal < b.ordinal }
    /// Saturates rather than trapping: a day read from a damaged row must not take the bot down.
    public func adding(days: Int) -> LocalDay {
        let (sum, overflow) = ordinal.addingReportingOverflow(days)
        return LocalDay(ordinal: overflow ? (days > 0 ? Int.max : Int.min) : sum)
    }

    /// Howard Hinnant's days-from-civil.
    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var components: (year: Int, month: Int, day: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// "2026-11-23". Written by hand: every answer stores a day, and `String(format:)` is slow for it.
    public var description: String {
        let c = components
        guard (0...9999).contains(c.year) else { return String(format: "%04d-%02d-%02d", c.year, c.month, c.day) }
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(c.year, 4) + "-" + padded(c.month, 2) + "-" + padded(c.day, 2)
    }
}

/// Consecutive local days with at least one answered question.
public struct Streak: Codable, Equatable, Sendable {
    public var current: Int
    public var best: Int
    public var lastDay: LocalDay?
    /// Streak freezes banked: each covers one missed day. One is earned every 7 days of streak.
    public var freezes: Int

    public static let maxFreezes = 2
    public static let daysPerFreeze = 7

    public init(current: Int = 0, best: Int = 0, lastDay: LocalDay? = nil, freezes: Int = 0) {
        self.current = current
        self.best = best
        self.lastDay = lastDay
        self.freezes = freezes
    }

    /// Counts a day of study; studying twice on one day changes nothing. A single missed day
    /// is bridged by a banked freeze.
    public mutating func record(_ day: LocalDay) {
        if let last = lastDay {
            if day <= last { return }  // same day, or a clock that went backwards
            if day == last.adding(days: 1) {
                current += 1
            } else if day == last.adding(days: 2) && freezes > 0 {
                freezes -= 1
                current += 1
            } else {
                current = 1
            }
        } else {
            current = 1
        }
        lastDay = day
        best = max(best, current)
        if current % Streak.daysPerFreeze == 0 && freezes < Streak.maxFreezes { freezes += 1 }
    }

    /// The streak as the learner sees it on `day`: alive through today if they studied
    /// yesterday (or the day before, with a freeze banked).
    public func current(on day: LocalDay) -> Int {
        guard let last = lastDay else { return 0 }
        let gap = day.ordinal - last.ordinal
        return gap <= 1 || (gap == 2 && freezes > 0) ? current : 0
    }

    public func studied(on day: LocalDay) -> Bool { lastDay == day }
}

/// When to send the daily study reminder: at the learner's chosen local time, at most once a
/// day, only on a day they have not studied, never during quiet hours (21:00-08:00 local), and
/// not at all after several ignored in a row. Local times are computed with the calendar in the
/// learner's zone, so DST changes and zone changes are handled.
public enum Nudges {
    public static let defaultMinute = 16 * 60
    public static let quietFrom = 21 * 60
    public static let quietUntil = 8 * 60
    public static let pauseAfterIgnored = 3
    /// No reminder this soon after the learner last did anything: they are using the bot, or just were.
    public static let quietAfterActivity: TimeInterval = 3600
    /// The reminder times offered in /settings as buttons (any other time outside quiet hours can
    /// be typed): before school, lunch, and the afternoon and evening, three rows of three.
    public static let choices = [8 * 60, 12 * 60, 15 * 60, 16 * 60, 17 * 60, 18 * 60, 19 * 60, 20 * 60, 20 * 60 + 30]

    /// Whether a reminder may be set for this local minute (outside quiet hours).
    public static func isAllowed(_ minute: Int) -> Bool { minute >= quietUntil && minute < quietFrom }

    /// Inside quiet hours at `now`: when they end (8 am local); outside: nil. For news that
    /// nobody asked for at that moment (a friend played your challenge).
    public static func quietHoursEnd(after now: Date, in tz: TimeZone) -> Date? {
        let minute = localMinute(now, in: tz)
        guard !isAllowed(minute) else { return nil }
        let today = LocalDay(now, in: tz)
        return instant(minute >= quietFrom ? today.adding(days: 1) : today, minute: quietUntil, in: tz)
    }

    /// A time as a teen types it: "4pm", "4 pm", "4:30pm", "16:00", "7:30", "7", "noon".
    /// Without am/pm, 1-8 o'clock mean the afternoon or evening (reminders are for after school),
    /// 9-11 the morning. Returns the local minute of the day, nil if it is no time.
    public static func parseTime(_ typed: String) -> Int? {
        var text = typed.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: ".", with: "")
        if text == "noon" || text == "midday" { return 12 * 60 }
        var half: String?
        for suffix in ["am", "pm", "a", "p"] where text.hasSuffix(suffix) {
            half = String(suffix.prefix(1))
            text.removeLast(suffix.count)
            break
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hour = Int(parts[0]), parts[0].count <= 2 else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let m = Int(parts[1]), (0..<60).contains(m) else { return nil }
            minute = m
        }
        switch half {
        case "a":
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12) * 60 + minute
        case "p":
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12 + 12) * 60 + minute
        default:
            guard (0...23).contains(hour) else { return nil }
            if parts.count == 1 && hour > 12 { return hour * 60 }
            return ((1...8).contains(hour) ? hour + 12 : hour) * 60 + minute
        }
    }

    /// The next instant a reminder could go out, or nil when reminders are off or paused.
    public static func next(for learner: Learner, now: Date, timeZone tz: TimeZone) -> Date? {
        guard learner.nudgesOn, !learner.stopped, !learner.blocked, !learner.isGroup, learner.stateCode != nil,
            learner.ignoredNudges < pauseAfterIgnored
        else { return nil }
        let minute = min(max(learner.nudgeMinute, quietUntil), quietFrom - 1)
        let today = LocalDay(now, in: tz)
        let doneToday = learner.streak.studied(on: today) || learner.lastNudgeDay == today
        var day = doneToday ? today.adding(days: 1) : today
        var at = instant(day, minute: minute, in: tz)
        if !doneToday && at < now {
            // Past today's time (a late start, a restart): still today if it isn't quiet hours yet.
            if localMinute(now, in: tz) < quietFrom {
                at = now
            } else {
                day = today.adding(days: 1)
                at = instant(day, minute: minute, in: tz)
            }
        }
        // Someone who was just here gets no nudge: wait an hour after their last action, if that
        // is still before quiet hours, else tomorrow.
        let settled = learner.lastActiveAt.addingTimeInterval(quietAfterActivity)
        if learner.lastActiveAt <= now, at < settled {
            at = settled
            if LocalDay(at, in: tz) != day || localMinute(at, in: tz) >= quietFrom {
                day = day.adding(days: 1)
                at = instant(day, minute: minute, in: tz)
            }
        }
        return at
    }

    /// Whether a reminder may go out at `now` (the final check when one comes due).
    public static func mayRemind(_ learner: Learner, now: Date, timeZone tz: TimeZone) -> Bool {
        guard let due = next(for: learner, now: now, timeZone: tz), due <= now.addingTimeInterval(60) else {
            return false
        }
        let m = localMinute(now, in: tz)
        return m >= quietUntil && m < quietFrom
    }

    public static func instant(_ day: LocalDay, minute: Int, in tz: TimeZone) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        let c = day.components
        return cal.date(
            from: DateComponents(year: c.year, month: c.month, day: c.day, hour: minute / 60, minute: minute % 60))!
    }

    public static func localMinute(_ instant: Date, in tz: TimeZone) -> Int {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        let c = cal.dateComponents([.hour, .minute], from: instant)
        return c.hour! * 60 + c.minute!
    }
}
