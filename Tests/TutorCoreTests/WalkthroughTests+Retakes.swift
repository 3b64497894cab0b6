import Foundation
import Testing

@testable import TutorCore

/// Issue #40: only the latest results were kept. The audit's repeaters (tests 1-4 until passed, six
/// a day) saw their chance climb from 20% to 80% on day 5 at a true 36%: once their first tries had
/// been trimmed, the oldest kept retake of each test read as a first try, counted in full, and the
/// first tries' honest scores were gone.
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
    func takeTest(_ number: Int, _ s: inout ChatState, at start: Date, wrong: Int = 0) throws {
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
            let option = quiz.index < wrong ? (q.correctAnswerIndex + 1) % q.answers.count : q.correctAnswerIndex
            reduce(
                &s,
                .buttonTapped(
                    callbackID: "a", action: .answer(quiz: id, question: quiz.index, option: option),
                    messageID: 2), at: t)
        }
        #expect(s.results.last?.quizID == id, "test \(number) reached its results")
    }

    @Test func firstTriesAreKeptAndRetakesStayRetakes() throws {
        var s = Sample.newChat()
        var day = Sample.t0
        reduce(&s, .commandSent(.start, payload: "VT"), at: day)
        // Tests 1-4 once, then retaken in turn, four a day, well past the latest results kept.
        for k in 0..<(ChatState.recentResultsKept + 8) {
            if k % 4 == 0 { day += 86_400 }
            try takeTest(k % 4 + 1, &s, at: day + Double(k % 4) * 3_600)
        }
        // The four first tries stay before the latest results: the only sample of unseen questions.
        #expect(s.results.count == ChatState.recentResultsKept + 4)
        #expect(s.results.prefix(4).map(\.retake) == [false, false, false, false])
        #expect(s.results.prefix(4).map(\.mode) == (1...4).map { .practiceTest(number: $0) })
        #expect(s.results.dropFirst(4).allSatisfy { $0.retake == true }, "the rest are retakes")
        // Without them (results kept before this), the flag alone keeps a retake a retake: none
        // reads as a first try, and none counts toward Ready.
        let retakes = Array(s.results.dropFirst(4))
        let now = day + 5 * 3_600
        let evidence = Readiness.TestEvidence(results: retakes, now: now)
        #expect(evidence.fresh == 0, "no retake reads as a first try: \(evidence.fresh) did")
        let estimate = Readiness.estimate(
            progress: s.progress, pool: Self.banks.pool(for: "VT"), format: Self.vermont.test, now: now,
            tests: retakes)
        let status = Readiness.readyStatus(results: retakes, stateCode: "VT", estimate: estimate)
        #expect(status.testsPassedWithMargin == 0, "retakes never count toward Ready")
    }

    /// A re-taker saw "Test 1: ✅ passed · best 20/20" from memorised retakes; the list now says
    /// the first try too when a retake scored more.
    @Test func theTestListShowsTheFirstTryBesideAHigherRetake() throws {
        var s = Sample.newChat()
        reduce(&s, .commandSent(.start, payload: "VT"), at: Sample.t0)
        try takeTest(1, &s, at: Sample.t0 + 3_600, wrong: 3)
        try takeTest(1, &s, at: Sample.t0 + 7_200)
        try takeTest(2, &s, at: Sample.t0 + 10_800)
        let (next, effects) = Dialogue.reduce(
            s, .commandSent(.test, payload: nil), DialogueContext(banks: Self.banks, now: Sample.t0 + 11_000, seed: 7))
        s = next
        let view = try #require(
            effects.compactMap { e -> PickTestView? in
                if case .send(let r) = e, case .pickTest(let v) = r.message { return v }
                return nil
            }.first)
        #expect(view.best[0]?.correct == 5 && view.firstTry[0]?.correct == 2, "first try 2/5, best 5/5")
        #expect(view.firstTry[1] == nil, "test 2's only try is its best")
    }
}
