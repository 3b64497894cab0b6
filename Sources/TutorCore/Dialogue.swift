import Foundation

/// What the reducer may look at besides the chat's own state: no I/O, no clock of its own.
public struct DialogueContext: Sendable {
    public var banks: Banks
    public var now: Date
    /// Seeds the shuffles; the runtime derives it from the update id so a replay is identical.
    public var seed: UInt64

    public init(banks: Banks, now: Date, seed: UInt64) { self.banks = banks; self.now = now; self.seed = seed }
}

/// The dialogue of one chat as a pure function: `(state, event) → (new state, effects)`.
public enum Dialogue {
    /// States offered as buttons on the picker (the launch states); any other is typed.
    public static let pickerStates = ["CA", "TX", "FL", "NY", "PA", "IL", "OH", "NC", "MI", "GA", "NJ", "VA", "MA"]
    /// Longer typed text is not an answer to anything we ask.
    public static let maxUsefulTextLength = 200

    public static func reduce(_ state: ChatState, _ event: Event, _ context: DialogueContext) -> (ChatState, [Effect]) {
        var r = Reduction(state: state, ctx: context)
        r.handle(event)
        return (r.state, r.effects)
    }

    /// A fresh chat, before its first event.
    public static func newChat(chatID: Int64, sender: Sender, isGroup: Bool, now: Date) -> ChatState {
        ChatState(learner: Learner(chatID: chatID, userID: sender.userID, firstName: sender.firstName,
                                   languageCode: sender.languageCode, isGroup: isGroup, joinedAt: now))
    }

    /// The learner's time zone: their own choice, else their state's main zone, else Eastern.
    public static func timeZone(of learner: Learner, banks: Banks) -> TimeZone {
        let id = learner.timeZone ?? learner.stateCode.flatMap { banks.state($0)?.primaryTimeZone } ?? "America/New_York"
        return TimeZone(identifier: id) ?? TimeZone(identifier: "America/New_York")!
    }
}

/// One reduction in progress: the state being changed and the effects collected so far.
struct Reduction {
    var state: ChatState
    let ctx: DialogueContext
    var random: SeededRandom
    var effects: [Effect] = []

    init(state: ChatState, ctx: DialogueContext) {
        self.state = state
        self.ctx = ctx
        self.random = SeededRandom(seed: ctx.seed)
    }

    var banks: Banks { ctx.banks }
    var learner: Learner { state.learner }
    var today: LocalDay { LocalDay(ctx.now, in: Dialogue.timeZone(of: learner, banks: banks)) }
    var stateInfo: StateInfo? { learner.stateCode.flatMap(banks.state) }

    mutating func send(_ reply: Reply) { effects.append(.send(reply)) }
    mutating func send(_ message: Message, buttons: [[Button]] = []) { send(Reply(message, buttons: buttons)) }

    // MARK: - events

    mutating func handle(_ event: Event) {
        switch event {
        case .botBlocked: state.learner.blocked = true; return
        case .botUnblocked: state.learner.blocked = false; return
        default: break
        }
        state.learner.blocked = false
        state.learner.lastActiveAt = ctx.now
        if learner.isGroup { return handleInGroup(event) }

        switch event {
        case .commandSent(let command, let payload): handle(command, payload: payload)
        case .unknownCommandSent: notice(.didNotCatchThat)
        case .textSent(let text): handleText(text)
        case .buttonTapped(let id, let action, let messageID): handleButton(id, action, messageID: messageID)
        case .unsupportedContentSent: notice(.unsupportedContent)
        case .messageEdited: notice(.editedMessage)
        case .botBlocked, .botUnblocked: break
        }
    }

    /// In a group the bot says once that it works in private chats, and otherwise stays quiet.
    mutating func handleInGroup(_ event: Event) {
        if case .buttonTapped(let id, _, _) = event { effects.append(.answerButton(callbackID: id, toast: .groupChat)) }
        guard state.session.screen == .new else { return }
        state.session.screen = .help
        send(.notice(.groupChat))
    }

