import Foundation

/// Quizzes of every kind: asking, answering (tapped or typed), timers, results; practice tests and their misses.
extension Reduction {
    /// The misses of a finished quiz, a page at a time (each page stays well inside one message).
    mutating func showMisses(quizID: Int, page: Int) {
        guard let result = state.results.first(where: { $0.quizID == quizID }) else { return notice(.staleButton) }
        let items = result.missedIDs.enumerated().compactMap { i, id -> MissItem? in
            guard let q = banks.question(id) else { return nil }
            var item = MissItem(
                number: i + 1, question: q.questionText, correctAnswer: q.answers[q.correctAnswerIndex],
                explanation: q.explanation)
            if let typed = result.missedTyped?[id] {
                item.yourAnswer = typed
            } else if let chosen = result.missedAnswers?[id], q.answers.indices.contains(chosen) {
                item.yourAnswer = q.answers[chosen]
            }
            item.signName = q.imageAssetName.flatMap { image in banks.signs.first { $0.id == image }?.name }
            return item
        }
        let pages = Reduction.paginate(items, budget: 3_000)
        guard !pages.isEmpty else { return showHome() }
        let p = min(max(page, 0), pages.count - 1)
        var rows: [[Button]] = []
        if p + 1 < pages.count { rows.append([Button(.morePages, .missesPage(quiz: quizID, page: p + 1))]) }
        rows.append([Button(.reviewMyMisses, .menu(.review)), Button(.home, .menu(.home))])
        send(.misses(MissesView(items: pages[p], page: p + 1, pageCount: pages.count)), buttons: rows)
    }

    /// Splits misses into pages whose text stays under `budget` characters (Telegram allows 4096).
    static func paginate(_ items: [MissItem], budget: Int) -> [[MissItem]] {
        var pages: [[MissItem]] = []
        var current: [MissItem] = []
        var size = 0
        for item in items {
            let n = item.question.count + item.correctAnswer.count + item.explanation.count + 40
            if !current.isEmpty && size + n > budget {
                pages.append(current)
                current = []
                size = 0
            }
            current.append(item)
            size += n
        }
        if !current.isEmpty { pages.append(current) }
        return pages
    }

    // MARK: - quizzes

    static let timedChallengeSeconds = 20
    static let lives = 3

