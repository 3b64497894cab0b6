import Foundation

/// Learn: the lesson path. Every handbook topic's lessons in handbook order, then the learner's
/// state's own; a lesson is a few cards, then its check questions (answers shown as you go, misses
/// made into flashcards like any miss). "Test out" asks the checks first: 4 of 5 right finishes it.
extension Reduction {
    /// The learner's path: the topics' lessons in handbook order, then their state's.
    var lessonPath: [Lesson] {
        banks.lessonPath(forState: learner.stateCode)
    }

    /// Lessons of the path finished, and the path's length (one pass over the path).
    var lessonProgress: (done: Int, total: Int) {
        let path = lessonPath
        return (path.reduce(0) { $0 + (state.lessonsDone[$1.id] != nil ? 1 : 0) }, path.count)
    }

    /// The first lesson of the path not finished yet.
    var nextLesson: Lesson? { lessonPath.first { state.lessonsDone[$0.id] == nil } }

    /// A lesson's topic (a state's lessons are "state rules") and its place among that topic's.
    func place(of lesson: Lesson) -> (topic: Topic, number: Int, count: Int) {
        let siblings =
            lesson.topic.map { banks.lessons(for: $0) } ?? lesson.stateCode.map { banks.lessons(forState: $0) } ?? [
                lesson
            ]
        return (lesson.topic ?? .stateSpecific, (siblings.firstIndex { $0.id == lesson.id } ?? 0) + 1, siblings.count)
    }

    /// Home's lesson button: the open lesson (Continue), else the next one; nil when the path is done.
    var learnButton: Button? {
        let checking = state.session.quiz.flatMap { q -> Lesson? in
            if case .lessonCheck(let id) = q.mode { return banks.lesson(id) }
            return nil
        }
        let open = checking ?? state.session.lesson.flatMap { banks.lesson($0.lessonID) }
        guard let lesson = open ?? nextLesson else { return nil }
        let p = place(of: lesson)
        let stateName = lesson.stateCode.flatMap { banks.state($0)?.name }
        return Button(
            .learn(topic: p.topic, number: p.number, of: p.count, continuing: open != nil, stateName: stateName),
            .menu(.learn))
    }

    /// "📖 Learn": the lesson that is open, else the next of the path.
    mutating func learn() {
        guard stateInfo != nil else { return showStatePicker() }
        if let quiz = state.session.quiz, quiz.isLessonCheck { return resume() }
        if let run = state.session.lesson, banks.lesson(run.lessonID) != nil { return showLessonCard() }
        guard let lesson = nextLesson else { return showHome() }
        openLesson(lesson.id)
    }

    mutating func openLesson(_ id: String, testingOut: Bool = false) {
        guard let lesson = banks.lesson(id), lesson.stateCode == nil || lesson.stateCode == learner.stateCode else {
            return notice(.staleButton)
        }
        let seq = (state.session.lesson?.seq ?? 0) + 1
        state.session.lesson = LessonRun(lessonID: id, seq: seq, testingOut: testingOut)
        if testingOut { return startLessonCheck(lesson) }
        showLessonCard()
    }

    mutating func showLessonCard() {
        guard let run = state.session.lesson, let lesson = banks.lesson(run.lessonID),
            lesson.cards.indices.contains(run.card)
        else {
            state.session.lesson = nil
            return showHome()
        }
        state.session.screen = .lesson
        let card = lesson.cards[run.card]
        let p = place(of: lesson)
        let last = run.card == lesson.cards.count - 1
        let checks = checkQuestions(lesson).count
        let asked = checkQuestions(lesson, run: run).count
        var rows: [[Button]] = []
        if last {
            rows.append([
                Button(
                    asked > 0 ? .checkYourself(questions: asked) : .nextCard,
                    .nextLessonCard(seq: run.seq, card: run.card))
            ])
        } else {
            rows.append([Button(.nextCard, .nextLessonCard(seq: run.seq, card: run.card))])
        }
        // Test out from any card but the last (whose Check yourself asks the same): a learner may
        // find after a card or two that they know it. Not again after a test-out that fell short:
        // its answers were just shown.
        if !last && checks > 0 && run.recheck == nil {
            rows.append([Button(.testOut(needed: Reduction.testOutNeeded(checks), of: checks), .menu(.testOut))])
        }
        rows.append([Button(.home, .menu(.home))])
        let view = LessonCardView(
            topic: p.topic, lessonNumber: p.number, lessonCount: p.count, title: lesson.title,
            text: card.text(for: learner.stateCode.flatMap(banks.state), rules: banks.stateRules),
            cardNumber: run.card + 1, cardCount: lesson.cards.count,
            stateName: lesson.stateCode.flatMap { banks.state($0)?.name })
        send(Reply(.lessonCard(view), buttons: rows, picture: card.imageAssetName))
    }

