import Foundation
import Testing

@testable import TutorCore

/// Issue #40: only the latest results are kept. The audit's repeaters (tests 1-4 until passed, six
/// a day) saw their chance climb from 20% to 80% on day 5 at a true 36%: once their first tries had
/// been trimmed, the oldest kept retake of each test read as a first try, counted in full.
struct RetakeRecordTests {
    /// A state whose four fixed tests of five questions fit the thirty sample questions.
    static let vermont = WalkthroughTests.state(
        "VT", "Vermont",
        test: TestFormat(questions: 5, passCorrect: 4, sections: [TestSection(name: "Test", pool: .all, questions: 5)]))
    static let banks = Banks(
        states: [vermont],
        universal: (1...30).map { Sample.question($0, [.rightOfWay, .parking, .speedAndSpace][$0 % 3]) },
        stateQuestions: [:], signs: [])

    func reduce(_ s: inout ChatState, _ e: Event, at now: Date) {
        s = Dialogue.reduce(s, e, DialogueContext(banks: Self.banks, now: now, seed: 7)).0
    }

    /// Takes fixed test `number` to its results, every answer right, starting at `start`.
    func takeTest(_ number: Int, _ s: inout ChatState, at start: Date) throws {
        reduce(&s, .buttonTapped(callbackID: "t", action: .startTest(number), messageID: 1), at: start)
        let id = try #require(s.session.quiz?.id)
        var t = start
        var taps = 0
        while let quiz = s.session.quiz, quiz.id == id, taps < 200 {
            t += 20
            taps += 1
            if quiz.phase == .answered {
                reduce(
                    &s, .buttonTapped(callbackID: "n", action: .next(quiz: id, question: quiz.index), messageID: 2),
                    at: t)
                continue
            }
            let q = try #require(Self.banks.question(quiz.currentQuestionID))
            reduce(
                &s,
                .buttonTapped(
                    callbackID: "a", action: .answer(quiz: id, question: quiz.index, option: q.correctAnswerIndex),
                    messageID: 2), at: t)
        }
        #expect(s.results.last?.quizID == id, "test \(number) reached its results")
    }

    @Test func aRetakeStaysARetakeAfterItsFirstTryIsTrimmed() throws {
        var s = Sample.newChat()
        var day = Sample.t0
        reduce(&s, .commandSent(.start, payload: "VT"), at: day)
        // Tests 1-4 once, then retaken in turn, four a day, until the first tries are long gone.
        for k in 0..<(ChatState.recentResultsKept + 8) {
            if k % 4 == 0 { day += 86_400 }
            try takeTest(k % 4 + 1, &s, at: day + Double(k % 4) * 3_600)
        }
        #expect(s.results.count == ChatState.recentResultsKept)
        #expect(s.results.allSatisfy { $0.retake == true }, "every kept result is a retake")
        let now = day + 5 * 3_600
        let evidence = Readiness.TestEvidence(results: s.results, now: now)
        #expect(evidence.fresh == 0, "no kept result is a first try: \(evidence.fresh) read as fresh")
        let estimate = Readiness.estimate(
            progress: s.progress, pool: Self.banks.pool(for: "VT"), format: Self.vermont.test, now: now,
            tests: s.results)
        let status = Readiness.readyStatus(results: s.results, stateCode: "VT", estimate: estimate)
        #expect(status.testsPassedWithMargin == 0, "retakes never count toward Ready")
    }
}