    mutating func startQuiz(_ mode: QuizMode, leavingDaily: Bool = false) {
        guard let info = stateInfo else { return showStatePicker() }
        // Today's Daily 5 is one try: another quiz doesn't end it without asking (a play-tester
        // tapped Think Fast mid-Daily and lost it).
        if !leavingDaily, let open = state.session.quiz, open.mode.isDaily, !open.answers.isEmpty, !mode.isDaily {
            state.session.pendingQuiz = mode
            return askToLeaveDaily(open)
        }
        state.session.pendingQuiz = nil
        // An open practice test is never thrown away: the same test resumes; anything else puts
        // it aside (its clock still running) until this run is over.
        if let open = state.session.quiz, open.mode.isPracticeTest, !open.answers.isEmpty {
            if open.mode == mode && mode != .practiceTest(number: 0) { return resume() }
            if open.deadline != nil { effects.append(.cancelTimer(key: open.deadlineKey)) }
            park(open, state: info.code)
            state.session.quiz = nil
        }
        let pool = banks.pool(for: info.code)
        var questions: [Question] = []
        var sections: [Int]?
        switch mode {
        case .quick, .timedChallenge, .livesChallenge:
            questions = QuestionPicker.pick(
                QuestionPicker.quizLength, from: pool, progress: state.progress, random: &random)
        case .signGroup(let group):
            let signs = Set(banks.signs.filter { $0.group == group }.map(\.id))
            var drill = pool.filter { $0.imageAssetName.map(signs.contains) == true }
            if drill.count < 3 { drill = pool.filter(\.isSign) }
            questions = QuestionPicker.pick(
                QuestionPicker.quizLength, from: drill, progress: state.progress, random: &random)
        case .topic(let topic):
            questions = QuestionPicker.pick(
                QuestionPicker.quizLength, from: pool.filter { $0.category == topic },
                progress: state.progress, random: &random)
        case .review:
            questions = QuestionPicker.reviewQuestions(state, banks: banks)
        case .asked(let ref):
            questions = AskQuizPicker.questions(for: AskRef(ref), banks: banks, stateCode: info.code)
                .compactMap(banks.question)
        case .lessonCheck(let id):
            questions =
                banks.lesson(id).map { checkQuestions($0, run: state.session.lesson).compactMap(banks.question) } ?? []
        case .challenge:
            return startChallenge()  // made only by `startChallenge` and `openChallenge`
        case .daily:
            return startDaily()
        case .practiceTest(let number):
            do {
                // A random test is seeded by the chat's quiz number too: never the same draw twice,
                // even where update ids start over (the console chat).
                var draw = SeededRandom(
                    seed: random.next() ^ ExamBuilder.mixedHash("\(learner.chatID)", "test-\(state.session.nextQuizID)")
                )
                let exam =
                    number == 0
                    ? try ExamBuilder.randomTest(state: info, pool: pool, random: &draw)
                    : try ExamBuilder.fixedTest(number, state: info, pool: pool)
                questions = exam.questionIDs.compactMap(banks.question)
                sections = exam.sectionOfQuestion
            } catch {
                send(.testUnavailable)
                return showHome()
            }
        }
        guard !questions.isEmpty else {
            send(.reviewEmpty)
            return showHome()
        }
        // A quiz left part-way ends here (a practice test was put aside above; a Daily 5 says so itself).
        if let open = state.session.quiz, !open.answers.isEmpty, !open.mode.isPracticeTest {
            if case .daily = open.mode {} else { send(.notice(.openQuizEnded)) }
        }
        closeAbandonedDaily()
        let id = state.session.nextQuizID
        state.session.nextQuizID += 1
        var run = QuizRun(id: id, mode: mode, questionIDs: questions.map(\.id), startedAt: ctx.now)
        run.xpAtStart = learner.xp
        if mode.isPracticeTest {
            run.sectionOfQuestion = sections
            run.revealAtEnd = !learner.revealAnswersAsYouGo
            run.deadline = info.test.timeLimitMinutes.map { ctx.now.addingTimeInterval(TimeInterval($0 * 60)) }
            // The clock keeps running while the learner is away: at the limit the test ends, as the real one would.
            if let deadline = run.deadline { effects.append(.setTimer(key: run.deadlineKey, at: deadline)) }
        }
        if mode == .timedChallenge { run.secondsPerQuestion = Reduction.timedChallengeSeconds }
        if mode == .livesChallenge { run.lives = Reduction.lives }
        state.session.quiz = run
        state.session.screen = .quiz
        askCurrentQuestion(reshuffle: true)
    }

    /// Back to the open quiz exactly where the learner left it.
    mutating func resume() {
        guard let quiz = state.session.quiz else { return showHome() }
        if let deadline = quiz.deadline, ctx.now > deadline { return finish(timedOut: true) }
        state.session.screen = .quiz
        switch quiz.phase {
        case .asking: askCurrentQuestion(reshuffle: quiz.order.isEmpty)
        case .answered:
            guard let q = banks.question(quiz.currentQuestionID), let given = quiz.answers.last else {
                return advance()
            }
            // No answer (-1) is a timeout only where the question had a timer; elsewhere it was
            // "idk", a skip. A new message: the sign it asked about comes with it again.
            let timedOut = given.chosen == -1 && quiz.secondsPerQuestion != nil
            var reply = answeredReply(q, quiz: quiz, chosen: given.chosen, timedOut: timedOut)
            reply.picture = q.imageAssetName
            reply.tag = quiz.questionTag
            send(reply)
        }
    }

