import Foundation
import TutorCore

/// Measures whether the pass chance the bot shows is true: simulated learners with a hidden,
/// fading knowledge of every question study the way real teens do (and the ways that fooled the
/// first readiness model), and after each simulated day the bot's prediction is compared with the
/// learner's true chance of passing a fresh random test of the state's format.
///
/// The hidden model is deliberately *not* the bot's: initial knowledge comes from a per-learner
/// ability and per-topic, per-difficulty ease (a logistic model), learning needs spaced exposure
/// (an answer seen again within the hour teaches little), and memory fades on a Weibull curve
/// whose strength triples with each spaced recall. The bot sees only right and wrong answers.
public enum Calibration {
    public enum Pattern: String, CaseIterable, Sendable {
        /// A quick quiz a day, misses reviewed the next day, a practice test every fourth day.
        case steady
        /// Almost nothing for ten days, then eight quizzes a day for two days.
        case cramming
        /// Only ever the road-sign topic.
        case oneTopic
        /// Every topic but the state's own rules.
        case noStateRules
        /// A quiz a day, then its misses re-answered at once, twice (recognition, not recall).
        case reanswerAtOnce
        /// Knows nothing and always picks the longest option.
        case longestOption
        /// Reads the lessons first (four a day, each followed by its check questions, answered
        /// minutes after reading), then studies steadily with quick quizzes and practice tests.
        case lessonsFirst
    }

    public struct Observation: Sendable {
        public var pattern: Pattern
        public var day: Int
        public var predicted: Double
        public var truth: Double
        public var shown: Bool
    }

    public struct Report: Sendable {
        public var observations: [Observation]

        public init(observations: [Observation]) { self.observations = observations }

        /// Observations the learner would have seen (the number is shown).
        public var shown: [Observation] { observations.filter(\.shown) }

        /// Expected Brier score of the prediction against a pass/fail outcome drawn from the truth.
        public var brier: Double {
            let s = shown
            guard !s.isEmpty else { return 0 }
            return s.reduce(0) { $0 + ($1.predicted - $1.truth) * ($1.predicted - $1.truth) + $1.truth * (1 - $1.truth) } / Double(s.count)
        }

        /// Per decile of the prediction: (mean predicted, mean truth, count).
        public var deciles: [(predicted: Double, truth: Double, count: Int)] {
            var sums = [(Double, Double, Int)](repeating: (0, 0, 0), count: 10)
            for o in shown {
                let d = min(9, Int(o.predicted * 10))
                sums[d].0 += o.predicted; sums[d].1 += o.truth; sums[d].2 += 1
            }
            return sums.map { $0.2 == 0 ? (0, 0, 0) : ($0.0 / Double($0.2), $0.1 / Double($0.2), $0.2) }
        }

        /// Mean absolute calibration error: the decile gaps weighted by their counts.
        public var calibrationError: Double {
            let total = deciles.reduce(0) { $0 + $1.count }
            guard total > 0 else { return 0 }
            return deciles.reduce(0) { $0 + abs($1.predicted - $1.truth) * Double($1.count) } / Double(total)
        }

        /// Mean (predicted − truth) per pattern, over shown observations: positive is flattery.
        public func bias(_ p: Pattern) -> Double? {
            let s = shown.filter { $0.pattern == p }
            guard !s.isEmpty else { return nil }
            return s.reduce(0) { $0 + $1.predicted - $1.truth } / Double(s.count)
        }

        public func maxPredicted(_ p: Pattern) -> Double? {
            shown.filter { $0.pattern == p }.map(\.predicted).max()
        }
    }