    /// "Next" on card `card` of lesson run `seq`: the next card, or after the last, the checks.
    mutating func nextLessonCard(_ callbackID: String, seq: Int, card: Int) {
        guard let run = state.session.lesson, run.seq == seq, let lesson = banks.lesson(run.lessonID) else {
            return stale(callbackID)
        }
        guard card == run.card else {
            // A card already turned: say so quietly, don't turn another.
            effects.append(
                .answerButton(callbackID: callbackID, toast: card < run.card ? .alreadyAnswered : .staleButton))
            return
        }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        if card + 1 < lesson.cards.count {
            state.session.lesson?.card = card + 1
            return showLessonCard()
        }
        startLessonCheck(lesson)
    }

    /// "Test out": the open lesson's checks now (a button from before a test-out fell short, stale).
    mutating func testOut() {
        guard let run = state.session.lesson, let lesson = banks.lesson(run.lessonID) else { return learn() }
        guard run.recheck == nil else { return showLessonCard() }
        state.session.lesson?.testingOut = true
        startLessonCheck(lesson)
    }

    /// The check questions the learner's state may be asked (a state's exclusions left out).
    func checkQuestions(_ lesson: Lesson) -> [String] {
        let pool = banks.poolIDs(for: learner.stateCode)
        return lesson.checkQuestionIds.filter { pool.contains($0) }
    }

    /// The checks this run of the lesson asks after its cards: all of them, or after a test-out
    /// that fell short, the ones it missed.
    func checkQuestions(_ lesson: Lesson, run: LessonRun?) -> [String] {
        let all = checkQuestions(lesson)
        guard let run, run.lessonID == lesson.id, let recheck = run.recheck else { return all }
        return all.filter(recheck.contains)
    }

    mutating func startLessonCheck(_ lesson: Lesson) {
        guard !checkQuestions(lesson, run: state.session.lesson).isEmpty else {
            let run = state.session.lesson
            let right = run?.lessonID == lesson.id ? run?.rightWhenTestingOut : nil
            let total = right == nil ? 0 : checkQuestions(lesson).count
            return completeLesson(lesson, correct: min(right ?? 0, total), total: total)
        }
        startQuiz(.lessonCheck(lesson.id))
    }

