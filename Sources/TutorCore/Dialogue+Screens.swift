import Foundation

/// The menus and informational screens: home, state picker, topics, progress, settings.
extension Reduction {
    // MARK: - screens

    mutating func showCurrentScreen() {
        // A friend's challenge is played before any state is picked.
        if state.session.screen == .quiz, case .challenge? = state.session.quiz?.mode { return resume() }
        if learner.stateCode == nil || stateInfo == nil {
            return state.session.screen == .typingState ? showTypeState() : showStatePicker()
        }
        switch state.session.screen {
        case .quiz where state.session.quiz != nil: resume()
        case .cards where state.session.cards != nil: showCardFront()
        case .lesson where state.session.lesson != nil: showLessonCard()
        case .typingState: showTypeState()
        case .pickingState: showStatePicker()
        case .settings: showSettings()
        case .progress: showProgress()
        case .help: show(.help, screen: .help)
        case .about: show(.about, screen: .about)
        case .gallery: showSignGroups()
        case .friends where ctx.friends != nil: showFriends()
        default: showHome()
        }
    }

    /// "whats the speed limit near a school", "how do i parallel park?": a teen asking the bot
    /// something, who was told only "I didn't catch that".
    static func readsAsAQuestion(_ text: String) -> Bool {
        let lowered = text.lowercased()
        let words = lowered.split(whereSeparator: { !$0.isLetter && $0 != "'" })
        guard words.count >= 3 else { return false }
        if lowered.contains("?") || ["or nah", "or no", "or not"].contains(where: lowered.hasSuffix) { return true }
        // "wait whats a yield sign look like", "ok so how do i merge": the opener after a lead-in,
        // in any sentence ("wait in cali it was 25 near schools. why is it 15 here").
        return lowered.split(whereSeparator: { ".!;,".contains($0) }).contains { sentence in
            let words = sentence.split(whereSeparator: { !$0.isLetter && $0 != "'" })
            let opener = words.first { !questionLeadIns.contains(String($0)) }.map(String.init) ?? ""
            return questionOpeners.contains(opener)
        }
    }

    static let questionLeadIns: Set<String> = [
        "wait", "so", "um", "uh", "ok", "okay", "hey", "yo", "sorry", "quick", "question", "also", "and", "but", "oh",
        "hmm", "bro", "lol", "like", "ummm", "umm",
    ]

    static let questionOpeners: Set<String> = [
        "what", "whats", "what's", "how", "when", "where", "why", "who", "which", "can", "does", "is", "are", "should",
        "whose", "wat", "wats", "wut", "hows", "how's", "wheres", "where's", "whos", "who's", "do", "will", "would",
        "could", "may", "im", "i'm", "if",
    ]

    mutating func show(_ message: Message, screen: Screen) {
        state.session.screen = screen
        send(message, buttons: [[Button(.home, .menu(.home))]])
    }

    mutating func showStatePicker() {
        state.session.screen = .pickingState
        state.session.proposedState = nil
        let states = Dialogue.pickerStates.compactMap(banks.state)
        var rows = stride(from: 0, to: states.count, by: 3).map { i in
            states[i..<min(i + 3, states.count)].map { Button(.state(name: $0.name), .pickState($0.code)) }
        }
        rows.append([Button(.otherState, .menu(.otherState))])
        // Changing state from Settings needs a way back that changes nothing.
        if let current = stateInfo { rows.append([Button(.keepState(name: current.name), .menu(.settings))]) }
        send(.pickState, buttons: rows)
    }

    mutating func showTypeState() {
        state.session.screen = .typingState
        send(.typeState)
    }

    /// "Oklahoma — is that right?" (Yes / Pick another).
    mutating func confirmState(_ picked: StateInfo) {
        state.session.screen = .pickingState
        state.session.proposedState = picked.code
        send(
            .confirmState(picked),
            buttons: [
                [
                    Button(.yesState(name: picked.name), .pickState(picked.code)),
                    Button(.pickAnother, .menu(.otherState)),
                ]
            ])
    }