    /// Runs `learnersPerPattern` learners of every pattern for `days` days in `state`.
    /// `truthTests` fresh random tests are drawn per observation to measure the true pass rate.
    /// `lessons`: the learner's lesson path (the `lessonsFirst` pattern reads it; without lessons
    /// that pattern studies like `steady`).
    public static func run(state: StateInfo, pool: [Question], learnersPerPattern: Int, days: Int,
                           truthTests: Int, seed: UInt64, patterns: [Pattern] = Pattern.allCases, lessons: [Lesson] = []) -> Report {
        var observations: [Observation] = []
        for pattern in patterns {
            for n in 0..<learnersPerPattern {
                var sim = SimulatedLearner(pattern: pattern, pool: pool, state: state,
                                           seed: ExamBuilder.mixedHash(state.code, "\(pattern.rawValue)-\(n)-\(seed)"))
                sim.lessons = lessons
                for day in 0..<days {
                    sim.study(day: day)
                    // Both the bot and the truth look the next morning: nobody sits the real test
                    // minutes after re-reading the answers.
                    let at = sim.start.addingTimeInterval(Double(day + 1) * 86_400 + 9 * 3600)
                    let e = Readiness.estimate(progress: sim.progress, pool: pool, format: state.test, now: at)
                    let truth = sim.truePassRate(at: at, tests: truthTests)
                    observations.append(Observation(pattern: pattern, day: day + 1, predicted: e.passProbability, truth: truth, shown: e.isShown))
                }
            }
        }
        return Report(observations: observations)
    }
}

/// One simulated learner: the hidden truth, and the bot-side progress their answers produce.
struct SimulatedLearner {
    struct Memory { var durable: Bool; var strength: Double?; var lastExposure: Date? }

    let pattern: Calibration.Pattern
    let pool: [Question]
    let state: StateInfo
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var random: SeededRandom
    var memory: [String: Memory] = [:]
    var progress: [String: QuestionStats] = [:]
    var nextTest = 1
    var lessons: [Lesson] = []
    var lessonsRead = 0
    /// About ten minutes of lessons a day (2-4 minutes each with its checks).
    static let lessonsPerDay = 4

    init(pattern: Calibration.Pattern, pool: [Question], state: StateInfo, seed: UInt64) {
        self.pattern = pattern; self.pool = pool; self.state = state
        random = SeededRandom(seed: seed)
        // Ability: a normal draw (Box–Muller), in logits.
        let ability = pattern == .longestOption ? -20 : 0.7 * (-2 * log(random.unit())).squareRoot() * cos(2 * .pi * random.unit())
        for q in pool {
            let ease: Double = switch q.difficulty { case .easy: 0.3; case .medium: -0.5; case .hard: -1.2 }
            let topicEase = q.category == .stateSpecific ? -0.8 : (q.category == .roadSigns ? 0.3 : 0)
            let p = 1 / (1 + exp(-(ability + ease + topicEase)))
            memory[q.id] = Memory(durable: random.unit() < p, strength: nil, lastExposure: nil)
        }
    }

    /// Chance the hidden learner recalls `q` at `t`.
    func recall(_ id: String, at t: Date) -> Double {
        guard let m = memory[id] else { return 0 }
        if m.durable { return 1 }
        guard let s = m.strength, let last = m.lastExposure else { return 0 }
        let days = max(0, t.timeIntervalSince(last)) / 86_400
        return exp(-pow(days / s, 0.7))
    }

    func rightChance(_ q: Question, at t: Date) -> Double {
        if pattern == .longestOption { return Self.keyIsLongest(q) ? 1 : 0 }
        let r = recall(q.id, at: t)
        return r * 0.97 + (1 - r) * (q.kind == .fillIn ? 0 : 1 / Double(q.answers.count))
    }

    static func keyIsLongest(_ q: Question) -> Bool {
        let key = q.answers[q.correctAnswerIndex].count
        return q.answers.enumerated().allSatisfy { $0.offset == q.correctAnswerIndex || $0.element.count < key }
    }

    /// Reading a lesson: each question it teaches may be learned (a short-lived memory, like an
    /// answer seen once), more likely when it was already on its way.
    mutating func read(_ lesson: Lesson, at t: Date) {
        for id in lesson.teaches {
            guard var m = memory[id], !m.durable else { continue }
            if m.strength == nil {
                if random.unit() < 0.5 { m.strength = 1.0 }
            } else if random.unit() < 0.5 {
                m.strength = (m.strength ?? 1) * 1.5
            }
            m.lastExposure = t
            memory[id] = m
        }
    }

