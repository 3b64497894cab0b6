import Foundation

/// What an answer records: the learner model (progress, knowledge trace, flashcard), the streak,
/// XP and the answer history. A practice test that reveals its answers at the end holds them back
/// from the learner model until its results.
extension Reduction {
    /// Records an answer (`option` -1: no answer in time) in the per-question model, streak and history.
    /// `byTimer`: the question's time ran out with no tap at all, so the learner did nothing today
    /// (a Think Fast left open and timed out on a restart is no study day).
    mutating func record(
        _ q: Question, option: Int, quiz: inout QuizRun, typed: String? = nil,
        byTimer: Bool = false
    ) -> Bool {
        let correct = typed.map { AnswerMatcher.matches($0, q) } ?? (option == q.correctAnswerIndex)
        if quiz.mode.isPracticeTest {
            let w = Knowledge.evidenceWeight(state.progress[q.id], at: ctx.now)
            quiz.freshTotal = (quiz.freshTotal ?? 0) + w
            quiz.freshCorrect = (quiz.freshCorrect ?? 0) + (correct ? w : 0)
        }
        // A test that reveals its answers at the end keeps them until its results: recorded then
        // (`recordHeldAnswers`), so no flashcard, review, due count or pass chance shows one before.
        if !quiz.hidesAnswers { learn(q, correct: correct, mode: quiz.mode) }
        let day = today
        if !byTimer {
            let firstToday = !learner.streak.studied(on: day)
            state.learner.streak.record(day)
            earnXP(
                XP.attempt + (correct ? XP.correct : 0) + XP.bonus(for: q, correct: correct)
                    + (firstToday ? XP.studyDayBonus : 0))
            if learner.answeredDay != day {
                state.learner.answeredDay = day
                state.learner.answeredToday = 0
            }
            state.learner.answeredToday = state.learner.answeredToday.plusOne
        }
        if learner.streak.current >= 7 { award(.streak7) }
        if let lives = quiz.lives, !correct { quiz.lives = max(0, lives - 1) }
        var given = GivenAnswer(questionID: q.id, topic: q.category, chosen: option, correct: correct, typed: typed)
        if quiz.secondsPerQuestion != nil, let shown = quiz.questionShownAt, option != -1 {
            given.seconds = max(0, ctx.now.timeIntervalSince(shown))
        }
        quiz.answers.append(given)
        quiz.noteAnswerTime(at: ctx.now)
        quiz.phase = .answered
        markDailyTried(quiz)
        effects.append(
            .recordAnswer(
                AnswerRecord(
                    questionID: q.id, correct: correct, quizID: quiz.id,
                    answeredAt: ctx.now, localDay: day)))
        return correct
    }

    /// What an answer teaches the learner model: the question's progress and knowledge trace, and
    /// its flashcard (a miss is Again, a right answer Good).
    mutating func learn(_ q: Question, correct: Bool, mode: QuizMode) {
        var stats = state.progress[q.id] ?? QuestionStats(lastAnsweredAt: ctx.now)
        // What the learner's first answers say they'd know of it unstudied: the knowledge trace's prior.
        let unstudied =
            Knowledge.counts(state.progress[q.id], at: ctx.now)
            ? Readiness.FirstAnswers(
                progress: state.progress, pool: banks.pool(for: learner.stateCode),
                positions: banks.poolPositions(for: learner.stateCode)
            ).unstudiedKnown(q) : nil
        // A lesson's check, answered minutes after reading it, is short-term evidence: it counts for
        // review, mastery and cards, not for the knowledge trace or the first-answer prior.
        let taught: Bool = if case .lessonCheck = mode { true } else { false }
        stats.record(correct: correct, at: ctx.now, question: q, unstudied: unstudied, taught: taught)
        state.progress[q.id] = stats
        reviewCard(q.id, correct ? .good : .again, fromQuiz: true)
    }

    /// The answers a test held back until its results, recorded now (see `record`).
    mutating func recordHeldAnswers(_ quiz: QuizRun) {
        guard quiz.hidesAnswers else { return }
        for given in quiz.answers {
            guard let q = banks.question(given.questionID) else { continue }
            learn(q, correct: given.correct, mode: quiz.mode)
        }
    }
}
