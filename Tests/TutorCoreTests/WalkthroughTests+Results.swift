import Foundation
import Testing

@testable import TutorCore

extension WalkthroughTests {
    @Test func missesShowWhatTheLearnerPickedAndTheSign() throws {
        var s = inQuiz(["u-sg-1", "u-t-1"], from: started())
        s.session.quiz?.order = [0, 1, 2, 3]
        _ = reduce(&s, .buttonTapped(callbackID: "a", action: .answer(quiz: 9, question: 0, option: 2), messageID: 5))
        _ = reduce(&s, .buttonTapped(callbackID: "n", action: .next(quiz: 9, question: 0), messageID: 5))
        s.session.quiz?.order = [0, 1, 2, 3]
        _ = reduce(&s, .buttonTapped(callbackID: "b", action: .answer(quiz: 9, question: 1, option: 0), messageID: 6))
        let end = reduce(&s, .buttonTapped(callbackID: "m", action: .next(quiz: 9, question: 1), messageID: 6))
        guard let results = resultsView(end) else {
            Issue.record("no results")
            return
        }
        #expect(results.result.passPercent == nil, "no pass mark on a 2-question run")
        let misses = reduce(&s, .buttonTapped(callbackID: "p", action: .missesPage(quiz: 9, page: 0), messageID: 7))
        guard case .misses(let view) = messages(misses).first else {
            Issue.record("no misses")
            return
        }
        #expect(view.items.first?.yourAnswer == "Merge" && view.items.first?.signName == "Yield")
    }

