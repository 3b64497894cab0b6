import Foundation
import TutorCore

/// One simulated learner: a hidden knowledge (`HiddenKnowledge`, one of the `Generator`s), a way of
/// studying (`Calibration.Pattern`), and the bot-side progress and practice-test results their
/// answers produce, which are all the estimator is given.
struct SimulatedLearner {
    let pattern: Calibration.Pattern
    let pool: [Question]
    let byID: [String: Question]
    let state: StateInfo
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var random: SeededRandom
    var hidden: HiddenKnowledge
    var progress: [String: QuestionStats] = [:]
    var results: [QuizResult] = []
    var testsTaken = Set<Int>()
    var nextTest = 1
    var lessons: [Lesson] = []
    var lessonsRead = 0
    /// About ten minutes of lessons a day (2-4 minutes each with its checks).
    static let lessonsPerDay = 4

    init(pattern: Calibration.Pattern, generator: Generator, pool: [Question], state: StateInfo, seed: UInt64) {
        self.pattern = pattern
        self.pool = pool
        self.state = state
        byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
        random = SeededRandom(seed: seed)
        let ability = 0.7 * HiddenKnowledge.normal(&random) + pattern.abilityOffset
        hidden = HiddenKnowledge(
            generator: generator, pool: pool, ability: ability,
            guessesLongest: pattern == .longestOption, random: &random)
    }

    func rightChance(_ q: Question, at t: Date) -> Double { hidden.rightChance(q, at: t) }

    /// Answers `q` at `t`: the bot records it; the hidden learner then sees the right answer.
    /// `taught`: a lesson's check, minutes after reading it (the bot counts it as recognition).
    mutating func answer(_ q: Question, at t: Date, taught: Bool = false) -> Bool {
        let right = random.unit() < rightChance(q, at: t)
        let unstudied =
            Knowledge.counts(progress[q.id], at: t)
            ? Readiness.FirstAnswers(progress: progress, pool: pool).unstudiedKnown(q) : nil
        progress[q.id, default: QuestionStats(lastAnsweredAt: t)].record(
            correct: right, at: t, question: q, unstudied: unstudied, taught: taught)
        hidden.expose(q, at: t, right: right, random: &random)
        return right
    }

    mutating func quiz(_ questions: [Question], at t: Date) -> [Question] {
        var missed: [Question] = []
        for (i, q) in questions.enumerated() where !answer(q, at: t.addingTimeInterval(Double(i) * 20)) {
            missed.append(q)
        }
        return missed
    }

    /// Sits a practice test (`number` 1-4 fixed, 0 random) and keeps its result, as the bot does.
    @discardableResult
    mutating func practiceTest(_ number: Int, at t: Date) -> Bool {
        let exam: PracticeExam?
        if number == 0 {
            exam = try? ExamBuilder.randomTest(state: state, pool: pool, random: &random)
        } else {
            exam = try? ExamBuilder.fixedTest(number, state: state, pool: pool)
        }
        guard let exam else { return false }
        var right: [Bool] = []
        var freshCorrect = 0.0
        var freshTotal = 0.0  // as the bot weighs a test's answers (`QuizRun.freshTotal`)
        for (i, id) in exam.questionIDs.enumerated() {
            guard let q = byID[id] else {
                right.append(false)
                continue
            }
            let at = t.addingTimeInterval(Double(i) * 20)
            let w = Knowledge.evidenceWeight(progress[q.id], at: at)
            right.append(answer(q, at: at))
            freshTotal += w
            if right.last == true { freshCorrect += w }
        }
        let outcome = ExamScoring.score(format: state.test, sectionOfQuestion: exam.sectionOfQuestion, correct: right)
        var result = QuizResult(
            quizID: (results.last?.quizID ?? 0) + 1, mode: .practiceTest(number: number), stateCode: state.code,
            correct: outcome.correct, total: outcome.total, passPercent: nil, startedAt: t,
            finishedAt: t.addingTimeInterval(Double(right.count) * 20), byTopic: [], missedIDs: [], exam: outcome)
        result.freshCorrect = freshCorrect
        result.freshTotal = freshTotal
        result.modelAccuracy =
            Readiness.estimate(progress: progress, pool: pool, format: state.test, now: result.finishedAt).modelAccuracy
        // Kept as the bot keeps them: a retake flagged when it ends, the latest results and first tries.
        if number != 0 { result.retake = !testsTaken.insert(number).inserted }
        results = ChatState.kept(results + [result])
        return outcome.passed
    }

