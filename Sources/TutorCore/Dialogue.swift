import Foundation

/// The dialogue of one chat as a pure function: `(state, event) → (new state, effects)`.
public enum Dialogue {
    /// States offered as buttons on the picker (the launch states); any other is typed.
    public static let pickerStates = ["CA", "TX", "FL", "NY", "PA", "IL", "OH", "NC", "MI", "GA", "NJ", "VA", "MA"]
    /// Longer typed text is not an answer to anything we ask, nor a question: a worried teen's
    /// question told as a story runs to 300-400 characters (200 turned those away).
    public static let maxUsefulTextLength = 500

    public static func reduce(_ state: ChatState, _ event: Event, _ context: DialogueContext) -> (ChatState, [Effect]) {
        var r = Reduction(state: state, ctx: context)
        r.state.session = state.session.repaired()  // no stored position may index past an end
        // The name the learner goes by now (they may have changed it in Telegram).
        if let name = context.senderFirstName { r.state.learner.firstName = name }
        r.handle(event)
        if let level = r.levelReached {
            if let quiz = r.state.session.quiz, quiz.hidesAnswers {
                r.state.session.quiz?.heldLevelUp = max(level, quiz.heldLevelUp ?? 0)
            } else {
                r.send(.levelUp(level: level))
            }
        }
        if !r.effects.contains(.eraseLearner) {
            r.state.learner.nextNudgeAt = Nudges.next(
                for: r.state.learner, now: context.now,
                timeZone: timeZone(of: r.state.learner, banks: context.banks))
        }
        return (r.state, r.effects)
    }

    /// A fresh chat, before its first event.
    public static func newChat(chatID: Int64, sender: Sender, isGroup: Bool, now: Date) -> ChatState {
        ChatState(
            learner: Learner(
                chatID: chatID, userID: sender.userID, firstName: sender.firstName,
                languageCode: sender.languageCode, isGroup: isGroup, joinedAt: now))
    }

    /// The learner's time zone: their own choice, else their state's main zone, else Eastern.
    public static func timeZone(of learner: Learner, banks: Banks) -> TimeZone {
        let id =
            learner.timeZone ?? learner.stateCode.flatMap { banks.state($0)?.primaryTimeZone } ?? "America/New_York"
        return TimeZone(identifier: id) ?? TimeZone(identifier: "America/New_York")!
    }
}

