import Foundation

/// What the learner is told about their chance of passing: a range with the coverage behind it,
/// and "Ready to test" or what is still missing for it.
public struct ReadinessSummary: Equatable, Sendable {
    /// Whether there is evidence across enough of the test's topics to show a number at all.
    public var shown: Bool
    /// The range in whole percent, outward to multiples of 5 ("60-80%").
    public var lowPercent: Int
    public var highPercent: Int
    /// The estimate itself, to the nearest 5 ("about 45%"): one figure a teen can act on, the range beside it.
    public var middlePercent: Int = 0
    /// Topics of the test never tried: they count at a beginner's level until tried.
    public var untriedTopics: [Topic] = []
    public var seen: Int
    public var poolSize: Int
    public var topicsNotTried: Int
    public var testsPassedWithMargin: Int
    public var testsNeeded: Int
    public var chanceHigh: Bool
    public var ready: Bool
    /// The score a practice test needs to count toward Ready (the pass mark + 10 points), of `testQuestions`.
    public var marginScore: Int = 0
    public var testQuestions: Int = 0
    /// Recent first tries of practice tests the number leans on ("based on 2 recent practice tests").
    public var recentTests: Int = 0
    /// Only retakes lately: "a test you haven't taken tells me more".
    public var onlyRetakes: Bool = false
    /// On a practice test's results: how that result reads beside the chance (nil: it speaks for itself).
    public var reading: Reading? = nil

    /// Why a practice test's result and the chance shown beside it can differ, said to the learner.
    public enum Reading: Equatable, Sendable {
        /// A retake: the learner had seen these questions and their answers, so it counts for less.
        case retake
        /// Passed by `margin` right answers over the mark (short of room to spare), and the chance is still modest.
        case closePass(margin: Int)
        /// Passed with room to spare, and the chance is still modest: one test is one sample.
        case onePassIsOneSample
        /// Not a pass, but better than the learner's earlier tests: the chance went up.
        case failedButBetter
        /// Not a pass, and the chance went down with it.
        case failedAndDown
        /// Not a pass, though everything else says the learner usually does better; `dipped`: the range shown went
        /// down.
        case failedUsuallyBetter(dipped: Bool)
    }

    public init(
        shown: Bool, lowPercent: Int, highPercent: Int, seen: Int, poolSize: Int, topicsNotTried: Int = 0,
        testsPassedWithMargin: Int = 0, chanceHigh: Bool = false, ready: Bool = false
    ) {
        self.shown = shown
        self.lowPercent = lowPercent
        self.highPercent = highPercent
        self.seen = seen
        self.poolSize = poolSize
        self.topicsNotTried = topicsNotTried
        self.testsPassedWithMargin = testsPassedWithMargin
        self.testsNeeded = Readiness.readyTestsNeeded
        self.chanceHigh = chanceHigh
        self.ready = ready
    }

    public init(estimate e: ReadinessEstimate, status: Readiness.ReadyStatus) {
        shown = e.isShown
        let low = Int((e.passProbabilityRange.lowerBound * 20).rounded(.down)) * 5
        let high = Int((e.passProbabilityRange.upperBound * 20).rounded(.up)) * 5
        lowPercent = max(0, min(low, 95))
        highPercent = min(100, max(high, lowPercent + 5))
        middlePercent = min(highPercent, max(lowPercent, Int((e.passProbability * 20).rounded()) * 5))
        untriedTopics = e.topicsNotTried
        seen = e.seen
        poolSize = e.poolSize
        topicsNotTried = e.topicsNotTried.count
        testsPassedWithMargin = status.testsPassedWithMargin
        testsNeeded = Readiness.readyTestsNeeded
        chanceHigh = status.chanceHigh
        ready = status.isReady
        recentTests = e.tests.fresh
        onlyRetakes = e.tests.fresh == 0 && e.tests.counted > 0
    }
}
