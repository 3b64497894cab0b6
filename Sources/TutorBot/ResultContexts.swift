import Foundation
import Mustache
import TutorCore

// The results, progress and readiness screens' contexts, and the notices'.

struct TopicLine {
    var name: String
    var correct: Int
    var total: Int
}

extension TopicLine: TemplateFields {
    var fields: [String: Any] { ["name": name, "correct": correct, "total": total] }
}

// The results screen ends every quiz and test: its nested contexts list their fields too,
// rather than have the renderer reflect them (slow, and on a screen shown so often).
extension ResultsContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = [
            "isExam": isExam, "needed": needed, "sections": sections.map(\.fields), "overallOK": overallOK,
            "timedOut": timedOut, "unanswered": unanswered, "hasUnanswered": hasUnanswered,
            "timeLimit": timeLimit, "isTimed": isTimed, "average": average, "hasBest": hasBest, "newBest": newBest,
            "firstBest": firstBest, "best": best,
            "sectionNeeds": sectionNeeds, "hasSectionNeeds": hasSectionNeeds, "weak": weak.map(\.fields),
            "hasWeak": hasWeak,
            "modeName": modeName, "correct": correct, "total": total, "percent": percent, "perfect": perfect,
            "hasPassMark": hasPassMark,
            "passed": passed, "passPercent": passPercent, "neededRight": neededRight, "short": short,
            "shortPlural": shortPlural, "stateName": stateName,
            "topics": topics.map(\.fields), "duration": duration, "tookBreak": tookBreak,
            "isLives": isLives, "outOfLives": outOfLives, "survived": survived, "hearts": hearts,
        ]
        if let readiness { f["readiness"] = readiness.fields }
        if let reward { f["reward"] = reward.fields }
        return f
    }
}

extension ResultsContext.Section: TemplateFields {
    var fields: [String: Any] {
        ["name": name, "correct": correct, "total": total, "hasNeeded": hasNeeded, "needed": needed, "mark": mark]
    }
}

extension ResultsContext.Weak: TemplateFields {
    var fields: [String: Any] { ["name": name, "correct": correct, "total": total, "last": last] }
}

struct ResultsContext {
    struct Section {
        var name: String
        var correct: Int
        var total: Int
        var hasNeeded: Bool
        var needed: Int
        var mark: String
    }
    var isExam: Bool
    var needed: Int
    var sections: [Section]
    var overallOK: Bool
    var timedOut: Bool
    var unanswered: Int
    var hasUnanswered: Bool
    var timeLimit: Int
    var readiness: ReadinessContext?
    var reward: RewardContext?
    var isTimed: Bool
    var average: String
    var hasBest: Bool
    var newBest: Bool
    var firstBest: Bool
    var best: Int
    var sectionNeeds: String
    var hasSectionNeeds: Bool
    struct Weak {
        var name: String
        var correct: Int
        var total: Int
        var last: Bool
    }
    var weak: [Weak]
    var hasWeak: Bool
    var modeName: String
    var correct: Int
    var total: Int
    var percent: Int
    var perfect: Bool
    var hasPassMark: Bool
    var passed: Bool
    var passPercent: Int
    /// Short of the pass mark: the right answers it takes out of this run's, and how many more
    /// that is ("5 points away" read as five questions to a play-tester; it was percentage points).
    var neededRight: Int
    var short: Int
    var shortPlural: String
    var stateName: String
    var topics: [TopicLine]
    var duration: String
    var tookBreak: Bool
    /// 3 lives ends one of two ways, and says which: "3 lives done!" told neither.
    var isLives: Bool
    var outOfLives: Bool
    var survived: Bool
    var hearts: String
    /// Longer than this, a quiz was left and taken up again: its clock time is not shown.
    static let oneSitting = 90 * 60

