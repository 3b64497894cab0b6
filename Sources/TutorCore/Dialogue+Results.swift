import Foundation

/// The end of a run: its result recorded, held answers learned, badges, and the results screen.
extension Reduction {
    mutating func finish(timedOut: Bool = false) {
        guard let quiz = state.session.quiz else { return showHome() }
        if let held = quiz.heldLevelUp { levelReached = max(levelReached ?? 0, held) }
        if case .lessonCheck(let id) = quiz.mode { return finishLessonCheck(quiz, lessonID: id) }
        if case .challenge(let token) = quiz.mode { return finishChallenge(quiz, token: token) }
        if case .daily(let day) = quiz.mode { return finishDaily(quiz, dayOrdinal: day) }
        recordHeldAnswers(quiz)
        var byTopic: [Topic: TopicScore] = [:]
        for a in quiz.answers {
            var s = byTopic[a.topic] ?? TopicScore(topic: a.topic, correct: 0, total: 0)
            s.total += 1
            if a.correct { s.correct += 1 }
            byTopic[a.topic] = s
        }
        let rightIDs = Set(quiz.answers.filter(\.correct).map(\.questionID))
        var exam: ExamOutcome?
        if quiz.mode.isPracticeTest, let format = stateInfo?.test, let sections = quiz.sectionOfQuestion {
            exam = ExamScoring.score(
                format: format, sectionOfQuestion: sections, correct: quiz.questionIDs.map(rightIDs.contains))
        }
        // Unanswered questions (time ran out) are misses too.
        let missed = quiz.questionIDs.filter { !rightIDs.contains($0) }
        // A pass mark means something only for a run shaped like a test: not for a review of a
        // few misses ("that's a pass" after 2 questions, "3 points away" after 3).
        let comparable =
            quiz.mode.isPracticeTest || (quiz.mode != .review && quiz.answers.count >= QuestionPicker.quizLength)
        var result = QuizResult(
            quizID: quiz.id, mode: quiz.mode, stateCode: learner.stateCode,
            correct: exam?.correct ?? rightIDs.count, total: exam?.total ?? quiz.answers.count,
            passPercent: comparable ? stateInfo?.test.passPercent ?? 80 : nil, startedAt: quiz.startedAt,
            finishedAt: ctx.now, byTopic: byTopic.keys.sorted().map { byTopic[$0]! },
            missedIDs: quiz.mode.isPracticeTest ? missed : quiz.answers.filter { !$0.correct }.map(\.questionID),
            exam: exam, timedOut: timedOut ? true : nil)
        if timedOut { result.unanswered = max(0, quiz.questionIDs.count - quiz.answers.count) }
        result.freshCorrect = quiz.freshCorrect
        result.freshTotal = quiz.freshTotal
        if case .practiceTest(let n) = quiz.mode, n != 0, let code = learner.stateCode {
            var taken = state.session.testsTaken ?? [:]
            result.retake =
                taken[code, default: []].contains(n) || stateResults.contains { $0.mode == quiz.mode }
            if !taken[code, default: []].contains(n) { taken[code, default: []].append(n) }
            state.session.testsTaken = taken
        }
        if quiz.mode.isPracticeTest, let info = stateInfo {
            // What the model expected of a test question now, this test's answers counted.
            result.modelAccuracy =
                Readiness.estimate(
                    progress: state.progress, pool: banks.pool(for: info.code), format: info.test,
                    now: ctx.now
                ).modelAccuracy
        }
        let misses = Set(result.missedIDs)
        var chosen: [String: Int] = [:]
        var typed: [String: String] = [:]
        for a in quiz.answers where misses.contains(a.questionID) {
            chosen[a.questionID] = a.chosen
            if let t = a.typed { typed[a.questionID] = t }
        }
        result.missedAnswers = chosen.isEmpty ? nil : chosen
        result.missedTyped = typed.isEmpty ? nil : typed
        let times = quiz.answers.compactMap(\.seconds)
        if quiz.mode == .timedChallenge, !times.isEmpty {
            result.averageSeconds = times.reduce(0, +) / Double(times.count)
        }
        let previousBest =
            quiz.mode == .timedChallenge ? stateResults.filter { $0.mode == .timedChallenge }.map(\.correct).max() : nil
        state.results.append(result)
        if result.total >= QuestionPicker.quizLength && result.correct == result.total { award(.firstPerfectQuiz) }
        if (1...ExamBuilder.fixedTests).allSatisfy({ n in
            stateResults.contains { $0.mode == .practiceTest(number: n) && $0.passed }
        }) {
            award(.allFourTests)
        }
        if let info = stateInfo,
            Mastery.byTopic(state.progress, pool: banks.pool(for: info.code)).allSatisfy({ $0.percent >= 80 })
        {
            award(.allTopics80)
        }
        state.results = ChatState.kept(state.results)
        state.session.quiz = nil
        state.session.screen = .results
        // A practice test put aside for this run comes back: Continue is on home again.
        if state.session.parkedState == learner.stateCode, let parked = state.session.parkedQuiz,
            !quiz.mode.isPracticeTest || parked.id != quiz.id
        {
            state.session.quiz = unparked(parked)
            state.session.parkedQuiz = nil
            state.session.parkedState = nil
            if let deadline = parked.deadline, deadline > ctx.now {
                effects.append(.setTimer(key: parked.deadlineKey, at: deadline))
            }
        }
        if quiz.secondsPerQuestion != nil, quiz.phase == .asking, quiz.index < quiz.questionIDs.count {
            effects.append(.cancelTimer(key: quiz.timerKey))
        }
        if quiz.deadline != nil && !timedOut { effects.append(.cancelTimer(key: quiz.deadlineKey)) }
        let view = ResultsView(
            result: result, stateName: stateInfo?.name,
            // A timed test never reads longer than its limit (the timer may fire late, or the
            // learner may come back after it ran out).
            durationSeconds: Self.testTime(quiz, at: ctx.now),
            missedCount: result.missedIDs.count,
            timeLimitMinutes: quiz.deadline != nil ? stateInfo?.test.timeLimitMinutes : nil,
            readiness: quiz.mode.isPracticeTest ? readiness(after: result) : nil,
            reward: reward(since: quiz.xpAtStart),
            averageSeconds: result.averageSeconds, previousBest: previousBest,
            livesLeft: quiz.mode == .livesChallenge ? quiz.lives : nil)
        var rows: [[Button]] = []
        if !result.missedIDs.isEmpty {
            rows.append([Button(.seeMisses(count: result.missedIDs.count), .missesPage(quiz: quiz.id, page: 0))])
        }
        // Offered only after a run with misses of its own: "Review my misses" after 10/10 reads as a reproach.
        if !result.missedIDs.isEmpty && quiz.mode != .review
            && QuestionPicker.reviewQuestions(state, banks: banks).isEmpty == false
        {
            rows.append([Button(.reviewMyMisses, .menu(.review))])
        }
        rows.append([Button(.challengeFriend, .menu(.challenge))])
        rows.append([Button(.tryAnother, .menu(.tryAnother)), Button(.home, .menu(.home))])
        send(.results(view), buttons: rows)
    }
}
