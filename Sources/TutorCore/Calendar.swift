import Foundation

/// A calendar day in a learner's own time zone: streaks and "studied today" count these.
public struct LocalDay: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    /// The day `instant` falls on in `timeZone` (DST-safe: uses the calendar, not offsets).
    public init(_ instant: Date, in timeZone: TimeZone) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day], from: instant)
        self.ordinal = LocalDay.ordinal(year: c.year!, month: c.month!, day: c.day!)
    }

    public init?(iso: String) {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        self.ordinal = LocalDay.ordinal(year: parts[0], month: parts[1], day: parts[2])
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.ordinal < b.ordinal }
    public func adding(days: Int) -> LocalDay { LocalDay(ordinal: ordinal + days) }

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

    public var description: String {
        let c = components
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }
}

/// Consecutive local days with at least one answered question.
public struct Streak: Codable, Equatable, Sendable {
    public var current: Int
    public var best: Int
    public var lastDay: LocalDay?

    public init(current: Int = 0, best: Int = 0, lastDay: LocalDay? = nil) {
        self.current = current; self.best = best; self.lastDay = lastDay
    }

    /// Counts a day of study; studying twice on one day changes nothing.
    public mutating func record(_ day: LocalDay) {
        if let last = lastDay {
            if day <= last { return }          // same day, or a clock that went backwards
            current = day == last.adding(days: 1) ? current + 1 : 1
        } else {
            current = 1
        }
        lastDay = day
        best = max(best, current)
    }

    /// The streak as the learner sees it on `day`: alive through today if they studied yesterday.
    public func current(on day: LocalDay) -> Int {
        guard let last = lastDay, day.ordinal - last.ordinal <= 1 else { return 0 }
        return current
    }

    public func studied(on day: LocalDay) -> Bool { lastDay == day }
}