    /// Answers `q` at `t`: the bot records it; the hidden learner then sees the right answer.
    /// `taught`: a lesson's check, minutes after reading it (the bot counts it as recognition).
    mutating func answer(_ q: Question, at t: Date, taught: Bool = false) -> Bool {
        let right = random.unit() < rightChance(q, at: t)
        let unstudied = Knowledge.counts(progress[q.id], at: t) ? Readiness.FirstAnswers(progress: progress, pool: pool).unstudiedKnown(q) : nil
        progress[q.id, default: QuestionStats(lastAnsweredAt: t)].record(correct: right, at: t, question: q, unstudied: unstudied, taught: taught)
        guard pattern != .longestOption, var m = memory[q.id], !m.durable else { return right }
        let spaced = m.lastExposure.map { t.timeIntervalSince($0) >= 3600 } ?? true
        if let s = m.strength {
            // A spaced successful recall makes the memory last three times as long.
            if spaced && random.unit() < recall(q.id, at: t) { m.strength = s * 3 }
        } else if random.unit() < (spaced ? 0.35 : 0.1) {
            m.strength = 1.5
        }
        m.lastExposure = t
        memory[q.id] = m
        return right
    }

    mutating func quiz(_ questions: [Question], at t: Date) -> [Question] {
        var missed: [Question] = []
        for (i, q) in questions.enumerated() where !answer(q, at: t.addingTimeInterval(Double(i) * 20)) { missed.append(q) }
        return missed
    }

    func quickPool() -> [Question] {
        switch pattern {
        case .oneTopic: return pool.filter { $0.category == .roadSigns }
        case .noStateRules: return pool.filter { $0.category != .stateSpecific }
        default: return pool
        }
    }

    mutating func study(day: Int) {
        let t = start.addingTimeInterval(Double(day) * 86_400 + 16 * 3600)
        if pattern == .lessonsFirst, lessonsRead < lessons.count {
            let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
            for (i, lesson) in lessons[lessonsRead..<min(lessons.count, lessonsRead + Self.lessonsPerDay)].enumerated() {
                let at = t.addingTimeInterval(Double(i) * 240)
                read(lesson, at: at)
                for (k, id) in lesson.checkQuestionIds.enumerated() {
                    if let q = byID[id] { _ = answer(q, at: at.addingTimeInterval(120 + Double(k) * 15), taught: true) }
                }
            }
            lessonsRead = min(lessons.count, lessonsRead + Self.lessonsPerDay)
            return
        }
        var sessions = 1
        switch pattern {
        case .cramming: sessions = day < 10 ? (day == 0 ? 1 : 0) : 8
        default: break
        }
        for s in 0..<sessions {
            let at = t.addingTimeInterval(Double(s) * 1800)
            let questions = QuestionPicker.pick(QuestionPicker.quizLength, from: quickPool(), progress: progress, random: &random)
            let missed = quiz(questions, at: at)
            if pattern == .reanswerAtOnce {
                let again = quiz(missed, at: at.addingTimeInterval(300))
                _ = quiz(again, at: at.addingTimeInterval(600))
            }
        }
        if pattern == .steady || pattern == .reanswerAtOnce || pattern == .longestOption || pattern == .lessonsFirst, day % 4 == 3,
           let exam = try? ExamBuilder.fixedTest(nextTest, state: state, pool: pool) {
            let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
            _ = quiz(exam.questionIDs.compactMap { byID[$0] }, at: t.addingTimeInterval(3 * 3600))
            nextTest = nextTest % ExamBuilder.fixedTests + 1
        }
    }

    /// The share of fresh random tests of the state's format this learner would pass at `t`:
    /// each test drawn by the practice-test blueprint, each answer right with the hidden chance.
    /// `tests` 0: the exact Poisson-binomial probability of a test with each slot at its bucket's mean.
    mutating func truePassRate(at t: Date, tests: Int) -> Double {
        let chance = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, rightChance($0, at: t)) })
        if tests == 0 { return Readiness.passProbability(format: state.test, pool: pool, chance: chance) }
        var passed = 0
        for _ in 0..<tests {
            guard let exam = try? ExamBuilder.randomTest(state: state, pool: pool, random: &random) else { return 0 }
            let right = exam.questionIDs.map { random.unit() < chance[$0]! }
            if ExamScoring.score(format: state.test, sectionOfQuestion: exam.sectionOfQuestion, correct: right).passed { passed += 1 }
        }
        return Double(passed) / Double(tests)
    }
}
