import Foundation
import Testing

@testable import TutorCore

/// Practice tests: built like each state's real test, deterministic, scored by its rules.
/// Shared sample data (kept outside the suite type).
enum PracticeSample {
    static func pool(signs: Int, rules: Int, state: String = "OH") -> [Question] {
        (0..<signs).map { Sample.question(1000 + $0, .roadSigns) }
            + (0..<rules).map { Sample.question(2000 + $0, $0 % 2 == 0 ? .parking : .rightOfWay) }
    }

    static let ohio = StateInfo(
        code: "OH", name: "Ohio", timeZones: ["America/New_York"], minPermitAge: 15.5, handbook: "Digest", launch: true,
        confidence: .high, note: nil,
        test: TestFormat(
            questions: 40, passCorrect: 30,
            sections: [
                TestSection(name: "Road signs", pool: .signs, questions: 20, passCorrect: 15),
                TestSection(name: "Traffic laws", pool: .rules, questions: 20, passCorrect: 15),
            ]))
    static let northCarolina = StateInfo(
        code: "NC", name: "North Carolina", timeZones: ["America/New_York"], minPermitAge: 15, handbook: "",
        launch: true, confidence: .high, note: nil,
        test: TestFormat(
            questions: 25, passCorrect: 20,
            sections: [
                TestSection(name: "Knowledge test", pool: .all, questions: 25),
                TestSection(name: "Road-sign test", pool: .signs, questions: 12, passCorrect: 9, separate: true),
            ]))

}

