import Foundation

/// The practice-test list: tests 1-4 with their best scores (or "in progress"), what the tests are
/// like, and how much of them the learner's lessons haven't covered yet.
extension Reduction {
    // MARK: - practice tests

    mutating func showTestPicker() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .home
        let best: [QuizResult?] = (1...ExamBuilder.fixedTests).map { n in
            stateResults.filter { $0.mode == .practiceTest(number: n) }.max { $0.correct < $1.correct }
        }
        var rows: [[Button]] = [
            (1...ExamBuilder.fixedTests).map { n in
                Button(.testNumber(n, passed: best[n - 1]?.passed), .startTest(n))
            }
        ]
        rows.append([Button(.randomTest, .startTest(0))])
        rows.append([Button(.home, .menu(.home))])
        var view = PickTestView(state: info, best: best)
        view.firstTry = (1...ExamBuilder.fixedTests).map { n in
            stateResults.first { $0.mode == .practiceTest(number: n) && $0.retake == false }
                .flatMap { first in best[n - 1].map { first.correct < $0.correct } == true ? first : nil }
        }
        // The fixed test open, or put aside for another quiz: "in progress", not "not taken yet".
        let aside =
            state.session.parkedState == nil || state.session.parkedState == info.code ? state.session.parkedQuiz : nil
        for run in [state.session.quiz, aside].compactMap({ $0 }) {
            if case .practiceTest(let n) = run.mode, n != 0, !run.answers.isEmpty {
                view.open = .init(number: n, answered: run.answers.count)
            }
        }
        view.revealAsYouGo = learner.revealAnswersAsYouGo
        view.untaught = untaughtInATest(info)
        send(.pickTest(view), buttons: rows)
    }

    /// About how many questions of one of `info`'s practice tests come from lessons the learner
    /// hasn't read: the share of the pool no finished lesson teaches, times the test's size.
    func untaughtInATest(_ info: StateInfo) -> Int {
        let pool = banks.poolIDs(for: info.code)
        var taught = Set<String>()
        for lesson in banks.lessonPath(forState: info.code) where state.lessonsDone[lesson.id] != nil {
            taught.formUnion(lesson.teaches)
        }
        let size = info.test.questions ?? TestFormat.unknownCountStandIn
        guard !pool.isEmpty else { return 0 }
        return Int((Double(pool.subtracting(taught).count) / Double(pool.count) * Double(size)).rounded())
    }
}