    /// A state the learner asked for: taken at once, unless a practice test of another state is
    /// open, which the learner is asked about first.
    mutating func requestState(_ picked: StateInfo) {
        if let quiz = state.session.quiz, quiz.mode.isPracticeTest, let current = stateInfo, current.code != picked.code
        {
            state.session.screen = .quiz
            return send(
                .confirmSwitch(from: current.name, to: picked.name, test: quiz.mode),
                buttons: [
                    [
                        Button(.switchTo(name: picked.name), .switchState(picked.code)),
                        Button(.backToTest, .menu(.resume)),
                    ]
                ])
        }
        choose(picked)
    }

    /// Switches state; an open practice test is put aside for its own state, not relabelled.
    mutating func switchState(to picked: StateInfo) {
        if let quiz = state.session.quiz, quiz.mode.isPracticeTest, let current = learner.stateCode,
            current != picked.code
        {
            if quiz.deadline != nil { effects.append(.cancelTimer(key: quiz.deadlineKey)) }
            park(quiz, state: current)
            state.session.quiz = nil
        }
        choose(picked)
    }

    mutating func choose(_ picked: StateInfo) {
        state.session.proposedState = nil
        // A Daily 5 is its state's: switching ends it as it stands (counted for the old state).
        if learner.stateCode != picked.code { closeAbandonedDaily() }
        state.learner.stateCode = picked.code
        // Back in the state whose test was put aside: it is open again, its clock as it was.
        if state.session.quiz == nil, state.session.parkedState == picked.code, let parked = state.session.parkedQuiz {
            state.session.quiz = unparked(parked)
            state.session.parkedQuiz = nil
            state.session.parkedState = nil
            if let deadline = parked.deadline, deadline > ctx.now {
                effects.append(.setTimer(key: parked.deadlineKey, at: deadline))
            }
        }
        send(
            .stateCard(
                StateCardView(
                    state: picked, ownQuestions: banks.stateQuestions[picked.code]?.count ?? 0,
                    permitAgeDetail: banks.stateRules.entry("permitAge", state: picked.code)?.detail)))
        showHome()
        // The question asked before the state was known, answered for it.
        if let pending = state.session.pendingAsk {
            state.session.pendingAsk = nil
            // (Unless the answer is the state's test card, just shown.)
            if let asked = ctx.pendingAsked, asked.best?.raw != "state:\(picked.code)" { answerAsked(pending, asked) }
        }
    }

    /// A typed "im in pennsylvania": asked before switching (a tap away from staying).
    mutating func offerState(_ picked: StateInfo) {
        guard let current = stateInfo, current.code != picked.code else { return notice(.alreadyYourState) }
        send(
            .confirmSwitch(from: current.name, to: picked.name, test: nil),
            buttons: [
                [
                    Button(.yesState(name: picked.name), .pickState(picked.code)),
                    Button(.keepState(name: current.name), .menu(.home)),
                ]
            ])
    }

    /// "home" typed, or /home: a card run ends with what it earned (if anything), an open quiz
    /// waits behind Continue, and Home shows.
    mutating func leaveToHome() {
        if let run = state.session.cards {
            if run.reviewed > 0 {
                finishFlashcards(reviewed: run.reviewed, leftEarly: true)
            } else {
                state.session.cards = nil
            }
        }
        showHome()
    }

    /// Home's Daily 5 button: to play, or once played today its score (a try used part-way too).
    var dailyButtonLabel: ButtonLabel {
        guard learner.dailyDay != nil, learner.dailyDay == dailyDay, openDaily == nil else {
            return .daily(done: false)
        }
        if let played = state.session.dailyPlayed, played.day == dailyDay {
            return .dailyScore(score: played.score, total: played.total)
        }
        return .daily(done: true)
    }