    /// Sends the current question; skips questions a bank update removed mid-quiz.
    mutating func askCurrentQuestion(reshuffle: Bool) {
        guard var quiz = state.session.quiz else { return showHome() }
        while quiz.index < quiz.questionIDs.count, banks.question(quiz.currentQuestionID) == nil {
            quiz.questionIDs.remove(at: quiz.index)
            if quiz.sectionOfQuestion != nil { quiz.sectionOfQuestion?.remove(at: quiz.index) }
            quiz.order = []
        }
        guard quiz.index < quiz.questionIDs.count, let q = banks.question(quiz.currentQuestionID) else {
            state.session.quiz = quiz
            return finish()
        }
        if reshuffle || quiz.order.count != q.answers.count {
            quiz.order = QuestionPicker.shuffledOrder(q, random: &random)
            if let seconds = quiz.secondsPerQuestion {
                quiz.questionShownAt = ctx.now
                effects.append(.setTimer(key: quiz.timerKey, at: ctx.now.addingTimeInterval(TimeInterval(seconds))))
            }
        }
        quiz.phase = .asking
        state.session.quiz = quiz
        let letters =
            q.kind == .fillIn
            ? []
            : zip(Reduction.letters, quiz.order).map { letter, original in
                Button(.letter(letter), .answer(quiz: quiz.id, question: quiz.index, option: original))
            }
        send(
            Reply(
                .question(questionView(q, quiz)), buttons: letters.isEmpty ? [] : [letters], picture: q.imageAssetName,
                tag: quiz.questionTag))
    }

    static let letters = ["A", "B", "C", "D"]

    /// The options' order as shown: the run's, unless it is not this question's (a stored run
    /// whose order belongs to another question), then the bank's.
    static func shownOrder(_ q: Question, _ quiz: QuizRun) -> [Int] {
        quiz.order.count == q.answers.count ? quiz.order : Array(q.answers.indices)
    }

    func questionView(_ q: Question, _ quiz: QuizRun) -> QuestionView {
        // A typed question shows no options: its only "option" is the answer itself.
        var view = QuestionView(
            number: quiz.index + 1, total: quiz.questionIDs.count, mode: quiz.mode, topic: q.category,
            text: q.questionText,
            options: q.kind == .fillIn
                ? []
                : zip(Reduction.letters, Self.shownOrder(q, quiz)).map { AnswerOption(letter: $0, text: q.answers[$1]) }
        )
        if let sections = quiz.sectionOfQuestion, let format = stateInfo?.test, format.sections.count > 1,
            sections.indices.contains(quiz.index), format.sections.indices.contains(sections[quiz.index])
        {
            view.sectionName = format.sections[sections[quiz.index]].name
        }
        view.secondsPerQuestion = quiz.secondsPerQuestion
        view.typeIn = q.kind == .fillIn
        view.lives = quiz.lives
        return view
    }

    func answeredView(_ q: Question, quiz: QuizRun, chosen: Int, timedOut: Bool) -> AnsweredView {
        let order = Self.shownOrder(q, quiz)
        let letterOf = { (original: Int) in order.firstIndex(of: original).map { Reduction.letters[$0] } ?? "" }
        let given = quiz.answers.last { $0.questionID == q.id }
        let correct = q.kind == .fillIn ? (given?.correct ?? false) : chosen == q.correctAnswerIndex
        return AnsweredView(
            question: questionView(q, quiz), chosenLetter: letterOf(chosen),
            correctLetter: letterOf(q.correctAnswerIndex), correctText: q.answers[q.correctAnswerIndex],
            isCorrect: correct, explanation: q.explanation, source: q.source, timedOut: timedOut,
            typed: q.kind == .fillIn ? given?.typed : nil,
            skipped: chosen == -1 && !timedOut,
            handbook: q.stateCode == nil ? stateInfo?.handbook : nil, universal: q.stateCode == nil,
            hardBonusXP: XP.bonus(for: q, correct: correct),
            typo: correct && given?.typed.map { AnswerMatcher.match($0, q) == .typo } == true)
    }

    func answeredReply(_ q: Question, quiz: QuizRun, chosen: Int, timedOut: Bool = false) -> Reply {
        Reply(.answered(answeredView(q, quiz: quiz, chosen: chosen, timedOut: timedOut)), buttons: [[nextButton(quiz)]])
    }

    /// Under an answered question: Next, or See results after the last (or the last life).
    func nextButton(_ quiz: QuizRun) -> Button {
        Button(quiz.isLastQuestion || quiz.lives == 0 ? .seeResults : .next, .next(quiz: quiz.id, question: quiz.index))
    }