    init(_ v: ResultsView, prompts: Prompts) {
        let r = v.result
        modeName = prompts.modeName(r.mode)
        correct = r.correct
        total = r.total
        percent = r.percent
        perfect = r.total > 0 && r.correct == r.total
        isLives = v.livesLeft != nil
        outOfLives = v.livesLeft == 0
        survived = (v.livesLeft ?? 0) > 0
        hearts = QuestionContext.hearts(v.livesLeft)
        hasPassMark = r.passPercent != nil && v.stateName != nil
        passed = r.passed
        passPercent = r.passPercent ?? 0
        // The fewest right answers whose rounded percentage meets the mark: the rule `passed` uses.
        let mark = r.passPercent ?? 0
        neededRight = (0...max(0, r.total)).first { QuizResult.percent($0, of: r.total) >= mark } ?? r.total
        short = max(0, neededRight - r.correct)
        shortPlural = short == 1 ? "" : "s"
        stateName = v.stateName ?? ""
        topics = r.byTopic.map { TopicLine(name: prompts.topicName($0.topic), correct: $0.correct, total: $0.total) }
        isExam = r.exam != nil
        needed = r.exam?.needed ?? 0
        let exam = r.exam
        sections =
            (exam?.sections.count ?? 0) > 1
            ? exam!.sections.map {
                Section(
                    name: $0.name, correct: $0.correct, total: $0.total, hasNeeded: $0.needed != nil,
                    needed: $0.needed ?? 0,
                    mark: $0.needed == nil ? "" : ($0.passed ? "✅" : "❌"))
            } : []
        overallOK = (r.exam.map { $0.correct >= $0.needed }) ?? false
        timedOut = r.timedOut == true
        unanswered = r.unanswered ?? 0
        hasUnanswered = unanswered > 0
        timeLimit = v.timeLimitMinutes ?? 0
        readiness = v.readiness.map { ReadinessContext($0, topicName: prompts.topicName) }
        reward = v.reward.map(RewardContext.init)
        isTimed = r.mode == .timedChallenge
        average = v.averageSeconds.map { String(format: "%.1f", $0) } ?? ""
        // Think Fast always shows its best: the first game's score is the one to beat.
        hasBest = r.mode == .timedChallenge
        firstBest = v.previousBest == nil
        best = max(v.previousBest ?? 0, r.correct)
        newBest = v.previousBest != nil && (v.previousBest ?? 0) < r.correct
        // A failed test that reached the overall mark failed on a section's own minimum: say that,
        // not "17/20, and New York needs 14".
        let failedSections = (r.exam?.sections ?? []).filter { !$0.passed }
        hasSectionNeeds = !failedSections.isEmpty
        // After a test, the topics with misses, most missed first (then the lowest share, then
        // handbook order): what to study next. By share alone, four topics missed once each
        // pushed out Road signs at 4/7.
        // (A topic that is also a section shown above, like NY's Road signs, is not named again.)
        let sectionNames = Set(sections.map { $0.name.lowercased() })
        let missedTopics = r.byTopic.filter {
            $0.correct < $0.total && !sectionNames.contains(prompts.topicName($0.topic).lowercased())
        }
        .sorted {
            ($0.total - $0.correct, Double($1.correct) / Double($1.total), $1.topic) > (
                $1.total - $1.correct, Double($0.correct) / Double($0.total), $0.topic
            )
        }
        .prefix(4)
        weak = missedTopics.enumerated().map { i, t in
            Weak(
                name: prompts.topicName(t.topic), correct: t.correct, total: t.total, last: i == missedTopics.count - 1)
        }
        hasWeak = !weak.isEmpty
        sectionNeeds = failedSections.map {
            "\($0.needed ?? 0) of \($0.total) \($0.name.lowercased()) right (you got \($0.correct))"
        }.joined(separator: " and ")
        let s = v.durationSeconds
        duration = s < 60 ? "\(s) s" : (s < 3600 ? "\(s / 60) min \(s % 60) s" : "\(s / 3600) h \(s % 3600 / 60) min")
        // A quiz left for hours and finished later: its clock time says nothing about the learner.
        tookBreak = s >= ResultsContext.oneSitting
    }
}

/// The chance of passing as a range with its coverage, and what "Ready to test" still needs
/// ("2 of 3 tests passed · 3 topics not tried").
struct ReadinessContext {
    var shown: Bool
    var low: Int
    var high: Int
    var middle: Int
    /// "about 45", or "under 5" / "over 95" at the ends (never "about 0%").
    var middleText: String
    /// "Railroads, Work zones": topics never tried, at a beginner's level in the number.
    var untriedList: String
    var hasUntried: Bool
    var lowChance: Bool
    /// The range is wider than `wideFrom` points: Progress says what that means. "25-95%" alone
    /// meant nothing to either play-tester.
    var wide: Bool
    static let wideFrom = 40
    var seen: Int
    var poolSize: Int
    var ready: Bool
    var topicsNotTried: Int
    var topicPlural: String
    // What "Ready to test" still needs, worded in ready_missing.mustache.
    var testsPassed: Int
    var testsNeeded: Int
    var needTests: Bool
    var needTopics: Bool
    var needChance: Bool
    var needMore: Bool
    var sepBeforeTopics: Bool
    var sepBeforeChance: Bool
    var marginScore: Int
    var testQuestions: Int
    // What the number rests on, and how a practice test's result reads beside it.
    var recentTests: Int
    var hasTests: Bool
    var testsPlural: String
    var readingRetake: Bool
    var readingClosePass: Bool
    var readingFailedButBetter: Bool
    var readingDipped: Bool
    var readingOneSample: Bool
    var readingFailedButUp: Bool
    var readingFailedAndDown: Bool
    var onlyRetakes: Bool
    var closeMargin: String
    /// Fewer than half the pool's questions seen: most of the real test will be new (a learner
    /// who memorised tests 1-4 has evidence about those 120 questions only).
    var mostNew: Bool