    @Test func aPerfectRunDoesNotOfferReviewingMisses() throws {
        var s = started()
        s.progress["u-t-5"] = QuestionStats(
            seen: 1, correct: 0, lastCorrect: false, lastAnsweredAt: Self.t0, missed: true)
        s = inQuiz(["u-t-1"], from: s)
        s.session.quiz?.order = [0, 1, 2, 3]
        _ = reduce(&s, .buttonTapped(callbackID: "a", action: .answer(quiz: 9, question: 0, option: 0), messageID: 5))
        let end = reduce(&s, .buttonTapped(callbackID: "n", action: .next(quiz: 9, question: 0), messageID: 5))
        let reply = end.compactMap { e -> Reply? in
            if case .send(let r) = e, case .results = r.message { return r }
            return nil
        }.first
        guard let reply else {
            Issue.record("no results")
            return
        }
        #expect(
            !reply.buttons.joined().contains { $0.action == .menu(.review) },
            "no 'Review my misses' after a perfect run")
    }

    @Test func aUniversalQuestionCitesTheLearnersOwnHandbook() throws {
        var s = inQuiz(["u-t-1"], from: started())
        s.session.quiz?.order = [0, 1, 2, 3]
        let answered = reduce(
            &s, .buttonTapped(callbackID: "a", action: .answer(quiz: 9, question: 0, option: 0), messageID: 5))
        guard case .answered(let view) = messages(answered).first else {
            Issue.record("no answer")
            return
        }
        #expect(view.handbook == "New York State Driver's Manual")
    }

    // MARK: - Issue: practice tests and records per state

    @Test func switchingStateMidTestAsksAndKeepsTheTestForItsState() throws {
        var s = started("NY")
        _ = reduce(&s, .buttonTapped(callbackID: "t", action: .startTest(0), messageID: 1))
        let test = try #require(s.session.quiz)
        // Settings → Change state → Wyoming, in the middle of the test.
        let ask = reduce(&s, .buttonTapped(callbackID: "w", action: .pickState("WY"), messageID: 2))
        #expect(messages(ask) == [.confirmSwitch(from: "New York", to: "Wyoming", test: .practiceTest(number: 0))])
        #expect(s.learner.stateCode == "NY" && s.session.quiz == test)
        _ = reduce(&s, .buttonTapped(callbackID: "y", action: .switchState("WY"), messageID: 3))
        #expect(s.learner.stateCode == "WY" && s.session.quiz == nil && Self.sameRun(s.session.parkedQuiz, test))
        // Back to New York: the same test, under its own labels.
        _ = reduce(&s, .buttonTapped(callbackID: "n", action: .pickState("NY"), messageID: 4))
        #expect(s.learner.stateCode == "NY" && s.session.quiz == test && s.session.parkedQuiz == nil)
    }

    /// The Texas playtest typed "home" 19 answers into Test 1, then tapped Review missed: the test's
    /// hidden answers were shown and the test was gone. Now its misses wait and the test comes back.
    @Test func anotherActivityPutsAPracticeTestAsideAndKeepsItsAnswersHidden() throws {
        var s = started("NY")
        _ = reduce(&s, .buttonTapped(callbackID: "t", action: .startTest(0), messageID: 1))
        var test = try #require(s.session.quiz)
        for i in 0..<3 {
            test = try #require(s.session.quiz)
            let q = try #require(Self.banks.question(test.currentQuestionID))
            _ = reduce(
                &s,
                .buttonTapped(
                    callbackID: "a\(i)",
                    action: .answer(quiz: test.id, question: i, option: (q.correctAnswerIndex + 1) % q.answers.count),
                    messageID: 2))
        }
        test = try #require(s.session.quiz)
        #expect(
            QuestionPicker.reviewQuestions(s, banks: Self.banks).isEmpty,
            "a test's misses are revealed at its end, not in Review")
        _ = reduce(&s, .textSent("home"))
        _ = reduce(&s, .buttonTapped(callbackID: "q", action: .menu(.quickQuiz), messageID: 3))
        #expect(Self.sameRun(s.session.parkedQuiz, test) && s.session.quiz?.mode == .quick)
        let xpBeforeQuick = s.learner.xp
        // Finish the quick quiz: the test is open again, exactly where it was.
        while let quiz = s.session.quiz, quiz.mode == .quick {
            let q = try #require(Self.banks.question(quiz.currentQuestionID))
            if q.kind == .fillIn {
                _ = reduce(&s, .textSent(q.answers[0]))
            } else {
                _ = reduce(
                    &s,
                    .buttonTapped(
                        callbackID: "x\(quiz.index)",
                        action: .answer(quiz: quiz.id, question: quiz.index, option: q.correctAnswerIndex), messageID: 4
                    ))
            }
            _ = reduce(
                &s,
                .buttonTapped(
                    callbackID: "n\(quiz.index)", action: .next(quiz: quiz.id, question: quiz.index), messageID: 4))
        }
        #expect(Self.sameRun(s.session.quiz, test) && s.session.parkedQuiz == nil)
        // Its "+XP" at the end won't count the quick quiz's, earned while it waited.
        #expect(
            s.session.quiz?.xpAtStart == (test.xpAtStart ?? 0) + (s.learner.xp - xpBeforeQuick)
                && s.session.quiz?.xpWhenParked == nil)
    }

    /// The same run, where it was (what it knows of XP aside: see `Reduction.unparked`).
    static func sameRun(_ a: QuizRun?, _ b: QuizRun) -> Bool {
        guard var a else { return false }
        var b = b
        a.xpAtStart = nil
        a.xpWhenParked = nil
        b.xpAtStart = nil
        b.xpWhenParked = nil
        return a == b
    }

    @Test func optionWordsAndIDKAreAnswers() throws {
        var s = inQuiz(["u-sg-1", "u-t-2"], from: started())
        s.session.quiz?.order = [3, 2, 1, 0]
        _ = reduce(&s, .textSent("yield"))
        #expect(s.session.quiz?.answers.last?.correct == true, "the option's own word picks it")
        _ = reduce(&s, .textSent("next"))
        s.session.quiz?.order = [0, 1, 2, 3]
        _ = reduce(&s, .textSent("idk"))
        #expect(
            s.session.quiz?.answers.last?.correct == false && s.session.quiz?.phase == .answered,
            "idk shows the answer and counts as a miss")
    }

    @Test func resultsBelongToTheStateTheyWereEarnedIn() {
        var s = started("NY")
        s.results = [
            QuizResult(
                quizID: 1, mode: .practiceTest(number: 1), stateCode: "NY", correct: 19, total: 20, passPercent: 70,
                startedAt: Self.t0, finishedAt: Self.t0, byTopic: [], missedIDs: [],
                exam: ExamOutcome(correct: 19, total: 20, needed: 14, sections: [], passed: true))
        ]
        _ = reduce(&s, .buttonTapped(callbackID: "w", action: .pickState("WY"), messageID: 2))
        let list = reduce(&s, .commandSent(.test, payload: nil))
        guard case .pickTest(let view) = messages(list).last else {
            Issue.record("no test list")
            return
        }
        #expect(view.best.allSatisfy { $0 == nil }, "New York's results are not Wyoming's")
    }

    @Test func aTimedTestNeverReadsLongerThanItsLimit() throws {
        var s = started("WY")
        _ = reduce(&s, .buttonTapped(callbackID: "t", action: .startTest(0), messageID: 1))
        let quiz = try #require(s.session.quiz)
        let deadline = try #require(quiz.deadline)
        // The learner comes back 40 minutes later: the test ended at the limit.
        let end = reduce(
            &s, .buttonTapped(callbackID: "r", action: .menu(.resume), messageID: 2),
            at: quiz.startedAt.addingTimeInterval(40 * 60))
        guard let view = resultsView(end) else {
            Issue.record("no results")
            return
        }
        #expect(view.durationSeconds == Int(deadline.timeIntervalSince(quiz.startedAt)))
        #expect(view.durationSeconds == 25 * 60)
        // Left open with nothing answered: every question is said to be unanswered (a play-tester's
        // abandoned test read only "1/50").
        #expect(view.result.timedOut == true && view.result.unanswered == quiz.questionIDs.count)
    }
}
