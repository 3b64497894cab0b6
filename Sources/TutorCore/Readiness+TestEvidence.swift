import Foundation

extension Readiness {
    /// What the learner's recent practice tests of this state's format say directly: right answers
    /// and questions, each test weighted by freshness (`testHalfLifeDays`) and by whether its
    /// questions were new to the learner (a retake of a fixed test counts `retakeWeight`).
    public struct TestEvidence: Equatable, Sendable {
        public var correct = 0.0
        public var total = 0.0
        /// Tests counted as fresh (a first try, within a half-life).
        public var fresh = 0
        /// Tests counted at all (of the last `testsConsidered`).
        public var counted = 0
        /// The latest test was a retake of a fixed test.
        public var lastWasRetake = false
        /// The same, by the test's section name (NY's "Road signs" and "Rules of the road").
        public var bySection: [String: Score] = [:]
        public init() {}

        public struct Score: Equatable, Sendable {
            public var correct = 0.0
            public var total = 0.0
            static func + (a: Score, b: Score) -> Score {
                Score(correct: a.correct + b.correct, total: a.total + b.total)
            }
        }

        /// `results`: the learner's results in this state, oldest first (other modes are skipped).
        /// `modelNow`: the knowledge model's expected accuracy now. A test measured what the
        /// learner knew when they took it: where the model now expects less than it did then
        /// (`QuizResult.modelAccuracy`), the test's score comes down by as much, so a crammed
        /// evening's tests fade as the crammed answers do.
        public init(results: [QuizResult], now: Date, modelNow: Double? = nil) {
            var taken = Set<Int>()
            var tests: [(result: QuizResult, retake: Bool)] = []
            for r in results where r.total > 0 && r.timedOut != true {
                guard case .practiceTest(let n) = r.mode else { continue }
                let takenBefore = !taken.insert(n).inserted
                tests.append((r, n != 0 && (takenBefore || r.retake == true)))
            }
            // The last fresh tests (first tries, random draws) and only the retakes among the latest
            // results: retaking one test over and over must not push real attempts out.
            let freshIndices = tests.indices.filter { !tests[$0].retake }.suffix(Readiness.testsConsidered)
            let latest = tests.indices.suffix(Readiness.testsConsidered)
            let used = tests.indices.filter { freshIndices.contains($0) || (tests[$0].retake && latest.contains($0)) }
            for (r, retake) in used.map({ tests[$0] }) {
                let days = max(0, now.timeIntervalSince(r.finishedAt)) / 86_400
                let freshness = pow(0.5, days / Readiness.testHalfLifeDays)
                let w = freshness * (retake ? Readiness.retakeWeight : 1)
                // Only what could not have been recognised: a question whose answer was shown hours
                // before the test (in the day's quizzes, a test taken that morning) counts that much less.
                let asked = r.freshTotal ?? Double(r.total)
                let right = r.freshCorrect ?? Double(r.correct)
                // Only down: an old test never claims more than it showed (later study counts
                // through the model itself), but it fades as the knowledge it measured does.
                let drift = min(0, modelNow.flatMap { now in r.modelAccuracy.map { now - $0 } } ?? 0)
                correct += w * Self.carried(right, of: asked, drift: drift)
                total += w * asked
                // Each section's share, discounted as the whole test's answers were (its right
                // answers by the test's fresh share of right answers, its questions by the fresh share of questions).
                let rightScale = r.correct > 0 ? w * right / Double(r.correct) : 0
                let askedScale = r.total > 0 ? w * asked / Double(r.total) : 0
                for section in r.exam?.sections ?? [] where section.total > 0 {
                    let sectionAsked = askedScale * Double(section.total)
                    let sectionRight = Self.carried(
                        rightScale * Double(section.correct), of: sectionAsked, drift: drift)
                    bySection[section.name, default: Score()] =
                        bySection[section.name, default: Score()]
                        + Score(correct: sectionRight, total: sectionAsked)
                }
                counted += 1
                if !retake && freshness >= 0.5 && asked >= 0.5 * Double(r.total) { fresh += 1 }
            }
            lastWasRetake = tests.last?.retake ?? false
        }

        /// Right answers of `asked`, moved by the model's drift since the test (as a share), kept in range.
        static func carried(_ right: Double, of asked: Double, drift: Double) -> Double {
            min(asked, max(0, right + drift * asked))
        }
    }
}