    func quickPool() -> [Question] {
        switch pattern {
        case .oneTopic: return pool.filter { $0.category == .roadSigns }
        case .noStateRules: return pool.filter { $0.category != .stateSpecific }
        default: return pool
        }
    }

    mutating func quickQuiz(at t: Date) -> [Question] {
        let questions = QuestionPicker.pick(
            QuestionPicker.quizLength, from: quickPool(), progress: progress, random: &random)
        return quiz(questions, at: t)
    }

    mutating func study(day: Int) {
        let t = start.addingTimeInterval(Double(day) * 86_400 + 16 * 3600)
        if pattern == .lessonsFirst, lessonsRead < lessons.count {
            for (i, lesson) in lessons[lessonsRead..<min(lessons.count, lessonsRead + Self.lessonsPerDay)].enumerated()
            {
                let at = t.addingTimeInterval(Double(i) * 240)
                hidden.read(teaching: lesson.teaches, at: at, random: &random)
                for (k, id) in lesson.checkQuestionIds.enumerated() {
                    if let q = byID[id] { _ = answer(q, at: at.addingTimeInterval(120 + Double(k) * 15), taught: true) }
                }
            }
            lessonsRead = min(lessons.count, lessonsRead + Self.lessonsPerDay)
            return
        }
        switch pattern {
        case .cramOneDay:
            // 150 quick-quiz questions in five sittings through the day, practice tests 1-4 that
            // evening, then nothing.
            guard day == 0 else { return }
            let morning = start.addingTimeInterval(9 * 3600)
            for sitting in 0..<5 {
                for q in 0..<3 {
                    _ = quickQuiz(at: morning.addingTimeInterval(Double(sitting) * 7200 + Double(q) * 240))
                }
            }
            for n in 1...ExamBuilder.fixedTests {
                practiceTest(n, at: morning.addingTimeInterval(10 * 3600 + Double(n - 1) * 900))
            }
            return
        case .retakeSixADay:
            // Six practice tests a day for six days: tests 1-4 in turn, each retaken until passed.
            guard day < 6 else { return }
            for k in 0..<6 {
                let passed = practiceTest(
                    nextTest, at: start.addingTimeInterval(Double(day) * 86_400 + Double(10 + 2 * k) * 3600))
                if passed { nextTest = nextTest % ExamBuilder.fixedTests + 1 }
            }
            return
        case .cramming:
            for s in 0..<(day < 10 ? (day == 0 ? 1 : 0) : 8) {
                _ = quickQuiz(at: t.addingTimeInterval(Double(s) * 1800))
            }
        case .reanswerAtOnce:
            let missed = quickQuiz(at: t)
            let again = quiz(missed, at: t.addingTimeInterval(300))
            _ = quiz(again, at: t.addingTimeInterval(600))
        case .quickQuizOnly:
            _ = quickQuiz(at: t)
            _ = quickQuiz(at: t.addingTimeInterval(1800))
        case .repeatTests:
            // Tests 1-4 in turn, each retaken the next day until it is passed, then round again.
            if practiceTest(nextTest, at: t) { nextTest = nextTest % ExamBuilder.fixedTests + 1 }
            return
        case .readyChaser:
            _ = quickQuiz(at: t)
            practiceTest(0, at: t.addingTimeInterval(3600))
            return
        default:
            _ = quickQuiz(at: t)
        }
        if pattern.takesATestEveryFourthDay, day % 4 == 3 {
            practiceTest(nextTest, at: t.addingTimeInterval(3 * 3600))
            nextTest = nextTest % ExamBuilder.fixedTests + 1
        }
    }

    /// The exact chance this learner passes a fresh random test of the state's format at `t`
    /// (`tests` 0: every slot at its bucket's mean hidden chance, Poisson-binomial), or the share of
    /// `tests` random tests drawn by the practice-test blueprint that they pass.
    mutating func truePassRate(at t: Date, tests: Int) -> Double {
        let chance = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, hidden.testChance($0, at: t)) })
        if tests == 0 { return Readiness.passProbability(format: state.test, pool: pool, chance: chance) }
        var passed = 0
        for _ in 0..<tests {
            guard let exam = try? ExamBuilder.randomTest(state: state, pool: pool, random: &random) else { return 0 }
            let right = exam.questionIDs.map { random.unit() < chance[$0]! }
            if ExamScoring.score(format: state.test, sectionOfQuestion: exam.sectionOfQuestion, correct: right).passed {
                passed += 1
            }
        }
        return Double(passed) / Double(tests)
    }
}