/// One reduction in progress: the state being changed and the effects collected so far.
struct Reduction {
    var state: ChatState
    let ctx: DialogueContext
    var random: SeededRandom
    var effects: [Effect] = []
    /// A level reached during this event, announced once its replies are out.
    var levelReached: Int?

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
        case .botBlocked:
            state.learner.blocked = true
            return
        case .botUnblocked:
            state.learner.blocked = false
            return
        case .timerFired(let key): return timerFired(key)
        case .nudgeDue: return nudgeDue()
        default: break
        }
        state.learner.blocked = false
        state.learner.lastActiveAt = ctx.now
        state.learner.ignoredNudges = 0  // they came back: reminders resume
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
        case .home: leaveToHome()
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
            state.session.cards = nil
            state.session.screen = .stopped
            send(
                .notice(.stopped),
                buttons: [[Button(.messagesBackOn, .menu(.messagesOn))], [Button(.home, .menu(.home))]])
        case .test: showTestPicker()
        case .cards: startFlashcards()
        case .signs: showSignGroups()
        }
    }

    mutating func start(payload: String?) {
        if Challenge.looksLikeChallenge(payload) { return openChallenge(payload: payload) }
        let firstTime = state.session.screen == .new
        if learner.stopped {
            state.learner.stopped = false
            if !firstTime { send(.notice(.resumed)) }
        }
        // A second /start at the state picker (the console opens with one; Telegram's START
        // button tapped twice) asks for the state again, without the whole welcome a second time.
        if !firstTime, payload == nil, learner.stateCode == nil,
            [.pickingState, .typingState].contains(state.session.screen)
        {
            return showStatePicker()
        }
        // Greeted as new until past the state picker ("Welcome back" to a second /start read oddly).
        send(
            firstTime || learner.stateCode == nil
                ? .welcome(firstName: learner.firstName) : .welcomeBack(firstName: learner.firstName))
        // /start leaves any session: a card run ends; an open quiz waits behind Continue on home.
        state.session.cards = nil
        if let payload, let picked = StateMatcher.match(payload, in: banks.states) {
            requestState(picked)
        } else if learner.stateCode == nil || stateInfo == nil {
            showStatePicker()
        } else {
            showHome()
        }
    }

    mutating func handleText(_ raw: String) {
        let text = String(trimmed(raw))  // the same set as .whitespacesAndNewlines, without NSString
        guard text.count <= Dialogue.maxUsefulTextLength else { return notice(.tooLong) }
        guard !text.isEmpty else { return notice(.didNotCatchThat) }

        // A first message ("hi", "ok", "thanks" after a deletion) gets the welcome, never a state by accident.
        if state.session.screen == .new {
            start(payload: nil)
            if let picked = StateMatcher.match(text, in: banks.states), StateMatcher.isFullName(text, of: picked) {
                choose(picked)
            }
            return
        }
        // Someone with no state yet is asked for one, except mid-quiz: a friend's challenge is
        // played before picking a state, and "D" or "hi" there is an answer or a stray word,
        // never Delaware or Hawaii.
        if [.pickingState, .typingState].contains(state.session.screen)
            || (learner.stateCode == nil && state.session.screen != .quiz)
        {
            // "ya" under "New York — is that right?" takes it ("I couldn't find that state" did).
            if state.session.screen == .pickingState, let code = state.session.proposedState,
                let proposed = banks.state(code)
            {
                let typed = Self.plainWords(text)
                if Self.matches(typed, Self.yesWords) { return requestState(proposed) }
                if Self.matches(typed, Self.noWords) { return showTypeState() }
            }
            if Reduction.homeWords.contains(text.lowercased()) { return showStatePicker() }  // "hi" is no Hawaii
            if let picked = StateMatcher.match(text, in: banks.states) {
                return StateMatcher.needsConfirmation(text, for: picked) ? confirmState(picked) : requestState(picked)
            }
            // "wait no im in new jersey not pennsylvania".
            if let stated = StateMatcher.statedState(text, in: banks.states) { return requestState(stated) }
            // A question before any state: one naming a state ("how old for a permit in pa", under
            // "Pennsylvania — is that right?") takes that state and is answered; any other is
            // answered once the state is picked.
            if learner.stateCode == nil, let asked = asksTheTutor(text), !asked.offTopic {
                // (Under "Pennsylvania — is that right?" the edge looked the text up for Pennsylvania.)
                let proposed = state.session.proposedState.flatMap { code in
                    Self.plainWords(text).split(separator: " ").contains(Substring(code.lowercased())) ? code : nil
                }
                if asked.best != nil, let code = proposed ?? asked.stateCode, let named = banks.state(code) {
                    requestState(named)
                    // (Unless the answer is the state's test card, just shown.)
                    return asked.best?.raw == "state:\(code)" ? () : answerAsked(text, asked)
                }
                state.session.pendingAsk = text
                send(.notice(.askAfterTheState))
                return showStatePicker()
            }
            send(.notice(.stateNotFound))
            return showTypeState()
        }
        // Words that leave whatever is going on: a card run ends, an open quiz waits behind Continue.
        if leaves(text) { return leaveToHome() }
        // "im in pennsylvania", "change my state to florida": asked before switching.
        if state.session.screen != .quiz, let picked = StateMatcher.statedState(text, in: banks.states) {
            return offerState(picked)
        }
        // A reminder time typed on the settings screen ("4pm", "7:30").
        if state.session.screen == .settings, learner.nudgesOn, !learner.stopped, let minute = Nudges.parseTime(text) {
            guard Nudges.isAllowed(minute) else {
                send(.notice(.reminderQuietHours))
                return showSettings()
            }
            state.learner.nudgeMinute = minute
            return showSettings()
        }
        if let quiz = state.session.quiz, state.session.screen == .quiz, let q = banks.question(quiz.currentQuestionID)
        {
            // "progress" is never an answer: Progress, with the quiz waiting behind Continue (as "home").
            if Self.matches(Self.plainWords(text), Self.progressWords) { return go(.progress) }
            // "what does that mean", "i dont get it": about this question, not off-topic chat.
            if !quiz.mode.isPracticeTest, Self.asksAboutThisQuestion(Self.plainWords(text)) {
                return quiz.phase == .answered ? explainCurrentQuestion(q) : send(.notice(.explainAfterAnswer))
            }
            switch quiz.phase {
            case .asking where q.kind == .fillIn:
                return typedAtFillIn(text, quiz)
            case .asking:
                if let shown = Reduction.typedOption(text) ?? Reduction.optionInWords(text), shown < quiz.order.count {
                    return answer(original: quiz.order[shown], target: .tag(quiz.questionTag))
                }
                if q.kind == .trueFalse, let value = Reduction.typedTruth(text) {
                    return answer(original: value ? 0 : 1, target: .tag(quiz.questionTag))
                }
                // The option's own words ("diamond", or "3 feet" for "At least 3 feet"), as a person might type them.
                if let option = Reduction.optionTyped(text, q) {
                    return answer(original: option, target: .tag(quiz.questionTag))
                }
                // "idk": show the answer (it counts as a miss, so it comes back in review).
                if Reduction.dontKnow.contains(text.lowercased()) {
                    return answer(original: -1, target: .tag(quiz.questionTag))
                }
                // A real question typed mid-quiz is answered, then the open one shown again; in a
                // practice test it waits (the real test has no one to ask either).
                if let asked = asksTheTutorMidQuiz(text) { return answerMidQuiz(text, asked, quiz) }
                // The question is just above: point to it rather than send it (and its picture) again.
                send(.notice(.answerAbove))
                return
            case .answered:
                let typed = Self.plainWords(text)
                if Self.matches(typed, Self.nextWords) || typed == "n" { return advance() }
                if Reduction.typedOption(text) != nil && text.count <= 2 { return backToTheQuiz(.tapNextFirst) }
            }
        }
        if typedForScreen(text) { return }
        if let asked = asksTheTutor(text) {
            if state.session.screen == .quiz, state.session.quiz?.mode.isPracticeTest == true {
                return notice(.askAfterTheTest)
            }
            answerAsked(text, asked)
            // Mid-quiz (its question answered, Next waiting): Next below the answer.
            if state.session.screen == .quiz { backToTheQuiz() }
            return
        }
        notice(Reduction.readsAsAQuestion(text) ? .askedAQuestion : .didNotCatchThat)
    }

    /// "true", "T", "yes" → true; "false", "f", "no" → false (a true/false question's answers are True, False).
    static func typedTruth(_ text: String) -> Bool? {
        switch text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".!")) {
        case "true", "t", "yes", "y", "right", "correct": return true
        case "false", "f", "no", "wrong", "incorrect": return false
        default: return nil
        }
    }

    /// "A", "b)", "2", "c." → the shown option's position (0-based).
    /// An option's letter said in a few words ("wait is it b", "i think c", "its d lol"): only
    /// filler around one letter, so a real question ("is it a stop sign?") is never taken for one.
    static func optionInWords(_ text: String) -> Int? {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
        guard words.count >= 2, words.count <= 6 else { return nil }
        let letters = words.filter { $0.count == 1 && "abcd".contains($0) }
        guard letters.count == 1, words.allSatisfy({ $0.count == 1 || optionFiller.contains($0) }),
            let letter = letters.first
        else { return nil }
        return typedOption(letter)
    }

    static let optionFiller: Set<String> = [
        "wait", "is", "it", "its", "it's", "i", "think", "maybe", "answer", "the", "ok", "so", "um", "hmm", "guess",
        "prob", "probably", "gotta", "be", "going", "with", "go", "pick", "lol", "idk", "then", "letter", "option",
    ]

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
            if let last = state.results.last?.mode, last.isPracticeTest {
                showTestPicker()
            } else {
                startQuiz(state.results.last?.mode ?? .quick)
            }
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
        case .learn: learn()
        case .testOut: testOut()
        case .challenge: startChallenge()
        case .challengeBack: startChallenge(back: true)
        case .friends: showFriends()
        case .daily: startDaily()
        case .toggleHideFromFriends: toggleHideFromFriends()
        case .leaveDaily: leaveDailyForPendingQuiz()
        case .doneForNow:
            guard let run = state.session.cards else { return showHome() }
            finishFlashcards(reviewed: run.reviewed, leftEarly: run.index < run.questionIDs.count)
        case .messagesOn:
            if learner.stopped {
                state.learner.stopped = false
                send(.notice(.resumed))
            }
            showSettings()
        case .gallery: showSignGroups()
        case .livesChallenge: startQuiz(.livesChallenge)
        case .toggleNudges:
            state.learner.nudgesOn.toggle()
            showSettings()
        case .deleteData:
            state.session.screen = .settings
            send(
                .confirmDelete,
                buttons: [[Button(.confirmDelete, .menu(.confirmDelete))], [Button(.keepData, .menu(.settings))]])
        case .confirmDelete:
            effects.append(.eraseLearner)
            state = Dialogue.newChat(
                chatID: learner.chatID, sender: Sender(userID: learner.userID, firstName: learner.firstName),
                isGroup: false, now: ctx.now)
            send(.dataDeleted)
        }
    }

    /// A friendly line, then the screen the learner was on, so they always know where they are.
    mutating func notice(_ n: Notice) {
        send(.notice(n))
        showCurrentScreen()
    }
}
