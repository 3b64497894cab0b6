import Foundation
import TutorCore

/// Measures whether the pass chance the bot shows is true: simulated learners with a hidden,
/// fading knowledge of every question (three generators built on different assumptions, see
/// `Generator`) study the way real teens do (and the ways that fooled earlier readiness models),
/// and after each simulated day the range the bot would show is compared with the learner's exact
/// chance of passing a fresh test of the state's format.
public enum Calibration {
    public enum Pattern: String, CaseIterable, Sendable {
        /// A quick quiz a day, a practice test every fourth day (tests 1-4 in turn).
        case steady
        /// Like steady, with strong prior knowledge (ability +1.5 logits) shown only by first answers.
        case strong
        /// Like steady, with little prior knowledge (ability −1 logit).
        case weak
        /// Almost nothing for ten days, then eight quizzes a day.
        case cramming
        /// Two quick quizzes a day, never a practice test.
        case quickQuizOnly
        /// Only ever the road-sign topic.
        case oneTopic
        /// Every topic but the state's own rules.
        case noStateRules
        /// A quiz a day, then its misses re-answered at once, twice (recognition, not recall).
        case reanswerAtOnce
        /// Practice tests 1-4 only, each retaken day after day until passed (memorising the tests).
        case repeatTests
        /// Chases "Ready": a quiz and a fresh random practice test every day.
        case readyChaser
        /// Reads the lessons first (four a day, each followed by its check questions, answered
        /// minutes after reading), then studies steadily with quick quizzes and practice tests.
        case lessonsFirst
        /// Knows nothing and always picks the longest option.
        case longestOption
        /// One day: 150 quick-quiz questions in five sittings, practice tests 1-4 that evening, then nothing.
        case cramOneDay
        /// Six practice tests a day for six days, tests 1-4 in turn, each retaken until passed.
        case retakeSixADay

        var abilityOffset: Double { self == .strong ? 1.5 : self == .weak ? -1 : 0 }
        var takesATestEveryFourthDay: Bool {
            [.steady, .strong, .weak, .reanswerAtOnce, .longestOption, .lessonsFirst].contains(self)
        }
    }

    public struct Observation: Sendable {
        public var generator: Generator
        public var pattern: Pattern
        public var day: Int
        /// The estimate's central value, and the range the learner is shown (rounded outward to
        /// multiples of 5, as on screen).
        public var predicted: Double
        public var low: Double
        public var high: Double
        /// What the learner is shown as one number: "about 45%" (the estimate to the nearest 5).
        public var middle: Double
        public var truth: Double
        public var shown: Bool
        /// "Ready to test" was shown.
        public var ready: Bool
        public var midpoint: Double { middle }
    }

    public struct Report: Sendable {
        public var observations: [Observation]

        public init(observations: [Observation]) { self.observations = observations }

        /// Observations the learner would have seen (the number is shown).
        public var shown: [Observation] { observations.filter(\.shown) }

        public func only(_ g: Generator) -> Report { Report(observations: observations.filter { $0.generator == g }) }
        public func only(_ p: Pattern) -> Report { Report(observations: observations.filter { $0.pattern == p }) }

        /// Expected Brier score of the central value against a pass/fail outcome drawn from the truth.
        public var brier: Double {
            mean(shown) { ($0.predicted - $0.truth) * ($0.predicted - $0.truth) + $0.truth * (1 - $0.truth) } ?? 0
        }

        /// Per decile of what is shown (the range's middle): (mean shown, mean truth, count).
        public var deciles: [(predicted: Double, truth: Double, count: Int)] {
            var sums = [(Double, Double, Int)](repeating: (0, 0, 0), count: 10)
            for o in shown {
                let d = min(9, Int(o.midpoint * 10))
                sums[d].0 += o.midpoint
                sums[d].1 += o.truth
                sums[d].2 += 1
            }
            return sums.map { $0.2 == 0 ? (0, 0, 0) : ($0.0 / Double($0.2), $0.1 / Double($0.2), $0.2) }
        }