    init(_ r: ReadinessSummary, topicName: (Topic) -> String) {
        shown = r.shown
        low = r.lowPercent
        high = r.highPercent
        middle = r.middlePercent
        middleText = r.middlePercent <= 0 ? "under 5" : r.middlePercent >= 100 ? "over 95" : "about \(r.middlePercent)"
        lowChance = r.highPercent < 50
        untriedList = r.untriedTopics.map(topicName).joined(separator: ", ")
        hasUntried = r.shown && !r.untriedTopics.isEmpty
        wide = r.shown && r.highPercent - r.lowPercent >= Self.wideFrom
        seen = r.seen
        poolSize = r.poolSize
        ready = r.ready
        topicsNotTried = r.topicsNotTried
        topicPlural = r.topicsNotTried == 1 ? "" : "s"
        testsPassed = r.testsPassedWithMargin
        testsNeeded = r.testsNeeded
        needTests = r.testsPassedWithMargin < r.testsNeeded
        needTopics = r.topicsNotTried > 0
        needChance = !r.chanceHigh && r.shown
        needMore = !ready && !needTests && !needTopics && !needChance
        sepBeforeTopics = needTests && needTopics
        sepBeforeChance = (needTests || needTopics) && needChance
        marginScore = r.marginScore
        testQuestions = r.testQuestions
        recentTests = r.recentTests
        hasTests = r.recentTests > 0
        testsPlural = r.recentTests == 1 ? "" : "s"
        readingRetake = r.reading == .retake
        readingFailedButBetter = false
        readingDipped = false
        if case .failedUsuallyBetter(let dipped) = r.reading {
            readingFailedButBetter = true
            readingDipped = dipped
        }
        readingOneSample = r.reading == .onePassIsOneSample
        readingFailedButUp = r.reading == .failedButBetter
        readingFailedAndDown = r.reading == .failedAndDown
        onlyRetakes = r.onlyRetakes
        mostNew = r.shown && r.seen * 2 < r.poolSize
        if case .closePass(let m) = r.reading {
            readingClosePass = true
            closeMargin = m <= 0 ? "right at the bar" : "\(m) question\(m == 1 ? "" : "s") over the bar"
        } else {
            readingClosePass = false
            closeMargin = ""
        }
    }
}

/// "+120 XP · Today 30 (goal 20 ✅) · 🔥 4-day streak" at the end of a session.
extension RewardContext: TemplateFields {
    var fields: [String: Any] {
        [
            "xp": xp, "done": done, "goal": goal, "goalMet": goalMet, "streak": streak, "hasStreak": hasStreak,
            "streakPlural": streakPlural,
        ]
    }
}

extension ReadinessContext: TemplateFields {
    var fields: [String: Any] {
        [
            "shown": shown, "low": low, "high": high, "middle": middle, "middleText": middleText,
            "untriedList": untriedList,
            "hasUntried": hasUntried,
            "lowChance": lowChance, "wide": wide, "seen": seen, "poolSize": poolSize, "ready": ready,
            "topicsNotTried": topicsNotTried, "topicPlural": topicPlural, "testsPassed": testsPassed,
            "testsNeeded": testsNeeded,
            "needTests": needTests, "needTopics": needTopics, "needChance": needChance, "needMore": needMore,
            "sepBeforeTopics": sepBeforeTopics, "sepBeforeChance": sepBeforeChance, "marginScore": marginScore,
            "testQuestions": testQuestions,
            "recentTests": recentTests, "hasTests": hasTests, "testsPlural": testsPlural,
            "readingRetake": readingRetake,
            "readingClosePass": readingClosePass, "readingFailedButBetter": readingFailedButBetter,
            "readingDipped": readingDipped, "closeMargin": closeMargin,
            "readingOneSample": readingOneSample, "readingFailedButUp": readingFailedButUp,
            "readingFailedAndDown": readingFailedAndDown, "onlyRetakes": onlyRetakes,
            "mostNew": mostNew,
        ]
    }
}

struct RewardContext {
    var xp: Int
    var done: Int
    var goal: Int
    var goalMet: Bool
    var streak: Int
    var hasStreak: Bool
    var streakPlural: String

    init(_ r: SessionReward) {
        xp = r.xpEarned
        done = r.answeredToday
        goal = r.goal
        goalMet = r.answeredToday >= r.goal
        streak = r.streak
        hasStreak = r.streak > 0
        streakPlural = r.streak == 1 ? "" : "s"
    }
}