    mutating func handle(_ command: Command, payload: String?) {
        switch command {
        case .start: start(payload: payload)
        case .quiz:
            if let quiz = state.session.quiz, quiz.mode == .quick { resume() } else { startQuiz(.quick) }
        case .topics: showTopics()
        case .review: startQuiz(.review)
        case .progress: showProgress()
        case .settings: showSettings()
        case .help: show(.help, screen: .help)
        case .about: show(.about, screen: .about)
        case .stop:
            state.learner.stopped = true
            state.session.screen = .stopped
            send(.notice(.stopped))
        case .test, .cards, .signs:
            send(.comingSoon)
            showHome()
        }
    }

    mutating func start(payload: String?) {
        let firstTime = state.session.screen == .new
        if learner.stopped {
            state.learner.stopped = false
            if !firstTime { send(.notice(.resumed)) }
        }
        send(firstTime ? .welcome(firstName: learner.firstName) : .welcomeBack(firstName: learner.firstName))
        if let payload, let picked = StateMatcher.match(payload, in: banks.states) {
            choose(picked)
        } else if learner.stateCode == nil || stateInfo == nil {
            showStatePicker()
        } else if state.session.quiz != nil {
            resume()
        } else {
            showHome()
        }
    }

    mutating func handleText(_ raw: String) {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= Dialogue.maxUsefulTextLength else { return notice(.tooLong) }
        guard !text.isEmpty else { return notice(.didNotCatchThat) }

        if learner.stateCode == nil || [.new, .pickingState, .typingState].contains(state.session.screen) {
            if let picked = StateMatcher.match(text, in: banks.states) { return choose(picked) }
            send(.notice(.stateNotFound))
            return showTypeState()
        }
        if let quiz = state.session.quiz, state.session.screen == .quiz {
            switch quiz.phase {
            case .asking:
                if let shown = Reduction.typedOption(text), shown < quiz.order.count {
                    return answer(original: quiz.order[shown], target: .tag(quiz.questionTag))
                }
            case .answered:
                if ["next", "n", "ok", "go", ">"].contains(text.lowercased()) { return advance() }
            }
        }
        notice(.didNotCatchThat)
    }

    /// "A", "b)", "2", "c." → the shown option's position (0-based).
    static func typedOption(_ text: String) -> Int? {
        var t = text.lowercased()
        while let last = t.last, [")", ".", ":"].contains(last) { t.removeLast() }
        switch t {
        case "a", "1": return 0
        case "b", "2": return 1
        case "c", "3": return 2
        case "d", "4": return 3
        default: return nil
        }
    }