    /// The check questions are answered: the lesson is done (after reading it, whatever the score;
    /// after testing out, with 4 of 5 right), or, testing out short of that, its cards come next.
    mutating func finishLessonCheck(_ quiz: QuizRun, lessonID: String) {
        state.session.quiz = nil
        if quiz.secondsPerQuestion != nil || quiz.deadline != nil { effects.append(.cancelTimer(key: quiz.timerKey)) }
        guard let lesson = banks.lesson(lessonID) else {
            state.session.lesson = nil
            return showHome()
        }
        var correct = quiz.answers.filter(\.correct).count
        var total = quiz.questionIDs.count
        let run = state.session.lesson?.lessonID == lessonID ? state.session.lesson : nil
        let testingOut = run?.testingOut == true
        if testingOut && correct < Reduction.testOutNeeded(total) {
            send(
                .lessonDone(
                    LessonDoneView(
                        title: lesson.title, correct: correct, total: total, testedOut: true, finished: false,
                        needed: Reduction.testOutNeeded(total), nextTitle: nil,
                        lessonsDone: lessonProgress.done, lessonsTotal: lessonProgress.total,
                        reward: reward(since: quiz.xpAtStart))))
            // Reading starts at the card the test-out was tried from: the ones before it were read.
            var reading = LessonRun(
                lessonID: lesson.id, seq: (state.session.lesson?.seq ?? 0) + 1, card: run?.card ?? 0)
            let right = Set(quiz.answers.filter(\.correct).map(\.questionID))
            reading.recheck = quiz.questionIDs.filter { !right.contains($0) }
            reading.rightWhenTestingOut = correct
            state.session.lesson = reading
            return showLessonCard()
        }
        // After the cards, a test-out's right answers count with the misses asked again.
        var afterReading: Int?
        if let before = run?.rightWhenTestingOut, run?.recheck != nil {
            afterReading = correct
            total = checkQuestions(lesson).count
            correct = min(total, correct + before)  // a check dropped by a bank reload in between
        }
        completeLesson(
            lesson, correct: correct, total: total, testedOut: testingOut, xpAtStart: quiz.xpAtStart,
            rightAfterReading: afterReading)
    }

    /// 4 of 5 (80%, rounded up) to test out.
    static func testOutNeeded(_ total: Int) -> Int { Int((Double(total) * 0.8).rounded(.up)) }

    mutating func completeLesson(
        _ lesson: Lesson, correct: Int, total: Int, testedOut: Bool = false, xpAtStart: Int? = nil,
        rightAfterReading: Int? = nil
    ) {
        state.session.lesson = nil
        state.lessonsDone[lesson.id] = ctx.now
        // A lesson counts as a study day, like a quiz.
        state.learner.streak.record(today)
        state.session.screen = .home
        // Next: the topic's next lesson (the learner may have picked this topic), else the path's.
        let siblings =
            lesson.topic.map { banks.lessons(for: $0) } ?? lesson.stateCode.map { banks.lessons(forState: $0) } ?? []
        let next = siblings.first { state.lessonsDone[$0.id] == nil } ?? nextLesson
        let progress = lessonProgress
        var view = LessonDoneView(
            title: lesson.title, correct: correct, total: total, testedOut: testedOut, finished: true,
            needed: Reduction.testOutNeeded(total), nextTitle: next?.title,
            lessonsDone: progress.done, lessonsTotal: progress.total,
            reward: total > 0 ? reward(since: xpAtStart) : nil, rightAfterReading: rightAfterReading)
        view.nextInTopic = next != nil && next?.id != nextLesson?.id
        var rows: [[Button]] = []
        if let next { rows.append([Button(.nextLesson, .openLesson(next.id))]) }
        rows.append([Button(.quickQuiz, .menu(.quickQuiz)), Button(.home, .menu(.home))])
        send(.lessonDone(view), buttons: rows)
    }

    /// A topic's lessons with ✅ for those done, and its quiz.
    mutating func showTopicLessons(_ topic: Topic) {
        guard stateInfo != nil else { return showStatePicker() }
        state.session.screen = .home
        let lessons =
            topic == .stateSpecific
            ? learner.stateCode.map { banks.lessons(forState: $0) } ?? [] : banks.lessons(for: topic)
        guard !lessons.isEmpty else { return startQuiz(.topic(topic)) }
        var rows = lessons.enumerated().map { i, l in
            [Button(.lesson(number: i + 1, title: l.title, done: state.lessonsDone[l.id] != nil), .openLesson(l.id))]
        }
        rows.append([Button(.quizTopic(topic), .pickTopic(topic))])
        rows.append([Button(.topics, .menu(.topics)), Button(.home, .menu(.home))])
        let view = TopicLessonsView(
            topic: topic, done: lessons.filter { state.lessonsDone[$0.id] != nil }.count, total: lessons.count,
            stateName: topic == .stateSpecific ? stateInfo?.name : nil)
        send(.topicLessons(view), buttons: rows)
    }
}