    /// A typed answer to a fill-in question.
    mutating func answerTyped(_ text: String) {
        guard var quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else {
            return showCurrentScreen()
        }
        if let deadline = quiz.deadline, ctx.now > deadline { return finish(timedOut: true) }
        if quiz.secondsPerQuestion != nil { effects.append(.cancelTimer(key: quiz.timerKey)) }
        _ = record(q, option: -2, quiz: &quiz, typed: String(text.prefix(60)))
        state.session.quiz = quiz
        let target = MessageTarget.tag(quiz.questionTag)
        if quiz.hidesAnswers {
            effects.append(.edit(target, Reply(.lockedIn(answeredView(q, quiz: quiz, chosen: -2, timedOut: false)))))
            return advance()
        }
        effects.append(.edit(target, answeredReply(q, quiz: quiz, chosen: -2)))
    }

    mutating func answer(original option: Int, target: MessageTarget) {
        guard var quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else {
            return showCurrentScreen()
        }
        if let deadline = quiz.deadline, ctx.now > deadline {
            // The real test would have ended: an answer after the limit does not count.
            return finish(timedOut: true)
        }
        var timedOut = false
        if let seconds = quiz.secondsPerQuestion {
            effects.append(.cancelTimer(key: quiz.timerKey))
            // A tap that arrives after the budget (the timer not yet processed) is a miss too.
            if let shown = quiz.questionShownAt, ctx.now.timeIntervalSince(shown) > Double(seconds) + 1 {
                timedOut = true
            }
        }
        let chosen = timedOut ? -1 : option
        _ = record(q, option: chosen, quiz: &quiz)
        state.session.quiz = quiz
        if quiz.hidesAnswers {
            effects.append(
                .edit(target, Reply(.lockedIn(answeredView(q, quiz: quiz, chosen: chosen, timedOut: false)))))
            return advance()
        }
        effects.append(.edit(target, answeredReply(q, quiz: quiz, chosen: chosen, timedOut: timedOut)))
    }

    /// A timed-challenge question ran out of time: it counts as missed and shows the answer.
    mutating func timerFired(_ key: String) {
        if let quiz = state.session.quiz, quiz.deadline != nil, key == quiz.deadlineKey {
            send(.notice(.timeRanOut))
            return finish(timedOut: true)
        }
        guard var quiz = state.session.quiz, quiz.timerKey == key, quiz.phase == .asking,
            let q = banks.question(quiz.currentQuestionID)
        else { return }  // answered in time, or a stale timer
        // The learner acted today if they tapped anything in this run; a timer alone is not study.
        let tapped = quiz.answers.contains { $0.chosen != -1 || $0.typed != nil }
        _ = record(q, option: -1, quiz: &quiz, byTimer: !tapped)
        state.session.quiz = quiz
        effects.append(.edit(.tag(quiz.questionTag), answeredReply(q, quiz: quiz, chosen: -1, timedOut: true)))
    }

    mutating func advance() {
        guard var quiz = state.session.quiz else { return showHome() }
        if quiz.lives == 0 { return finish() }
        quiz.index += 1
        quiz.order = []
        state.session.quiz = quiz
        if quiz.index >= quiz.questionIDs.count { return finish() }
        askCurrentQuestion(reshuffle: true)
    }

    /// "Leave today's Daily 5?": keep playing it, or leave it for the quiz asked for.
    mutating func askToLeaveDaily(_ open: QuizRun) {
        send(
            Reply(
                .notice(.leaveDailyFirst),
                buttons: [
                    [
                        Button(
                            .continueQuiz(
                                number: min(open.index + 1, open.questionIDs.count), total: open.questionIDs.count),
                            .menu(.resume))
                    ],
                    [Button(.leaveDaily, .menu(.leaveDaily))],
                ]))
    }

    /// The learner chose to leave the Daily 5 for the quiz they asked for.
    mutating func leaveDailyForPendingQuiz() {
        guard let mode = state.session.pendingQuiz, state.session.quiz != nil else { return showHome() }
        state.session.pendingQuiz = nil
        startQuiz(mode, leavingDaily: true)
    }

    /// The results' "⏱": the time spent answering (`QuizRun.activeSeconds`); a run stored before
    /// that was kept reads the time since it began. A timed test never reads longer than its
    /// limit (the timer may fire late, or the learner come back after it ran out).
    static func testTime(_ quiz: QuizRun, at now: Date) -> Int {
        let sinceStart = min(now, quiz.deadline ?? now).timeIntervalSince(quiz.startedAt)
        return max(0, Int(min(quiz.activeSeconds ?? sinceStart, sinceStart)))
    }
}
