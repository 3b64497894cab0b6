import Foundation
import Mustache
import TutorCore

// The Progress screen's and the notices' template contexts.

struct ProgressContext {
    struct Bar {
        var name: String
        var bar: String
        var percent: Int
        var mastered: Int
        var total: Int
    }
    struct Recent {
        var name: String
        var correct: Int
        var total: Int
        var percent: Int
        var passed: Bool
        var failedTest: Bool
        /// Time ran out with questions unanswered (left open): said, not just ❌.
        var ranOut: Bool
    }
    var stateName: String
    var bars: [Bar]
    var seen: Int
    var total: Int
    var streak: Int
    var streakPlural: String
    var best: Int
    var hasRecent: Bool
    var recent: [Recent]
    var readiness: ReadinessContext?
    var level: Int
    var xp: Int
    var hasBadges: Bool
    var badgeList: String
    var cardsDue: Int
    var freezes: Int
    var hasFreezes: Bool
    var freezePlural: String
    // This week's friends' league ("2nd of 5 · 340 XP · Jordan is 40 XP ahead"), or why there is none.
    var league: LeagueStandingContext?

    init(_ v: ProgressView, prompts: Prompts) {
        freezes = v.freezes
        hasFreezes = v.freezes > 0
        freezePlural = v.freezes == 1 ? "" : "s"
        league = v.league.map(LeagueStandingContext.init)
        level = XP.level(v.xp)
        xp = v.xp
        cardsDue = v.cardsDue
        hasBadges = !v.badges.isEmpty
        badgeList = v.badges.map { prompts.badge($0).name }.joined(separator: " · ")
        readiness = v.readiness.map { ReadinessContext($0, topicName: prompts.topicName) }
        stateName = v.stateName
        bars = v.mastery.map {
            Bar(
                name: prompts.topicName($0.topic), bar: ProgressContext.bar($0.percent), percent: $0.percent,
                mastered: $0.mastered, total: $0.total)
        }
        seen = v.seenCount
        total = v.totalCount
        streak = v.streak
        streakPlural = v.streak == 1 ? "" : "s"
        best = v.bestStreak
        hasRecent = !v.recent.isEmpty
        recent = v.recent.map {
            Recent(
                name: prompts.modeName($0.mode), correct: $0.correct, total: $0.total, percent: $0.percent,
                passed: $0.passed,
                failedTest: $0.exam != nil && !$0.passed && ($0.unanswered ?? 0) == 0,
                ranOut: ($0.unanswered ?? 0) > 0)
        }
    }

    /// `▓▓▓▓▓▓░░░░` for 62%: ten cells, rounded to the nearest.
    static func bar(_ percent: Int) -> String {
        let filled = min(10, max(0, Int((Double(percent) / 10).rounded())))
        return String(repeating: "▓", count: filled) + String(repeating: "░", count: 10 - filled)
    }
}

/// A notice line: notice.mustache has one section per notice, named as the `Notice` case.
struct NoticeContext: TemplateFields {
    let notice: Notice

    init(_ n: Notice) { notice = n }

    var fields: [String: Any] { [notice.rawValue: true] }
}
