import Foundation
import Testing

@testable import TutorCore

/// Issue #40: what a learner only recognises is not what they know. An answer seen hours ago, a
/// practice test taken the evening of a crammed day, a test retaken the same day: each counts for
/// less, and what was crammed fades when study stops.
struct RecognitionTests {
    typealias R = ReadinessTests
    static let texas = PassChanceEvidenceTests.texas
    static let cramDay = R.now - 3 * 86_400

    /// A learner who answers right about 60% of what is new to them, and crams: 150 quiz answers
    /// in five sittings two hours apart (misses come back in the next sitting and are now answered
    /// right: the answer was just shown), then practice tests 1-4 that evening, each of whose
    /// questions it met in the day's quizzes answered right.
    static func crammer() -> (progress: [String: QuestionStats], tests: [QuizResult]) {
        var progress: [String: QuestionStats] = [:]
        let questions = R.synthetic.filter { $0.stateCode == nil }
        var missed: [String] = []
        var asked = 0
        for sitting in 0..<5 {
            var t = cramDay + 9 * 3600 + Double(sitting) * 7200
            for id in missed {
                R.answer(&progress, id, true, at: t)
                t += 20
            }
            missed = []
            while asked < 30 * (sitting + 1) {
                let q = questions[asked]
                let right = asked % 5 < 3
                R.answer(&progress, q.id, right, at: t)
                t += 20
                if !right { missed.append(q.id) }
                asked += 1
            }
        }
        // Each evening test: 10 questions from the afternoon's quizzes, two to four hours before
        // (recognised: all right), and 20 new ones at the learner's 60%.
        var tests: [QuizResult] = []
        for n in 1...4 {
            let end = cramDay + 19 * 3600 + Double(n) * 900
            var fresh = (correct: 0.0, total: 0.0)
            var right = 0
            for k in 0..<30 {
                let id = k < 10 ? questions[110 + (n - 1) * 10 + k].id : questions[150 + (n - 1) * 20 + k - 10].id
                let correct = k < 10 || k % 5 < 3
                let w = Knowledge.evidenceWeight(progress[id], at: end - 600)
                fresh.total += w
                if correct {
                    fresh.correct += w
                    right += 1
                }
                R.answer(&progress, id, correct, at: end - 600)
            }
            var result = PassChanceEvidenceTests.test(n, id: n, correct: right)
            result.finishedAt = end
            result.startedAt = end - 1200
            result.freshCorrect = fresh.correct
            result.freshTotal = fresh.total
            tests.append(result)
        }
        return (progress, tests)
    }

    func estimate(_ learner: (progress: [String: QuestionStats], tests: [QuizResult]), at now: Date)
        -> ReadinessEstimate
    {
        Readiness.estimate(
            progress: learner.progress, pool: R.synthetic, format: Self.texas, now: now, tests: learner.tests)
    }

    @Test func theCrammersChanceFallsOnEachOfTheThreeMorningsAfter() {
        let learner = Self.crammer()
        let evening = estimate(learner, at: Self.cramDay + 20 * 3600)
        var last = evening.passProbability
        for morning in 1...3 {
            let e = estimate(learner, at: Self.cramDay + Double(morning) * 86_400 + 9 * 3600)
            #expect(e.passProbability < last - 0.005, "morning \(morning): \(last) → \(e.passProbability)")
            last = e.passProbability
        }
    }

    /// A crammed evening's tests fade as the crammed answers do: with the model's expectation
    /// recorded when each test ended (as the bot records it), three mornings later the chance is
    /// lower than the same tests read as if their scores still held; that evening, the same.
    @Test func aCrammedEveningsTestsFadeWithTheCrammedAnswers() {
        let plain = Self.crammer()
        var recorded = plain
        for i in recorded.tests.indices {
            recorded.tests[i].modelAccuracy =
                Readiness.estimate(
                    progress: recorded.progress, pool: R.synthetic, format: Self.texas,
                    now: recorded.tests[i].finishedAt
                ).modelAccuracy
        }
        let evening = Self.cramDay + 20 * 3600
        let thirdMorning = Self.cramDay + 3 * 86_400 + 9 * 3600
        #expect(
            abs(estimate(recorded, at: evening).passProbability - estimate(plain, at: evening).passProbability) < 0.03)
        let faded = estimate(recorded, at: thirdMorning).passProbability
        let held = estimate(plain, at: thirdMorning).passProbability
        #expect(faded < held - 0.01, "faded \(faded), held \(held)")
    }

    /// A test's questions seen hours before it count for what they are: recognition.
    @Test func aTestOfQuestionsSeenThatDayCountsForLessThanANewOne() {
        let learner = Self.crammer()
        for test in learner.tests {
            #expect((test.freshTotal ?? 30) < 22, "10 of 30 seen hours before: \(test.freshTotal ?? -1)")
        }
        let evidence = Readiness.TestEvidence(results: learner.tests, now: Self.cramDay + 20 * 3600)
        #expect(
            evidence.correct / evidence.total < Double(learner.tests.map(\.correct).reduce(0, +)) / 120 - 0.05,
            "the recognised answers are not counted as knowledge")
    }

    @Test func aRetakeTheSameDayMovesTheNumberLessThanAFreshTest() {
        let base = PassChanceEvidenceTests.midLearner()
        let first = PassChanceEvidenceTests.test(1, id: 1, correct: 18)
        func chance(_ tests: [QuizResult]) -> Double {
            Readiness.estimate(progress: base, pool: R.synthetic, format: Self.texas, now: R.now, tests: tests)
                .passProbability
        }
        let before = chance([first])
        let retake = chance([first, PassChanceEvidenceTests.test(1, id: 2, correct: 28)])
        let fresh = chance([first, PassChanceEvidenceTests.test(2, id: 2, correct: 28)])
        #expect(retake - before < (fresh - before) / 3, "retake +\(retake - before), fresh +\(fresh - before)")
    }

    /// Evidence weight: nothing minutes after the answer was shown, a little after hours, nearly
    /// all a day later; a question never answered counts fully.
    @Test func anAnswerCountsMoreTheLongerAfterItsAnswerWasShown() {
        var stats = QuestionStats(lastAnsweredAt: R.now)
        #expect(Knowledge.evidenceWeight(nil, at: R.now) == 1)
        stats.seen = 1
        let minutes = Knowledge.evidenceWeight(stats, at: R.now + 300)
        let hours = Knowledge.evidenceWeight(stats, at: R.now + 4 * 3600)
        let day = Knowledge.evidenceWeight(stats, at: R.now + 86_400)
        #expect(minutes < 0.02 && hours > 0.1 && hours < 0.3 && day > 0.85, "\(minutes) \(hours) \(day)")
    }
}
