import Foundation
import LearnerSimulation
import Testing

@testable import TutorCore

extension ReadinessTests {
    @Test func readyNeedsThreeDifferentTestsWithMarginEveryTopicAndAHighChance() {
        var progress: [String: QuestionStats] = [:]
        for q in Self.synthetic { Self.answer(&progress, q.id, true, at: Self.now - 3600) }
        let strong = Readiness.estimate(
            progress: progress, pool: Self.synthetic, format: Self.plain(30, 21), now: Self.now)
        #expect(strong.isShown && strong.passProbability > 0.85 && strong.topicsNotTried.isEmpty)
        // Three passes of the same test count once; 21 of 30 is a pass by one question, not by 10 points.
        let same = [
            Self.testResult(1, id: 1, correct: 28), Self.testResult(1, id: 2, correct: 28),
            Self.testResult(1, id: 3, correct: 28),
        ]
        #expect(Readiness.readyStatus(results: same, stateCode: "TX", estimate: strong).testsPassedWithMargin == 1)
        // A retake is memory of its answers: test 1 failed, then retaken at 29/30, still counts as failed.
        let memorised = [
            Self.testResult(1, id: 1, correct: 15), Self.testResult(2, id: 2, correct: 27),
            Self.testResult(3, id: 3, correct: 28), Self.testResult(1, id: 4, correct: 29),
        ]
        #expect(Readiness.readyStatus(results: memorised, stateCode: "TX", estimate: strong).testsPassedWithMargin == 2)
        // 23 of 30 (77%) passes the 70% mark, but not by 10 points.
        let scraped = [
            Self.testResult(1, id: 1, correct: 23), Self.testResult(2, id: 2, correct: 23),
            Self.testResult(3, id: 3, correct: 23),
        ]
        #expect(!Readiness.readyStatus(results: scraped, stateCode: "TX", estimate: strong).isReady)
        let earned = [
            Self.testResult(1, id: 1, correct: 27), Self.testResult(2, id: 2, correct: 28),
            Self.testResult(0, id: 3, correct: 27),
        ]
        #expect(Readiness.readyStatus(results: earned, stateCode: "TX", estimate: strong).isReady)
        // Another state's results do not count here.
        #expect(!Readiness.readyStatus(results: earned, stateCode: "WY", estimate: strong).isReady)
        // Untried topics keep the badge away and are counted.
        var partial = progress
        for q in Self.synthetic where q.category == .crashes || q.category == .freeways { partial[q.id] = nil }
        let gaps = Readiness.estimate(
            progress: partial, pool: Self.synthetic, format: Self.plain(30, 21), now: Self.now)
        let status = Readiness.readyStatus(results: earned, stateCode: "TX", estimate: gaps)
        #expect(!status.isReady && status.topicsNotTried == 2)
    }
}
