import Foundation
import Testing

@testable import TutorCore

/// Issue #40, items 3 and 5: a New York learner failed test 1's signs (1 of 4), passed test 2
/// (19/20) with four topics never asked, and read "90-100%". A topic never tried counts at a
/// newcomer's level, a failed section minimum weighs on that section, the screen shows one central
/// figure, and the range widens while most of the pool is unseen.
struct UntriedAndSectionsTests {
    typealias R = ReadinessTests

    /// First answers a day ago, four in five right, in every topic but `skipping`.
    static func learner(skipping: Set<Topic>) -> [String: QuestionStats] {
        var progress: [String: QuestionStats] = [:]
        for (i, q) in R.synthetic.enumerated() where i % 2 == 0 && !skipping.contains(q.category) {
            R.answer(&progress, q.id, i % 5 != 0, at: R.now - 86_400 + Double(i))
        }
        return progress
    }

    static func nyTest(_ n: Int, id: Int, signs: Int, rules: Int) -> QuizResult {
        let sections = (0..<4).map { _ in 0 } + (0..<16).map { _ in 1 }
        let correct = (0..<4).map { $0 < signs } + (0..<16).map { $0 < rules }
        let exam = ExamScoring.score(format: R.ny, sectionOfQuestion: sections, correct: correct)
        return QuizResult(
            quizID: id, mode: .practiceTest(number: n), stateCode: "NY", correct: signs + rules, total: 20,
            passPercent: 70, startedAt: R.now - 3_600, finishedAt: R.now - 3_000, byTopic: [], missedIDs: [],
            exam: exam)
    }

    @Test func aTopicNeverTriedStaysAtANewcomersLevel() {
        let untried: Set<Topic> = [.railroads, .workZones, .crashes, .freeways]
        let strong = Readiness.estimate(
            progress: Self.learner(skipping: untried), pool: R.synthetic, format: R.ny, now: R.now)
        let newcomer = Readiness.estimate(progress: [:], pool: R.synthetic, format: R.ny, now: R.now)
        #expect(Set(strong.topicsNotTried) == untried)
        for topic in untried {
            #expect(
                abs(strong.accuracyByTopic[topic]! - newcomer.accuracyByTopic[topic]!) < 0.005,
                "\(topic): a strong learner's other topics don't lift it")
        }
        // The same learner having tried them at the same rate is estimated higher.
        let everything = Readiness.estimate(
            progress: Self.learner(skipping: []), pool: R.synthetic, format: R.ny, now: R.now)
        #expect(everything.passProbability > strong.passProbability)
        // Tests passed well do not lift the untried topics either: the number stays under the
        // learner who tried everything and passed the same tests.
        let tests = [Self.nyTest(1, id: 1, signs: 4, rules: 15), Self.nyTest(2, id: 2, signs: 4, rules: 15)]
        let strongTested = Readiness.estimate(
            progress: Self.learner(skipping: untried), pool: R.synthetic, format: R.ny,
            now: R.now, tests: tests)
        let allTested = Readiness.estimate(
            progress: Self.learner(skipping: []), pool: R.synthetic, format: R.ny,
            now: R.now, tests: tests)
        #expect(
            strongTested.passProbability < allTested.passProbability - 0.02,
            "\(strongTested.passProbability) vs \(allTested.passProbability)")
    }

    @Test func aFailedSignsMinimumWeighsOnTheSignsSection() {
        let progress = Self.learner(skipping: [])
        // 17 of 20 both times: once with the signs failed (1 of 4, under NY's 2), once all signs right.
        let failedSigns = Readiness.estimate(
            progress: progress, pool: R.synthetic, format: R.ny, now: R.now,
            tests: [Self.nyTest(1, id: 1, signs: 1, rules: 16)])
        let goodSigns = Readiness.estimate(
            progress: progress, pool: R.synthetic, format: R.ny, now: R.now,
            tests: [Self.nyTest(1, id: 1, signs: 4, rules: 13)])
        #expect(abs((failedSigns.tests.bySection["Road signs"]?.correct ?? 0) - 1) < 0.01)
        #expect(
            failedSigns.passProbability < goodSigns.passProbability - 0.03,
            "\(failedSigns.passProbability) vs \(goodSigns.passProbability)")
    }

    @Test func theScreenGivesOneCentralFigureInsideTheRange() {
        let e = Readiness.estimate(
            progress: Self.learner(skipping: []), pool: R.synthetic, format: R.ny, now: R.now,
            tests: [Self.nyTest(1, id: 1, signs: 3, rules: 12)])
        let shown = ReadinessSummary(
            estimate: e, status: Readiness.readyStatus(results: [], stateCode: "NY", estimate: e))
        #expect(shown.middlePercent % 5 == 0)
        #expect(shown.lowPercent <= shown.middlePercent && shown.middlePercent <= shown.highPercent)
        #expect(abs(Double(shown.middlePercent) - e.passProbability * 100) <= 2.5)
    }

    /// Item 3: the same first-answer record reads with a wider range when it covers less of the pool.
    @Test func theRangeWidensWhenLittleOfThePoolIsSeen() {
        var few: [String: QuestionStats] = [:]
        var many: [String: QuestionStats] = [:]
        for (i, q) in R.synthetic.enumerated() {
            if i % 2 == 0 { R.answer(&many, q.id, i % 4 != 0, at: R.now - 86_400) }
            if i % 8 == 0 { R.answer(&few, q.id, i % 32 != 0, at: R.now - 86_400) }
        }
        let tests = [Self.nyTest(1, id: 1, signs: 3, rules: 13), Self.nyTest(2, id: 2, signs: 3, rules: 13)]
        let narrow = Readiness.estimate(progress: many, pool: R.synthetic, format: R.ny, now: R.now, tests: tests)
        let wide = Readiness.estimate(progress: few, pool: R.synthetic, format: R.ny, now: R.now, tests: tests)
        func width(_ e: ReadinessEstimate) -> Double {
            e.passProbabilityRange.upperBound - e.passProbabilityRange.lowerBound
        }
        #expect(wide.seen * 3 < narrow.seen)
        #expect(width(wide) > width(narrow) + 0.02, "\(width(wide)) vs \(width(narrow))")
    }
}