    mutating func showHome() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .home
        let pool = banks.pool(for: info.code)
        let missed = QuestionPicker.reviewQuestions(state, banks: banks, limit: Int.max).count
        let lessons = lessonProgress
        var view = HomeView(
            firstName: learner.firstName, stateName: info.name,
            streak: learner.streak.current(on: today), studiedToday: learner.streak.studied(on: today),
            missedCount: missed, seenCount: seenCount(info.code),
            totalCount: pool.count, xp: learner.xp,
            answeredToday: learner.answeredDay == today ? learner.answeredToday : 0,
            streakEnded: learner.streak.current >= 2 && learner.streak.current(on: today) == 0
                ? learner.streak.current : nil,
            lessonsDone: lessons.done, lessonsTotal: lessons.total)
        view.league = leagueStanding()?.line
        view.lastWeek = lastWeekOnHome()
        if let daily = openDaily, !daily.answers.isEmpty { view.dailyWaiting = daily.answers.count }
        awardLastWeeksWinner()
        let due = state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).count
        // Every button keeps its place whatever the learner's state: Review is always there (with
        // its count), and Continue, when a quiz is open, is added at the bottom.
        var rows: [[Button]] = []
        // Learn comes first: the next lesson (or the open one); once the path is done, the topics' lists.
        if lessons.total > 0 { rows.append([learnButton ?? Button(.lessonsAllDone, .menu(.topics))]) }
        rows.append([Button(.quickQuiz, .menu(.quickQuiz)), Button(.practiceTest, .menu(.practiceTest))])
        // Only cards due now are counted: "(10 new)" on a new account read as ten cards waiting.
        rows.append([
            Button(.flashcards(due: due), .menu(.flashcards)),
            Button(.gallery, .menu(.gallery)),
        ])
        rows.append([Button(.topics, .menu(.topics)), Button(.reviewMissed(count: missed), .menu(.review))])
        rows.append([
            Button(.timedChallenge, .menu(.timedChallenge)), Button(.livesChallenge, .menu(.livesChallenge)),
            Button(dailyButtonLabel, .menu(.daily)),
        ])
        rows.append([Button(.challengeFriend, .menu(.challenge)), Button(.friends, .menu(.friends))])
        rows.append([
            Button(.progress, .menu(.progress)), Button(.settings, .menu(.settings)), Button(.help, .menu(.help)),
        ])
        // A lesson's open check goes on through the lesson button above, not a second Continue.
        if let quiz = state.session.quiz, !quiz.isLessonCheck {
            rows.append([Button(.continueQuiz(number: quiz.index + 1, total: quiz.questionIDs.count), .menu(.resume))])
        }
        send(.home(view), buttons: rows)
    }

    mutating func showTopics() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .home
        let topics = Set(banks.pool(for: learner.stateCode).map(\.category)).sorted()
        // A topic with lessons opens its list (lessons with ✅, and its quiz); one without, its quiz.
        let banks = self.banks
        let done = state.lessonsDone
        let lessons = { (t: Topic) in t == .stateSpecific ? banks.lessons(forState: info.code) : banks.lessons(for: t) }
        var rows = stride(from: 0, to: topics.count, by: 2).map { i in
            topics[i..<min(i + 2, topics.count)].map { t -> Button in
                let list = lessons(t)
                guard !list.isEmpty else { return Button(.topic(t), .pickTopic(t)) }
                return Button(
                    .topicProgress(t, done: list.filter { done[$0.id] != nil }.count, of: list.count), .topicLessons(t))
            }
        }
        rows.append([Button(.home, .menu(.home))])
        send(.pickTopic, buttons: rows)
    }

    mutating func showProgress() {
        guard let info = stateInfo else { return showStatePicker() }
        state.session.screen = .progress
        let pool = banks.pool(for: info.code)
        var view = ProgressView(
            stateName: info.name, mastery: Mastery.byTopic(state.progress, pool: pool),
            seenCount: seenCount(info.code), totalCount: pool.count,
            streak: learner.streak.current(on: today), bestStreak: learner.streak.best,
            recent: Array(stateResults.suffix(5).reversed()), readiness: readiness(),
            xp: learner.xp, badges: learner.badges.sorted(),
            cardsDue: state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).count,
            freezes: learner.streak.freezes)
        view.league = leagueStanding()
        let tests = stateResults.filter(\.mode.isPracticeTest)
        let chart =
            tests.isEmpty
            ? nil
            : ScoreChartSpec(
                points: tests.map { .init(date: $0.finishedAt, percent: $0.percent) },
                passPercent: info.test.passPercent ?? 80,
                learnerName: learner.firstName, stateName: info.name,
                timeZone: Dialogue.timeZone(of: learner, banks: banks).identifier)
        // A button to each topic never tried (it counts at a beginner's level until tried).
        let untried = view.readiness.map { $0.shown ? $0.untriedTopics.prefix(4) : [] } ?? []
        let tryRows = stride(from: 0, to: untried.count, by: 2).map { i in
            untried.dropFirst(i).prefix(2).map { Button(.topic($0), .pickTopic($0)) }
        }
        let rows =
            tryRows + [
                [Button(.quickQuiz, .menu(.quickQuiz)), Button(.practiceTest, .menu(.practiceTest))],
                [Button(.home, .menu(.home))],
            ]
        send(Reply(.progress(view), buttons: rows, chart: chart))
    }

    mutating func showSettings() {
        state.session.screen = .settings
        let zones = stateInfo?.timeZones ?? []
        let zone = Dialogue.timeZone(of: learner, banks: banks).identifier
        var view = SettingsView(
            stateName: stateInfo?.name, revealAnswersAsYouGo: learner.revealAnswersAsYouGo,
            nudgesOn: learner.nudgesOn, nudgeMinute: learner.nudgeMinute,
            paused: learner.ignoredNudges >= Nudges.pauseAfterIgnored, timeZone: zones.count > 1 ? zone : nil,
            fourButtonCards: learner.fourButtonCards)
        view.stopped = learner.stopped
        view.hideFromFriends = learner.hideFromFriends
        var rows: [[Button]] = [
            [Button(.changeState, .menu(.changeState))],
            [Button(.revealAnswers(on: !learner.revealAnswersAsYouGo), .menu(.toggleReveal))],
            [Button(.fourButtons(on: !learner.fourButtonCards), .menu(.toggleFourButtons))],
            learner.stopped
                ? [Button(.messagesBackOn, .menu(.messagesOn))]
                : [Button(.nudges(on: !learner.nudgesOn), .menu(.toggleNudges))],
        ]
        if learner.nudgesOn && !learner.stopped {
            // Two rows of three: six times in one row don't fit a phone.
            let times = Nudges.choices.map {
                Button(.nudgeTime(minute: $0, selected: $0 == learner.nudgeMinute), .setNudgeTime($0))
            }
            rows += stride(from: 0, to: times.count, by: 3).map { Array(times[$0..<min($0 + 3, times.count)]) }
        }
        if zones.count > 1 {
            // One a row: "Central time (Chicago)" beside "Mountain time (Denver)" is cut short on a phone.
            rows += zones.enumerated().map { [Button(.zone($1, selected: $1 == zone), .setZone($0))] }
        }
        rows.append([Button(.hideFromFriends(on: !learner.hideFromFriends), .menu(.toggleHideFromFriends))])
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
        if due > 0 {
            rows[0].append(Button(.flashcards(due: due), .menu(.flashcards)))
        } else if missed > 0 {
            rows[0].append(Button(.reviewMissed(count: missed), .menu(.review)))
        }
        // The reminder can point to the next lesson too.
        if let learn = learnButton { rows.append([learn]) }
        // And to today's Daily 5, if not played yet.
        let dailyWaiting = dailyDay != nil && learner.dailyDay != dailyDay
        if dailyWaiting { rows.append([Button(.daily(done: false), .menu(.daily))]) }
        send(
            Reply(
                .nudge(
                    NudgeView(
                        firstName: learner.firstName, streak: learner.streak.current(on: today), missedCount: missed,
                        cardsDue: due,
                        dailyWaiting: dailyWaiting)),
                buttons: rows, bulk: true))
    }
}
