import Foundation
import Testing

@testable import TutorCore

/// The lint that keeps guessing from paying, checked on banks built to game it.
@Suite struct GuessingLintTests {
    func mc(_ id: String, _ answers: [String], key: Int) -> Question {
        Question(
            id: id, category: .speedAndSpace, difficulty: .easy, questionText: "How far?", answers: answers,
            correctAnswerIndex: key, explanation: "Because.", source: "Handbook")
    }
    func tf(_ id: String, true isTrue: Bool) -> Question {
        Question(
            id: id, category: .speedAndSpace, difficulty: .easy, kind: .trueFalse, questionText: "True or false?",
            answers: ["True", "False"], correctAnswerIndex: isTrue ? 0 : 1, explanation: "Because.", source: "Handbook")
    }

    @Test func numbersAreReadTheWayTheReviewReadThem() {
        #expect(GuessingLint.numericValues(["100 feet", "200 feet", "300 feet", "500 feet"]) == [100, 200, 300, 500])
        #expect(
            GuessingLint.numericValues(["At least 10 feet", "At least 15 feet", "At least 20 feet"]) == [10, 15, 20])
        #expect(GuessingLint.numericValues(["$1,000", "$500", "$250"]) == [1000, 500, 250])
        #expect(GuessingLint.numericValues(["6 months", "1 year", "30 days"]) == [6 * 30.4, 365, 30])
        #expect(GuessingLint.numericValues(["Yield", "Stop", "Go"]) == nil)
        #expect(GuessingLint.numericValues(["10", "10", "20"]) == nil, "options that repeat a value are not a ladder")
    }

    @Test func aBankWhereTheMiddleAndTrueAlwaysWinFailsAndABalancedOnePasses() {
        let ladder = ["10 feet", "20 feet", "30 feet", "40 feet"]
        let gamed =
            (1...10).map { mc("u-m-\($0)", ladder, key: 1 + $0 % 2) } + (1...10).map { tf("u-t-\($0)", true: true) }
        let bad = GuessingLint.lint(Banks(states: [], universal: gamed, stateQuestions: [:]))
        #expect(bad.overall.middleKeys == 10 && bad.overall.allNumber == 10)
        #expect(bad.overall.trueKeys == 10 && bad.overall.trueFalse == 10)
        #expect(bad.problems.contains { $0.message.contains("middle value in 10 of 10") })
        #expect(bad.problems.contains { $0.message.contains("\"True\" is the key in 10 of 10") })

        let fair =
            (1...10).map { mc("u-m-\($0)", ladder, key: [0, 3, 1, 2, 0, 3, 0, 3, 1, 2][$0 - 1]) }
            + (1...10).map { tf("u-t-\($0)", true: $0 % 2 == 0) }
        let good = GuessingLint.lint(Banks(states: [], universal: fair, stateQuestions: [:]))
        #expect(good.problems.isEmpty, "\(good.problems)")
    }

    @Test func aSmallGroupGetsOneQuestionOfSlack() {
        #expect(GuessingLint.trueShareHolds(2, of: 3) && GuessingLint.trueShareHolds(1, of: 3))
        #expect(GuessingLint.trueShareHolds(0, of: 2) && !GuessingLint.trueShareHolds(5, of: 5))
        #expect(GuessingLint.middleShareHolds(2, of: 2) && !GuessingLint.middleShareHolds(9, of: 10))
    }

    @Test func anAbsoluteWordThatIsNeverTheKeyIsACue() {
        let questions = (1...12).map {
            mc("u-a-\($0)", ["Always speed up", "Slow down and look", "Honk twice", "Flash your lights"], key: 1)
        }
        let report = GuessingLint.lint(Banks(states: [], universal: questions, stateQuestions: [:]))
        #expect(report.problems.contains { $0.message.contains("\"always\" is in 12 wrong options and no key") })
    }
}
