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
        if !r.effects.contains(.eraseLearner) {
            r.state.learner.nextNudgeAt = Nudges.next(for: r.state.learner, now: context.now,
                                                      timeZone: timeZone(of: r.state.learner, banks: context.banks))
        }
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
        case .timerFired(let key): return timerFired(key)
        case .nudgeDue: return nudgeDue()
        default: break
        }
        state.learner.blocked = false
        state.learner.lastActiveAt = ctx.now
        state.learner.ignoredNudges = 0   // they came back: reminders resume
        if learner.isGroup { return handleInGroup(event) }

        switch event {
        case .commandSent(let command, let payload): handle(command, payload: payload)
        case .unknownCommandSent: notice(.didNotCatchThat)
        case .textSent(let text): handleText(text)
        case .buttonTapped(let id, let action, let messageID): handleButton(id, action, messageID: messageID)
        case .unsupportedContentSent: notice(.unsupportedContent)
        case .messageEdited: notice(.editedMessage)
        case .timerFired, .nudgeDue, .botBlocked, .botUnblocked: break
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
        case .test: showTestPicker()
        case .cards: startFlashcards()
        case .signs: showSignGroups()
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
            case .asking where banks.question(quiz.currentQuestionID)?.kind == .fillIn:
                return answerTyped(text)
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
        case .startTest(let number):
            effects.append(ack)
            startQuiz(.practiceTest(number: number))
        case .missesPage(let quizID, let page):
            effects.append(ack)
            showMisses(quizID: quizID, page: page)
        case .setNudgeTime(let minute):
            effects.append(ack)
            state.learner.nudgeMinute = minute
            state.learner.nudgesOn = true
            showSettings()
        case .setZone(let index):
            effects.append(ack)
            if let zones = stateInfo?.timeZones, zones.indices.contains(index) { state.learner.timeZone = zones[index] }
            showSettings()
        case .showCard(let seq, let index):
            guard let run = state.session.cards, run.seq == seq, run.index == index else { return staleCard(callbackID, seq: seq) }
            if run.showingAnswer { effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered)); return }
            effects.append(ack)
            revealCard(target: .id(messageID))
        case .rateCard(let seq, let index, let rating):
            guard let run = state.session.cards, run.seq == seq, run.index == index, run.showingAnswer else {
                return staleCard(callbackID, seq: seq)
            }
            effects.append(ack)
            rateCard(rating)
        case .signGroup(let group):
            effects.append(ack)
            showSign(group, 0)
        case .signAt(let group, let index):
            effects.append(ack)
            showSign(group, index)
        case .quizSigns(let group):
            effects.append(ack)
            startQuiz(.signGroup(group))
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
        case .tryAnother:
            if let last = state.results.last?.mode, last.isPracticeTest { showTestPicker() } else { startQuiz(state.results.last?.mode ?? .quick) }
        case .resume: resume()
        case .practiceTest: showTestPicker()
        case .timedChallenge: startQuiz(.timedChallenge)
        case .toggleReveal:
            state.learner.revealAnswersAsYouGo.toggle()
            showSettings()
        case .toggleFourButtons:
            state.learner.fourButtonCards.toggle()
            showSettings()
        case .flashcards: startFlashcards()
        case .gallery: showSignGroups()
        case .livesChallenge: startQuiz(.livesChallenge)
        case .toggleNudges:
            state.learner.nudgesOn.toggle()
            showSettings()
        case .deleteData:
            state.session.screen = .settings
            send(.confirmDelete, buttons: [[Button(.confirmDelete, .menu(.confirmDelete))], [Button(.keepData, .menu(.settings))]])
        case .confirmDelete:
            effects.append(.eraseLearner)
            state = Dialogue.newChat(chatID: learner.chatID, sender: Sender(userID: learner.userID, firstName: learner.firstName),
                                     isGroup: false, now: ctx.now)
            send(.dataDeleted)
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
                            missedCount: missed, seenCount: seenCount(info.code),
                            totalCount: pool.count, xp: learner.xp,
                            answeredToday: learner.answeredDay == today ? learner.answeredToday : 0)
        let due = state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).count
        var rows: [[Button]] = []
        if let quiz = state.session.quiz {
            rows.append([Button(.continueQuiz(number: quiz.index + 1, total: quiz.questionIDs.count), .menu(.resume))])
        }
        rows.append([Button(.quickQuiz, .menu(.quickQuiz)), Button(.practiceTest, .menu(.practiceTest))])
        rows.append([Button(.flashcards(due: due), .menu(.flashcards)), Button(.gallery, .menu(.gallery))])
        rows.append([Button(.topics, .menu(.topics)), Button(.timedChallenge, .menu(.timedChallenge))])
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
                                seenCount: seenCount(info.code), totalCount: pool.count,
                                streak: learner.streak.current(on: today), bestStreak: learner.streak.best,
                                recent: Array(state.results.suffix(5).reversed()), readiness: readiness(),
                                readyToTest: readyToTest, xp: learner.xp, badges: learner.badges.sorted(),
                                cardsDue: state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).count)
        let tests = state.results.filter(\.mode.isPracticeTest)
        let chart = tests.isEmpty ? nil : ScoreChartSpec(
            points: tests.map { .init(date: $0.finishedAt, percent: $0.percent) }, passPercent: info.test.passPercent ?? 80,
            learnerName: learner.firstName, stateName: info.name, timeZone: Dialogue.timeZone(of: learner, banks: banks).identifier)
        send(Reply(.progress(view), buttons: [[Button(.quickQuiz, .menu(.quickQuiz)), Button(.practiceTest, .menu(.practiceTest))],
                                              [Button(.home, .menu(.home))]], chart: chart))
    }

    mutating func showSettings() {
        state.session.screen = .settings
        let zones = stateInfo?.timeZones ?? []
        let zone = Dialogue.timeZone(of: learner, banks: banks).identifier
        let view = SettingsView(stateName: stateInfo?.name, revealAnswersAsYouGo: learner.revealAnswersAsYouGo,
                                nudgesOn: learner.nudgesOn, nudgeMinute: learner.nudgeMinute,
                                paused: learner.ignoredNudges >= Nudges.pauseAfterIgnored, timeZone: zones.count > 1 ? zone : nil,
                                fourButtonCards: learner.fourButtonCards)
        var rows: [[Button]] = [[Button(.changeState, .menu(.changeState))],
                                [Button(.revealAnswers(on: !learner.revealAnswersAsYouGo), .menu(.toggleReveal))],
                                [Button(.fourButtons(on: !learner.fourButtonCards), .menu(.toggleFourButtons))],
                                [Button(.nudges(on: !learner.nudgesOn), .menu(.toggleNudges))]]
        if learner.nudgesOn {
            rows.append(Nudges.choices.map { Button(.nudgeTime(minute: $0, selected: $0 == learner.nudgeMinute), .setNudgeTime($0)) })
        }
        if zones.count > 1 {
            rows.append(zones.enumerated().map { Button(.zone($1, selected: $1 == zone), .setZone($0)) })
        }
        rows.append([Button(.deleteData, .menu(.deleteData))])
        rows.append([Button(.about, .menu(.about)), Button(.home, .menu(.home))])
        send(.settings(view), buttons: rows)
    }

    /// The daily reminder came due: send it if today still calls for one (the final say is
    /// here, not in the scheduler that found the learner).
    mutating func nudgeDue() {
        let tz = Dialogue.timeZone(of: learner, banks: banks)
        guard Nudges.mayRemind(learner, now: ctx.now, timeZone: tz) else { return }
        state.learner.lastNudgeDay = LocalDay(ctx.now, in: tz)
        state.learner.ignoredNudges += 1
        let missed = QuestionPicker.reviewQuestions(state, banks: banks, limit: Int.max).count
        let due = state.dueCards(at: ctx.now, in: banks.poolIDs(for: learner.stateCode)).count
        var rows = [[Button(.quickQuiz, .menu(.quickQuiz))]]
        // Offer the quickest useful thing: due flashcards first, then misses.
        if due > 0 { rows[0].append(Button(.flashcards(due: due), .menu(.flashcards))) }
        else if missed > 0 { rows[0].append(Button(.reviewMissed(count: missed), .menu(.review))) }
        send(Reply(.nudge(NudgeView(firstName: learner.firstName, streak: learner.streak.current(on: today), missedCount: missed, cardsDue: due)),
                   buttons: rows, bulk: true))
    }

    // MARK: - practice tests

    mutating func showTestPicker() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .home
        let best: [QuizResult?] = (1...ExamBuilder.fixedTests).map { n in
            state.results.filter { $0.mode == .practiceTest(number: n) }.max { $0.correct < $1.correct }
        }
        var rows: [[Button]] = [(1...ExamBuilder.fixedTests).map { n in
            Button(.testNumber(n, passed: best[n - 1]?.passed), .startTest(n))
        }]
        rows.append([Button(.randomTest, .startTest(0))])
        rows.append([Button(.home, .menu(.home))])
        send(.pickTest(PickTestView(state: info, best: best)), buttons: rows)
    }

    /// The misses of a finished quiz, a page at a time (each page stays well inside one message).
    mutating func showMisses(quizID: Int, page: Int) {
        guard let result = state.results.first(where: { $0.quizID == quizID }) else { return notice(.staleButton) }
        let items = result.missedIDs.enumerated().compactMap { i, id -> MissItem? in
            guard let q = banks.question(id) else { return nil }
            return MissItem(number: i + 1, question: q.questionText, correctAnswer: q.answers[q.correctAnswerIndex], explanation: q.explanation)
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
            if !current.isEmpty && size + n > budget { pages.append(current); current = []; size = 0 }
            current.append(item)
            size += n
        }
        if !current.isEmpty { pages.append(current) }
        return pages
    }

    // MARK: - quizzes

    static let timedChallengeSeconds = 20
    static let lives = 3

    mutating func startQuiz(_ mode: QuizMode) {
        guard let info = stateInfo else { return showStatePicker() }
        let pool = banks.pool(for: info.code)
        var questions: [Question] = []
        var sections: [Int]?
        switch mode {
        case .quick, .timedChallenge, .livesChallenge:
            questions = QuestionPicker.pick(QuestionPicker.quizLength, from: pool, progress: state.progress, random: &random)
        case .signGroup(let group):
            let signs = Set(banks.signs.filter { $0.group == group }.map(\.id))
            var drill = pool.filter { $0.imageAssetName.map(signs.contains) == true }
            if drill.count < 3 { drill = pool.filter(\.isSign) }
            questions = QuestionPicker.pick(QuestionPicker.quizLength, from: drill, progress: state.progress, random: &random)
        case .topic(let topic):
            questions = QuestionPicker.pick(QuestionPicker.quizLength, from: pool.filter { $0.category == topic },
                                            progress: state.progress, random: &random)
        case .review:
            questions = QuestionPicker.reviewQuestions(state, banks: banks)
        case .practiceTest(let number):
            do {
                let exam = number == 0 ? try ExamBuilder.randomTest(state: info, pool: pool, random: &random)
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
        let id = state.session.nextQuizID
        state.session.nextQuizID += 1
        var run = QuizRun(id: id, mode: mode, questionIDs: questions.map(\.id), startedAt: ctx.now)
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
            guard let q = banks.question(quiz.currentQuestionID), let given = quiz.answers.last else { return advance() }
            var reply = answeredReply(q, quiz: quiz, chosen: given.chosen, timedOut: given.chosen < 0)
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
        let letters = q.kind == .fillIn ? [] : zip(Reduction.letters, quiz.order).map { letter, original in
            Button(.letter(letter), .answer(quiz: quiz.id, question: quiz.index, option: original))
        }
        send(Reply(.question(questionView(q, quiz)), buttons: letters.isEmpty ? [] : [letters], picture: q.imageAssetName, tag: quiz.questionTag))
    }

    static let letters = ["A", "B", "C", "D"]

    func questionView(_ q: Question, _ quiz: QuizRun) -> QuestionView {
        var view = QuestionView(number: quiz.index + 1, total: quiz.questionIDs.count, mode: quiz.mode, topic: q.category,
                                text: q.questionText,
                                options: zip(Reduction.letters, quiz.order).map { AnswerOption(letter: $0, text: q.answers[$1]) })
        if let sections = quiz.sectionOfQuestion, let format = stateInfo?.test, format.sections.count > 1,
           sections.indices.contains(quiz.index), format.sections.indices.contains(sections[quiz.index]) {
            view.sectionName = format.sections[sections[quiz.index]].name
        }
        view.secondsPerQuestion = quiz.secondsPerQuestion
        view.typeIn = q.kind == .fillIn
        view.lives = quiz.lives
        return view
    }

    func answeredView(_ q: Question, quiz: QuizRun, chosen: Int, timedOut: Bool) -> AnsweredView {
        let letterOf = { (original: Int) in quiz.order.firstIndex(of: original).map { Reduction.letters[$0] } ?? "" }
        let given = quiz.answers.last { $0.questionID == q.id }
        let correct = q.kind == .fillIn ? (given?.correct ?? false) : chosen == q.correctAnswerIndex
        return AnsweredView(question: questionView(q, quiz), chosenLetter: letterOf(chosen),
                            correctLetter: letterOf(q.correctAnswerIndex), correctText: q.answers[q.correctAnswerIndex],
                            isCorrect: correct, explanation: q.explanation, source: q.source, timedOut: timedOut,
                            typed: q.kind == .fillIn ? given?.typed : nil)
    }

    func answeredReply(_ q: Question, quiz: QuizRun, chosen: Int, timedOut: Bool = false) -> Reply {
        let next = quiz.isLastQuestion || quiz.lives == 0 ? ButtonLabel.seeResults : .next
        return Reply(.answered(answeredView(q, quiz: quiz, chosen: chosen, timedOut: timedOut)),
                     buttons: [[Button(next, .next(quiz: quiz.id, question: quiz.index))]])
    }

    /// Records an answer (`option` -1: no answer in time) in the per-question model, streak and history.
    mutating func record(_ q: Question, option: Int, quiz: inout QuizRun, typed: String? = nil) -> Bool {
        let correct = typed.map { AnswerMatcher.matches($0, q) } ?? (option == q.correctAnswerIndex)
        var stats = state.progress[q.id] ?? QuestionStats(lastAnsweredAt: ctx.now)
        stats.record(correct: correct, at: ctx.now)
        state.progress[q.id] = stats
        let day = today
        let firstToday = !learner.streak.studied(on: day)
        state.learner.streak.record(day)
        // Every answer also feeds the question's flashcard: a miss is Again, a right answer Good.
        reviewCard(q.id, correct ? .good : .again)
        earnXP(XP.attempt + (correct ? XP.correct + (q.difficulty == .hard ? XP.hardBonus : 0) : 0) + (firstToday ? XP.studyDayBonus : 0))
        if learner.answeredDay != day { state.learner.answeredDay = day; state.learner.answeredToday = 0 }
        state.learner.answeredToday += 1
        if learner.streak.current >= 7 { award(.streak7) }
        if let lives = quiz.lives, !correct { quiz.lives = max(0, lives - 1) }
        quiz.answers.append(GivenAnswer(questionID: q.id, topic: q.category, chosen: option, correct: correct, typed: typed))
        quiz.phase = .answered
        effects.append(.recordAnswer(AnswerRecord(questionID: q.id, correct: correct, quizID: quiz.id,
                                                  answeredAt: ctx.now, localDay: day)))
        return correct
    }

    /// A typed answer to a fill-in question.
    mutating func answerTyped(_ text: String) {
        guard var quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else { return showCurrentScreen() }
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
        guard var quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else { return showCurrentScreen() }
        if let deadline = quiz.deadline, ctx.now > deadline {
            // The real test would have ended: an answer after the limit does not count.
            return finish(timedOut: true)
        }
        var timedOut = false
        if let seconds = quiz.secondsPerQuestion {
            effects.append(.cancelTimer(key: quiz.timerKey))
            // A tap that arrives after the budget (the timer not yet processed) is a miss too.
            if let shown = quiz.questionShownAt, ctx.now.timeIntervalSince(shown) > Double(seconds) + 1 { timedOut = true }
        }
        let chosen = timedOut ? -1 : option
        _ = record(q, option: chosen, quiz: &quiz)
        state.session.quiz = quiz
        if quiz.hidesAnswers {
            effects.append(.edit(target, Reply(.lockedIn(answeredView(q, quiz: quiz, chosen: chosen, timedOut: false)))))
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
              let q = banks.question(quiz.currentQuestionID) else { return }   // answered in time, or a stale timer
        _ = record(q, option: -1, quiz: &quiz)
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

    mutating func finish(timedOut: Bool = false) {
        guard let quiz = state.session.quiz else { return showHome() }
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
            exam = ExamScoring.score(format: format, sectionOfQuestion: sections, correct: quiz.questionIDs.map(rightIDs.contains))
        }
        // Unanswered questions (time ran out) are misses too.
        let missed = quiz.questionIDs.filter { !rightIDs.contains($0) }
        let result = QuizResult(quizID: quiz.id, mode: quiz.mode, stateCode: learner.stateCode,
                                correct: exam?.correct ?? rightIDs.count, total: exam?.total ?? quiz.answers.count,
                                passPercent: stateInfo?.test.passPercent ?? 80, startedAt: quiz.startedAt,
                                finishedAt: ctx.now, byTopic: byTopic.keys.sorted().map { byTopic[$0]! },
                                missedIDs: quiz.mode.isPracticeTest ? missed : quiz.answers.filter { !$0.correct }.map(\.questionID),
                                exam: exam, timedOut: timedOut ? true : nil)
        state.results.append(result)
        if result.total >= QuestionPicker.quizLength && result.correct == result.total { award(.firstPerfectQuiz) }
        if (1...ExamBuilder.fixedTests).allSatisfy({ n in state.results.contains { $0.mode == .practiceTest(number: n) && $0.passed } }) {
            award(.allFourTests)
        }
        if let info = stateInfo, Mastery.byTopic(state.progress, pool: banks.pool(for: info.code)).allSatisfy({ $0.percent >= 80 }) {
            award(.allTopics80)
        }
        if state.results.count > ChatState.recentResultsKept { state.results.removeFirst(state.results.count - ChatState.recentResultsKept) }
        state.session.quiz = nil
        state.session.screen = .results
        if quiz.secondsPerQuestion != nil, quiz.phase == .asking, quiz.index < quiz.questionIDs.count {
            effects.append(.cancelTimer(key: quiz.timerKey))
        }
        if quiz.deadline != nil && !timedOut { effects.append(.cancelTimer(key: quiz.deadlineKey)) }
        let view = ResultsView(result: result, stateName: stateInfo?.name,
                               durationSeconds: max(0, Int(ctx.now.timeIntervalSince(quiz.startedAt))),
                               missedCount: result.missedIDs.count,
                               timeLimitMinutes: quiz.deadline != nil ? stateInfo?.test.timeLimitMinutes : nil,
                               readiness: quiz.mode.isPracticeTest ? readiness() : nil)
        var rows: [[Button]] = []
        if quiz.mode.isPracticeTest && !result.missedIDs.isEmpty {
            rows.append([Button(.seeMisses(count: result.missedIDs.count), .missesPage(quiz: quiz.id, page: 0))])
        }
        if QuestionPicker.reviewQuestions(state, banks: banks).isEmpty == false {
            rows.append([Button(.reviewMyMisses, .menu(.review))])
        }
        rows.append([Button(.tryAnother, .menu(.tryAnother)), Button(.home, .menu(.home))])
        send(.results(view), buttons: rows)
    }

    // MARK: - the game layer

    mutating func earnXP(_ points: Int) {
        let before = XP.level(learner.xp)
        state.learner.xp += points
        let after = XP.level(learner.xp)
        if after > before { send(.levelUp(level: after)) }
    }

    /// Announces a badge the first time it is earned.
    mutating func award(_ badge: Badge) {
        guard !learner.badges.contains(badge) else { return }
        state.learner.badges.insert(badge)
        send(.badgeEarned(badge))
    }

    // MARK: - flashcards

    static let scheduler = FSRSScheduler()
    static let cardsPerSession = 20
    static let newCardsPerSession = 5

    mutating func reviewCard(_ questionID: String, _ rating: Rating) {
        let card = state.cards[questionID] ?? FSRSCard.new(due: ctx.now)
        state.cards[questionID] = Reduction.scheduler.review(card, rating: rating, at: ctx.now, random: &random)
    }

    mutating func startFlashcards() {
        guard let info = stateInfo else { return showStatePicker() }
        let pool = banks.pool(for: info.code)
        var ids = Array(state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).prefix(Reduction.cardsPerSession))
        if ids.isEmpty {
            // Nothing due: a few new cards from questions never seen, easy ones first.
            let unseen = pool.filter { state.cards[$0.id] == nil && state.progress[$0.id] == nil && $0.kind != .fillIn }
            let easyFirst = unseen.filter { $0.difficulty == .easy } + unseen.filter { $0.difficulty != .easy }
            ids = easyFirst.prefix(Reduction.newCardsPerSession).map(\.id)
        }
        guard !ids.isEmpty else { return finishFlashcards(reviewed: 0) }
        let seq = state.session.nextQuizID
        state.session.nextQuizID += 1
        state.session.cards = FlashcardRun(seq: seq, questionIDs: ids)
        state.session.screen = .cards
        showCardFront()
    }

    func cardView(_ q: Question, _ run: FlashcardRun, back: Bool) -> FlashcardView {
        FlashcardView(number: run.index + 1, total: run.questionIDs.count, topic: q.category, question: q.questionText,
                      answer: back ? q.answers[q.correctAnswerIndex] : nil, explanation: back ? q.explanation : nil)
    }

    mutating func showCardFront() {
        guard var run = state.session.cards else { return showHome() }
        while run.index < run.questionIDs.count, banks.question(run.questionIDs[run.index]) == nil { run.questionIDs.remove(at: run.index) }
        guard run.index < run.questionIDs.count, let q = banks.question(run.questionIDs[run.index]) else {
            state.session.cards = nil
            return finishFlashcards(reviewed: run.reviewed)
        }
        run.showingAnswer = false
        state.session.cards = run
        send(Reply(.flashcard(cardView(q, run, back: false)), buttons: [[Button(.showAnswer, .showCard(seq: run.seq, index: run.index))]],
                   picture: q.imageAssetName, tag: run.tag))
    }

    mutating func revealCard(target: MessageTarget) {
        guard var run = state.session.cards, let q = banks.question(run.questionIDs[run.index]) else { return showHome() }
        run.showingAnswer = true
        state.session.cards = run
        let ratings: [Rating] = learner.fourButtonCards ? [.again, .hard, .good, .easy] : [.again, .good]
        let buttons = ratings.map { Button(.rate($0, simple: !learner.fourButtonCards), .rateCard(seq: run.seq, index: run.index, rating: $0)) }
        effects.append(.edit(target, Reply(.flashcard(cardView(q, run, back: true)), buttons: [buttons])))
    }

    mutating func rateCard(_ rating: Rating) {
        guard var run = state.session.cards else { return showHome() }
        reviewCard(run.questionIDs[run.index], rating)
        state.learner.cardsReviewed += 1
        earnXP(XP.cardReview)
        if learner.cardsReviewed >= 100 { award(.cards100) }
        if !learner.streak.studied(on: today) { state.learner.streak.record(today) }
        run.reviewed += 1
        run.index += 1
        state.session.cards = run
        showCardFront()
    }

    /// Ends a card session with what comes next ("3 cards tomorrow, 12 this week").
    mutating func finishFlashcards(reviewed: Int) {
        state.session.cards = nil
        let tz = Dialogue.timeZone(of: learner, banks: banks)
        let endOfTomorrow = Nudges.instant(today.adding(days: 2), minute: 0, in: tz)
        let endOfWeek = Nudges.instant(today.adding(days: 8), minute: 0, in: tz)
        let pool = banks.poolIDs(for: learner.stateCode)
        let upcoming = state.cards.filter { pool.contains($0.key) && $0.value.due > ctx.now }.map(\.value.due)
        send(.flashcardsDone(FlashcardSummary(reviewed: reviewed, dueTomorrow: upcoming.filter { $0 < endOfTomorrow }.count,
                                               dueThisWeek: upcoming.filter { $0 < endOfWeek }.count)),
             buttons: [[Button(.quickQuiz, .menu(.quickQuiz)), Button(.home, .menu(.home))]])
        state.session.screen = .home
    }

    mutating func staleCard(_ callbackID: String, seq: Int) {
        if state.session.cards?.seq == seq { effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered)); return }
        stale(callbackID)
    }

    // MARK: - road-sign gallery

    mutating func showSignGroups() {
        state.session.screen = .gallery
        let groups = SignGroup.allCases.filter { g in banks.signs.contains { $0.group == g } }
        var rows = stride(from: 0, to: groups.count, by: 2).map { i in
            groups[i..<min(i + 2, groups.count)].map { Button(.signGroup($0), .signGroup($0)) }
        }
        rows.append([Button(.home, .menu(.home))])
        send(.pickSignGroup, buttons: rows)
    }

    mutating func showSign(_ group: SignGroup, _ index: Int) {
        let signs = banks.signs.filter { $0.group == group }
        guard !signs.isEmpty else { return showSignGroups() }
        let i = min(max(index, 0), signs.count - 1)
        state.session.screen = .gallery
        var nav: [Button] = []
        if i > 0 { nav.append(Button(.previous, .signAt(group, i - 1))) }
        if i + 1 < signs.count { nav.append(Button(.nextSign, .signAt(group, i + 1))) }
        var rows = nav.isEmpty ? [] : [nav]
        rows.append([Button(.quizMeOnThese, .quizSigns(group))])
        rows.append([Button(.gallery, .menu(.gallery)), Button(.home, .menu(.home))])
        send(Reply(.signCard(SignCardView(sign: signs[i], number: i + 1, total: signs.count)), buttons: rows, picture: signs[i].id))
    }

    /// "Ready to test": the last three practice tests all passed with room to spare.
    var readyToTest: Bool {
        let tests = state.results.filter(\.mode.isPracticeTest).suffix(3)
        return tests.count == 3 && tests.allSatisfy(\.passedWithMargin)
    }

    /// Questions of this state's pool the learner has answered at least once.
    func seenCount(_ code: String) -> Int {
        let ids = banks.poolIDs(for: code)
        return state.progress.keys.reduce(0) { $0 + (ids.contains($1) ? 1 : 0) }
    }

    /// The learner's estimated chance of passing their state's test now (see `Readiness`).
    /// Shown only once there is enough recent evidence: a number built mostly on the prior would
    /// tell an anxious beginner "3%" after two questions, which is neither true nor kind.
    func readiness() -> Double? {
        guard let info = stateInfo, !state.progress.isEmpty else { return nil }
        let estimate = Readiness.estimate(progress: state.progress, pool: banks.pool(for: info.code), format: info.test, now: ctx.now)
        return estimate.evidence >= Reduction.readinessEvidence ? estimate.passProbability : nil
    }

    /// Recency-weighted answers needed before the chance of passing is shown (about two quizzes' worth).
    static let readinessEvidence = 20.0
}