        /// Decile-binned calibration error: the deciles' |shown − true| weighted by their counts.
        public var calibrationError: Double {
            let total = deciles.reduce(0) { $0 + $1.count }
            guard total > 0 else { return 0 }
            return deciles.reduce(0) { $0 + abs($1.predicted - $1.truth) * Double($1.count) } / Double(total)
        }

        /// Mean |range middle − truth|: how far off one reading is, on average.
        public var meanAbsoluteError: Double { mean(shown) { abs($0.midpoint - $0.truth) } ?? 0 }
        /// Share of readings whose range holds the truth.
        public var coverage: Double { mean(shown) { $0.low <= $0.truth && $0.truth <= $0.high ? 1 : 0 } ?? 0 }
        /// Mean range width (high − low) of readings on days `days`.
        public func width(days: ClosedRange<Int>) -> Double? {
            mean(shown.filter { days.contains($0.day) }) { $0.high - $0.low }
        }
        /// Readings showing "Ready to test" while the true chance was under `truth`.
        public func readyBelow(_ truth: Double) -> Int { shown.filter { $0.ready && $0.truth < truth }.count }

        /// Mean (shown − truth) per pattern, over shown observations: positive is flattery.
        public func bias(_ p: Pattern) -> Double? { mean(shown.filter { $0.pattern == p }) { $0.midpoint - $0.truth } }

        /// The highest range middle shown to a learner of `p`.
        public func maxPredicted(_ p: Pattern) -> Double? { shown.filter { $0.pattern == p }.map(\.midpoint).max() }

        private func mean(_ os: [Observation], _ f: (Observation) -> Double) -> Double? {
            os.isEmpty ? nil : os.reduce(0) { $0 + f($1) } / Double(os.count)
        }
    }

    /// Runs `learnersPerPattern` learners of every pattern and generator for `days` days in `state`.
    /// Each learner is read every morning and right after each practice test (the results screen).
    /// `truthTests` fresh random tests are drawn per observation to measure the true pass rate
    /// (0: the exact pass probability). `lessons`: the learner's lesson path (the `lessonsFirst`
    /// pattern reads it; without lessons that pattern studies like `steady`).
    public static func run(
        state: StateInfo, pool: [Question], learnersPerPattern: Int, days: Int,
        truthTests: Int, seed: UInt64, patterns: [Pattern] = Pattern.allCases,
        generators: [Generator] = Generator.allCases, lessons: [Lesson] = []
    ) -> Report {
        var observations: [Observation] = []
        for generator in generators {
            for pattern in patterns {
                for n in 0..<learnersPerPattern {
                    let name =
                        generator == .logistic
                        ? "\(pattern.rawValue)-\(n)-\(seed)" : "\(generator.rawValue)-\(pattern.rawValue)-\(n)-\(seed)"
                    var sim = SimulatedLearner(
                        pattern: pattern, generator: generator, pool: pool, state: state,
                        seed: ExamBuilder.mixedHash(state.code, name))
                    sim.lessons = lessons
                    func observe(day: Int, at: Date) {
                        let e = Readiness.estimate(
                            progress: sim.progress, pool: pool, format: state.test, now: at, tests: sim.results)
                        let status = Readiness.readyStatus(results: sim.results, stateCode: state.code, estimate: e)
                        let shown = ReadinessSummary(estimate: e, status: status)
                        let truth = sim.truePassRate(at: at, tests: truthTests)
                        observations.append(
                            Observation(
                                generator: generator, pattern: pattern, day: day, predicted: e.passProbability,
                                low: Double(shown.lowPercent) / 100, high: Double(shown.highPercent) / 100,
                                middle: Double(shown.middlePercent) / 100, truth: truth, shown: e.isShown,
                                ready: shown.ready))
                    }
                    for day in 0..<days {
                        let lastBefore = sim.results.last?.quizID
                        sim.study(day: day)
                        if let last = sim.results.last, last.quizID != lastBefore {
                            observe(day: day + 1, at: last.finishedAt)
                        }
                        // And the next morning: nobody sits the real test minutes after re-reading the answers.
                        observe(day: day + 1, at: sim.start.addingTimeInterval(Double(day + 1) * 86_400 + 9 * 3600))
                    }
                }
            }
        }
        return Report(observations: observations)
    }
}