@Suite struct PracticeTestTests {
    @Test func fixedTestsHaveTheRightShapeAndNeverShareAQuestion() throws {
        let pool = PracticeSample.pool(signs: 90, rules: 120)
        var seen = Set<String>()
        for n in 1...4 {
            let exam = try ExamBuilder.fixedTest(n, state: PracticeSample.ohio, pool: pool)
            #expect(exam.questionIDs.count == 40)
            #expect(exam.sectionOfQuestion == Array(repeating: 0, count: 20) + Array(repeating: 1, count: 20))
            let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
            #expect(exam.questionIDs.prefix(20).allSatisfy { byID[$0]?.category == .roadSigns })
            #expect(exam.questionIDs.suffix(20).allSatisfy { byID[$0]?.category != .roadSigns })
            #expect(seen.isDisjoint(with: exam.questionIDs), "test \(n) repeats a question from an earlier test")
            seen.formUnion(exam.questionIDs)
            #expect(
                try ExamBuilder.fixedTest(n, state: PracticeSample.ohio, pool: pool.reversed()) == exam,
                "the same for everyone, whatever the file order")
        }
    }

    @Test func aSeparateSignTestDoesNotStarveTheMainTest() throws {
        let pool = PracticeSample.pool(signs: 48, rules: 100)
        for n in 1...4 {
            let exam = try ExamBuilder.fixedTest(n, state: PracticeSample.northCarolina, pool: pool)
            #expect(exam.questionIDs.count == 37)
            #expect(Set(exam.questionIDs).count == 37)
        }
    }

    @Test func tooFewQuestionsIsAClearError() {
        #expect(throws: ExamError.notEnoughQuestions(section: "Road signs", needed: 20, available: 30)) {
            try ExamBuilder.fixedTest(1, state: PracticeSample.ohio, pool: PracticeSample.pool(signs: 30, rules: 200))
        }
    }

    @Test func randomTestsHaveTheShapeAndDiffer() throws {
        var r1 = SeededRandom(seed: 1)
        var r2 = SeededRandom(seed: 2)
        let pool = PracticeSample.pool(signs: 90, rules: 120)
        let a = try ExamBuilder.randomTest(state: PracticeSample.ohio, pool: pool, random: &r1)
        let b = try ExamBuilder.randomTest(state: PracticeSample.ohio, pool: pool, random: &r2)
        #expect(a.questionIDs.count == 40 && Set(a.questionIDs).count == 40)
        #expect(a != b)
    }

    @Test func ohioNeedsFifteenInEachSection() {
        let sections = Array(repeating: 0, count: 20) + Array(repeating: 1, count: 20)
        // 14 signs + 20 laws = 34 ≥ 30 overall, but the signs section is short.
        let outcome = ExamScoring.score(
            format: PracticeSample.ohio.test, sectionOfQuestion: sections,
            correct: Array(repeating: true, count: 14) + Array(repeating: false, count: 6)
                + Array(repeating: true, count: 20))
        #expect(!outcome.passed)
        #expect(outcome.correct == 34 && outcome.needed == 30)
        #expect(
            outcome.sections[0]
                == SectionOutcome(
                    name: "Road signs", correct: 14, total: 20, needed: 15, separate: false, passed: false))
        let pass = ExamScoring.score(
            format: PracticeSample.ohio.test, sectionOfQuestion: sections,
            correct: Array(repeating: true, count: 15) + Array(repeating: false, count: 5)
                + Array(repeating: true, count: 15) + Array(repeating: false, count: 5))
        #expect(pass.passed && pass.correct == 30)
    }

    @Test func newYorkNeedsTwoOfTheFourSigns() {
        let ny = Sample.ny.test
        let sections = Array(repeating: 0, count: 4) + Array(repeating: 1, count: 16)
        let oneSign = ExamScoring.score(
            format: ny, sectionOfQuestion: sections,
            correct: [true, false, false, false] + Array(repeating: true, count: 16))
        #expect(oneSign.correct == 17 && !oneSign.passed, "17 of 20 fails with only 1 sign right")
        let twoSigns = ExamScoring.score(
            format: ny, sectionOfQuestion: sections,
            correct: [true, true, false, false] + Array(repeating: true, count: 12) + Array(repeating: false, count: 4))
        #expect(twoSigns.correct == 14 && twoSigns.passed)
    }

    @Test func northCarolinasSignTestIsSeparate() {
        let sections = Array(repeating: 0, count: 25) + Array(repeating: 1, count: 12)
        let allMain = Array(repeating: true, count: 25)
        let failedSigns = ExamScoring.score(
            format: PracticeSample.northCarolina.test, sectionOfQuestion: sections,
            correct: allMain + Array(repeating: true, count: 8) + Array(repeating: false, count: 4))
        #expect(failedSigns.total == 25 && failedSigns.correct == 25, "the sign test is outside the 25-question count")
        #expect(!failedSigns.passed)
        let passed = ExamScoring.score(
            format: PracticeSample.northCarolina.test, sectionOfQuestion: sections,
            correct: Array(repeating: true, count: 20) + Array(repeating: false, count: 5)
                + Array(repeating: true, count: 9) + Array(repeating: false, count: 3))
        #expect(passed.passed)
    }

    @Test func practiceTestRevealsAtTheEndAndResultsGiveTheReason() throws {
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        // NY's sample bank has 7 sign-free… give it enough: use a bank with signs.
        let banks = Banks(
            states: [Sample.ny], universal: PracticeSample.pool(signs: 20, rules: 80), stateQuestions: [:])
        let ctx = DialogueContext(banks: banks, now: Sample.t0, seed: 5)
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(s, .buttonTapped(callbackID: "c", action: .startTest(1), messageID: 1), ctx)
        let quiz = try #require(s.session.quiz)
        #expect(
            quiz.questionIDs.count == 20 && quiz.revealAtEnd == true
                && quiz.sectionOfQuestion?.prefix(4) == [0, 0, 0, 0])
        // Answer everything wrong: each answer is locked in without the answer, and the next question follows at once.
        for i in 0..<20 {
            let q = try #require(banks.question(s.session.quiz!.currentQuestionID))
            let wrong = (q.correctAnswerIndex + 1) % q.answers.count
            (s, effects) = Dialogue.reduce(
                s,
                .buttonTapped(
                    callbackID: "a\(i)", action: .answer(quiz: quiz.id, question: i, option: wrong), messageID: 10),
                DialogueContext(banks: banks, now: Sample.t0.addingTimeInterval(Double(i)), seed: UInt64(i)))
            guard case .edit(_, let locked) = effects[2], case .lockedIn = locked.message else {
                Issue.record("answer \(i) not locked in")
                return
            }
        }
        #expect(s.session.quiz == nil)
        guard case .send(let reply) = effects.last, case .results(let view) = reply.message else {
            Issue.record("no results")
            return
        }
        #expect(view.result.exam?.passed == false)
        #expect(
            view.result.exam?.sections[0]
                == SectionOutcome(name: "Road signs", correct: 0, total: 4, needed: 2, separate: false, passed: false))
        #expect(view.result.missedIDs.count == 20)
        #expect(reply.buttons.first == [Button(.seeMisses(count: 20), .missesPage(quiz: quiz.id, page: 0))])
    }

    /// A level reached mid-test waits for the results (play-test: "Level 3!" after Q34 said Q34
    /// was right, in a test that hides that until the end), and is announced once.
    @Test func aLevelReachedMidTestIsAnnouncedWithTheResults() throws {
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        s.learner.xp = XP.perLevel - 10
        let banks = Banks(
            states: [Sample.ny], universal: PracticeSample.pool(signs: 20, rules: 80), stateQuestions: [:])
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c", action: .startTest(1), messageID: 1),
            DialogueContext(banks: banks, now: Sample.t0, seed: 5))
        let quiz = try #require(s.session.quiz)
        func levelUps(_ effects: [Effect]) -> [Int] {
            effects.compactMap {
                if case .send(let r) = $0, case .levelUp(let level) = r.message { level } else { nil }
            }
        }
        var announced: [(answer: Int, level: Int)] = []
        for i in 0..<quiz.questionIDs.count {
            let q = try #require(banks.question(s.session.quiz!.currentQuestionID))
            (s, effects) = Dialogue.reduce(
                s,
                .buttonTapped(
                    callbackID: "a\(i)", action: .answer(quiz: quiz.id, question: i, option: q.correctAnswerIndex),
                    messageID: 10),
                DialogueContext(banks: banks, now: Sample.t0.addingTimeInterval(Double(i)), seed: UInt64(i)))
            announced += levelUps(effects).map { (i, $0) }
        }
        #expect(XP.level(s.learner.xp) >= 2 && s.session.quiz == nil)
        #expect(
            announced.map(\.answer) == [quiz.questionIDs.count - 1]
                && announced.map(\.level) == [XP.level(s.learner.xp)], "once, at the end: \(announced)")
        let results = effects.firstIndex {
            if case .send(let r) = $0, case .results = r.message { true } else { false }
        }
        let level = effects.firstIndex { if case .send(let r) = $0, case .levelUp = r.message { true } else { false } }
        #expect(results != nil && level != nil && results! < level!, "after the results")
    }

    /// Massachusetts gives 25 minutes: the test ends at the limit even if the learner walked away.
    @Test func aTimeLimitEndsTheTestWhenItRunsOut() throws {
        let ma = StateInfo(
            code: "MA", name: "Massachusetts", timeZones: ["America/New_York"], minPermitAge: 16, handbook: "",
            launch: true,
            confidence: .high, note: nil,
            test: TestFormat(
                questions: 25, passCorrect: 18, timeLimitMinutes: 25,
                sections: [TestSection(name: "All", pool: .all, questions: 25)]))
        let banks = Banks(states: [ma], universal: PracticeSample.pool(signs: 30, rules: 100), stateQuestions: [:])
        var s = Sample.newChat()
        s.learner.stateCode = "MA"
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "t", action: .startTest(2), messageID: 1),
            DialogueContext(banks: banks, now: Sample.t0, seed: 1))
        let quiz = try #require(s.session.quiz)
        #expect(effects.contains(.setTimer(key: "td\(quiz.id)", at: Sample.t0.addingTimeInterval(25 * 60))))
        (s, effects) = Dialogue.reduce(
            s, .timerFired(key: "td\(quiz.id)"),
            DialogueContext(banks: banks, now: Sample.t0.addingTimeInterval(25 * 60), seed: 2))
        #expect(s.session.quiz == nil)
        #expect(s.results.last?.timedOut == true && s.results.last?.missedIDs.count == 25)
        #expect(effects.first == .send(Reply(.notice(.timeRanOut))))
    }

    @Test func timedChallengeMissesAQuestionWhenItsTimerFires() throws {
        var (s, _) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "NY"), Sample.context())
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c", action: .menu(.timedChallenge), messageID: 1), Sample.context())
        let quiz = try #require(s.session.quiz)
        #expect(quiz.secondsPerQuestion == 20)
        #expect(effects.contains(.setTimer(key: "tq1.0", at: Sample.t0.addingTimeInterval(20))))
        let before = s
        (s, effects) = Dialogue.reduce(s, .timerFired(key: "tq1.0"), Sample.context(Sample.t0.addingTimeInterval(20)))
        #expect(s.session.quiz?.phase == .answered)
        #expect(
            s.session.quiz?.answers == [
                GivenAnswer(
                    questionID: quiz.questionIDs[0],
                    topic: before.session.quiz!.answers.first?.topic
                        ?? Sample.banks.question(quiz.questionIDs[0])!.category, chosen: -1, correct: false)
            ])
        #expect(s.progress[quiz.questionIDs[0]]?.missed == true)
        // The answer that raced the timer arrives second: it is already answered, nothing counts twice.
        let (same, late) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "late", action: .answer(quiz: 1, question: 0, option: 0), messageID: 9),
            Sample.context(Sample.t0.addingTimeInterval(20.5)))
        #expect(same.progress == s.progress && same.session == s.session)
        #expect(late == [.answerButton(callbackID: "late", toast: .alreadyAnswered)])
        // A stale timer (the question moved on) does nothing.
        let (unchanged, none) = Dialogue.reduce(
            s, .timerFired(key: "tq1.0"), Sample.context(Sample.t0.addingTimeInterval(30)))
        #expect(unchanged == s && none.isEmpty)
    }
}