    mutating func handleButton(_ callbackID: String, _ action: ButtonAction?, messageID: Int64) {
        guard let action else {
            effects.append(.answerButton(callbackID: callbackID, toast: .garbledButton))
            return showCurrentScreen()
        }
        let ack = Effect.answerButton(callbackID: callbackID, toast: nil)
        switch action {
        case .answer(let quizID, let index, let option):
            guard let quiz = state.session.quiz, quiz.id == quizID else { return stale(callbackID) }
            if index < quiz.index || (index == quiz.index && quiz.phase == .answered) {
                effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered)); return
            }
            guard index == quiz.index, let q = banks.question(quiz.currentQuestionID), q.answers.indices.contains(option) else {
                return stale(callbackID)
            }
            effects.append(ack)
            answer(original: option, target: .id(messageID))
        case .next(let quizID, let index):
            guard let quiz = state.session.quiz, quiz.id == quizID else {
                // The last "See results" of a finished quiz, tapped twice: nothing to do.
                if state.results.last?.quizID == quizID { effects.append(ack); return }
                return stale(callbackID)
            }
            if index < quiz.index { effects.append(ack); return }
            guard index == quiz.index, quiz.phase == .answered else { return stale(callbackID) }
            effects.append(ack)
            advance()
        case .menu(let item):
            effects.append(ack)
            go(item)
        case .pickState(let code):
            guard let picked = banks.state(code) else {
                effects.append(.answerButton(callbackID: callbackID, toast: .garbledButton))
                return showCurrentScreen()
            }
            effects.append(ack)
            choose(picked)
        case .pickTopic(let topic):
            effects.append(ack)
            startQuiz(.topic(topic))
        }
    }

    mutating func stale(_ callbackID: String) {
        effects.append(.answerButton(callbackID: callbackID, toast: .staleButton))
        showCurrentScreen()
    }

    mutating func go(_ item: MenuItem) {
        switch item {
        case .home: showHome()
        case .quickQuiz: startQuiz(.quick)
        case .topics: showTopics()
        case .review: startQuiz(.review)
        case .progress: showProgress()
        case .settings: showSettings()
        case .help: show(.help, screen: .help)
        case .about: show(.about, screen: .about)
        case .changeState: showStatePicker()
        case .otherState: showTypeState()
        case .tryAnother: startQuiz(state.results.last?.mode ?? .quick)
        case .resume: resume()
        }
    }

    /// A friendly line, then the screen the learner was on, so they always know where they are.
    mutating func notice(_ n: Notice) {
        send(.notice(n))
        showCurrentScreen()
    }

    // MARK: - screens

    mutating func showCurrentScreen() {
        if learner.stateCode == nil || stateInfo == nil {
            return state.session.screen == .typingState ? showTypeState() : showStatePicker()
        }
        switch state.session.screen {
        case .quiz where state.session.quiz != nil: resume()
        case .typingState: showTypeState()
        case .pickingState: showStatePicker()
        default: showHome()
        }
    }

    mutating func show(_ message: Message, screen: Screen) {
        state.session.screen = screen
        send(message, buttons: [[Button(.home, .menu(.home))]])
    }

    mutating func showStatePicker() {
        state.session.screen = .pickingState
        let states = Dialogue.pickerStates.compactMap(banks.state)
        var rows = stride(from: 0, to: states.count, by: 3).map { i in
            states[i..<min(i + 3, states.count)].map { Button(.state(name: $0.name), .pickState($0.code)) }
        }
        rows.append([Button(.otherState, .menu(.otherState))])
        send(.pickState, buttons: rows)
    }

    mutating func showTypeState() {
        state.session.screen = .typingState
        send(.typeState)
    }

    mutating func choose(_ picked: StateInfo) {
        state.learner.stateCode = picked.code
        send(.stateCard(StateCardView(state: picked)))
        showHome()
    }

    mutating func showHome() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .home
        let pool = banks.pool(for: info.code)
        let missed = QuestionPicker.reviewQuestions(state, banks: banks, limit: Int.max).count
        let view = HomeView(firstName: learner.firstName, stateName: info.name,
                            streak: learner.streak.current(on: today), studiedToday: learner.streak.studied(on: today),
                            missedCount: missed, seenCount: pool.filter { state.progress[$0.id] != nil }.count,
                            totalCount: pool.count)
        var rows: [[Button]] = []
        if let quiz = state.session.quiz {
            rows.append([Button(.continueQuiz(number: quiz.index + 1, total: quiz.questionIDs.count), .menu(.resume))])
        }
        rows.append([Button(.quickQuiz, .menu(.quickQuiz)), Button(.topics, .menu(.topics))])
        var third = [Button(.progress, .menu(.progress))]
        if missed > 0 { third.insert(Button(.reviewMissed(count: missed), .menu(.review)), at: 0) }
        rows.append(third)
        rows.append([Button(.settings, .menu(.settings)), Button(.help, .menu(.help))])
        send(.home(view), buttons: rows)
    }

    mutating func showTopics() {
        guard stateInfo != nil else { return showStatePicker() }
        state.session.screen = .home
        let topics = Set(banks.pool(for: learner.stateCode).map(\.category)).sorted()
        var rows = stride(from: 0, to: topics.count, by: 2).map { i in
            topics[i..<min(i + 2, topics.count)].map { Button(.topic($0), .pickTopic($0)) }
        }
        rows.append([Button(.home, .menu(.home))])
        send(.pickTopic, buttons: rows)
    }

    mutating func showProgress() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .progress
        let pool = banks.pool(for: info.code)
        let view = ProgressView(stateName: info.name, mastery: Mastery.byTopic(state.progress, pool: pool),
                                seenCount: pool.filter { state.progress[$0.id] != nil }.count, totalCount: pool.count,
                                streak: learner.streak.current(on: today), bestStreak: learner.streak.best,
                                recent: Array(state.results.suffix(5).reversed()))
        send(.progress(view), buttons: [[Button(.quickQuiz, .menu(.quickQuiz)), Button(.home, .menu(.home))]])
    }

    mutating func showSettings() {
        state.session.screen = .settings
        send(.settings(SettingsView(stateName: stateInfo?.name)),
             buttons: [[Button(.changeState, .menu(.changeState))], [Button(.about, .menu(.about)), Button(.home, .menu(.home))]])
    }

    // MARK: - quizzes

    mutating func startQuiz(_ mode: QuizMode) {
        guard stateInfo != nil else { return showStatePicker() }
        let questions: [Question]
        switch mode {
        case .quick:
            questions = QuestionPicker.pick(QuestionPicker.quizLength, from: banks.pool(for: learner.stateCode),
                                            progress: state.progress, random: &random)
        case .topic(let topic):
            questions = QuestionPicker.pick(QuestionPicker.quizLength, from: banks.pool(for: learner.stateCode).filter { $0.category == topic },
                                            progress: state.progress, random: &random)
        case .review:
            questions = QuestionPicker.reviewQuestions(state, banks: banks)
        }
        guard !questions.isEmpty else {
            send(.reviewEmpty)
            return showHome()
        }
        let id = state.session.nextQuizID
        state.session.nextQuizID += 1
        state.session.quiz = QuizRun(id: id, mode: mode, questionIDs: questions.map(\.id), startedAt: ctx.now)
        state.session.screen = .quiz
        askCurrentQuestion(reshuffle: true)
    }

    /// Back to the open quiz exactly where the learner left it.
    mutating func resume() {
        guard let quiz = state.session.quiz else { return showHome() }
        state.session.screen = .quiz
        switch quiz.phase {
        case .asking: askCurrentQuestion(reshuffle: quiz.order.isEmpty)
        case .answered:
            guard let q = banks.question(quiz.currentQuestionID), let given = quiz.answers.last else { return advance() }
            var reply = answeredReply(q, quiz: quiz, chosen: given.chosen)
            reply.tag = quiz.questionTag
            send(reply)
        }
    }

    /// Sends the current question; skips questions a bank update removed mid-quiz.
    mutating func askCurrentQuestion(reshuffle: Bool) {
        guard var quiz = state.session.quiz else { return showHome() }
        while quiz.index < quiz.questionIDs.count, banks.question(quiz.currentQuestionID) == nil {
            quiz.questionIDs.remove(at: quiz.index)
            reshuffleNeeded: do { quiz.order = [] }
        }
        guard quiz.index < quiz.questionIDs.count, let q = banks.question(quiz.currentQuestionID) else {
            state.session.quiz = quiz
            return finish()
        }
        if reshuffle || quiz.order.count != q.answers.count {
            quiz.order = QuestionPicker.shuffledOrder(q, random: &random)
        }
        quiz.phase = .asking
        state.session.quiz = quiz
        let letters = zip(Reduction.letters, quiz.order).map { letter, original in
            Button(.letter(letter), .answer(quiz: quiz.id, question: quiz.index, option: original))
        }
        send(Reply(.question(questionView(q, quiz)), buttons: [letters], picture: q.imageAssetName, tag: quiz.questionTag))
    }

    static let letters = ["A", "B", "C", "D"]

    func questionView(_ q: Question, _ quiz: QuizRun) -> QuestionView {
        QuestionView(number: quiz.index + 1, total: quiz.questionIDs.count, mode: quiz.mode, topic: q.category,
                     text: q.questionText,
                     options: zip(Reduction.letters, quiz.order).map { AnswerOption(letter: $0, text: q.answers[$1]) })
    }

    func answeredReply(_ q: Question, quiz: QuizRun, chosen: Int) -> Reply {
        let letterOf = { (original: Int) in Reduction.letters[quiz.order.firstIndex(of: original) ?? 0] }
        let view = AnsweredView(question: questionView(q, quiz), chosenLetter: letterOf(chosen),
                                correctLetter: letterOf(q.correctAnswerIndex), correctText: q.answers[q.correctAnswerIndex],
                                isCorrect: chosen == q.correctAnswerIndex, explanation: q.explanation, source: q.source)
        let next = quiz.isLastQuestion ? ButtonLabel.seeResults : .next
        return Reply(.answered(view), buttons: [[Button(next, .next(quiz: quiz.id, question: quiz.index))]])
    }

    mutating func answer(original option: Int, target: MessageTarget) {
        guard var quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else { return showCurrentScreen() }
        let correct = option == q.correctAnswerIndex
        var stats = state.progress[q.id] ?? QuestionStats(lastAnsweredAt: ctx.now)
        stats.record(correct: correct, at: ctx.now)
        state.progress[q.id] = stats
        let day = today
        state.learner.streak.record(day)
        quiz.answers.append(GivenAnswer(questionID: q.id, topic: q.category, chosen: option, correct: correct))
        quiz.phase = .answered
        state.session.quiz = quiz
        effects.append(.recordAnswer(AnswerRecord(questionID: q.id, correct: correct, quizID: quiz.id,
                                                  answeredAt: ctx.now, localDay: day)))
        effects.append(.edit(target, answeredReply(q, quiz: quiz, chosen: option)))
    }

    mutating func advance() {
        guard var quiz = state.session.quiz else { return showHome() }
        quiz.index += 1
        quiz.order = []
        state.session.quiz = quiz
        if quiz.index >= quiz.questionIDs.count { return finish() }
        askCurrentQuestion(reshuffle: true)
    }

    mutating func finish() {
        guard let quiz = state.session.quiz else { return showHome() }
        var byTopic: [Topic: TopicScore] = [:]
        for a in quiz.answers {
            var s = byTopic[a.topic] ?? TopicScore(topic: a.topic, correct: 0, total: 0)
            s.total += 1
            if a.correct { s.correct += 1 }
            byTopic[a.topic] = s
        }
        let result = QuizResult(quizID: quiz.id, mode: quiz.mode, stateCode: learner.stateCode,
                                correct: quiz.answers.filter(\.correct).count, total: quiz.answers.count,
                                passPercent: stateInfo?.test.passPercent ?? 80, startedAt: quiz.startedAt,
                                finishedAt: ctx.now, byTopic: byTopic.keys.sorted().map { byTopic[$0]! },
                                missedIDs: quiz.answers.filter { !$0.correct }.map(\.questionID))
        state.results.append(result)
        if state.results.count > ChatState.recentResultsKept { state.results.removeFirst(state.results.count - ChatState.recentResultsKept) }
        state.session.quiz = nil
        state.session.screen = .results
        let view = ResultsView(result: result, stateName: stateInfo?.name,
                               durationSeconds: max(0, Int(ctx.now.timeIntervalSince(quiz.startedAt))),
                               missedCount: result.missedIDs.count)
        var rows: [[Button]] = []
        if QuestionPicker.reviewQuestions(state, banks: banks).isEmpty == false {
            rows.append([Button(.reviewMyMisses, .menu(.review))])
        }
        rows.append([Button(.tryAnother, .menu(.tryAnother)), Button(.home, .menu(.home))])
        send(.results(view), buttons: rows)
    }
}
