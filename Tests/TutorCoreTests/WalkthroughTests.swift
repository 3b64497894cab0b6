import Foundation
import Testing

@testable import TutorCore

/// Transcripts of what three people met playing the first build for several simulated days
/// (a first-timer in Texas, a New Yorker who failed once, an admin). Each test failed on that build.
@Suite struct WalkthroughTests {
    static func state(
        _ code: String, _ name: String, zone: String = "America/New_York", test: TestFormat? = nil,
        confidence: Confidence = .high
    ) -> StateInfo {
        StateInfo(
            code: code, name: name, timeZones: [zone], minPermitAge: 15, handbook: "\(name) Driver Handbook",
            launch: true,
            confidence: confidence, note: nil,
            test: test
                ?? TestFormat(
                    questions: 10, passCorrect: 7,
                    sections: [TestSection(name: "Knowledge test", pool: .all, questions: 10)]))
    }

    static let ny = Sample.ny
    static let ok = state("OK", "Oklahoma", zone: "America/Chicago")
    static let hi = state("HI", "Hawaii", zone: "Pacific/Honolulu")
    static let wa = state("WA", "Washington", zone: "America/Los_Angeles")
    static let dc = state("DC", "District of Columbia")
    static let wy = state(
        "WY", "Wyoming", zone: "America/Denver",
        test: TestFormat(
            questions: 10, passCorrect: 8, timeLimitMinutes: 25,
            sections: [
                TestSection(name: "Road signs", pool: .signs, questions: 4, passCorrect: 3),
                TestSection(name: "Rules", pool: .rules, questions: 6),
            ]))
    static let il = state(
        "IL", "Illinois",
        test: TestFormat(
            questions: 35, passCorrect: 28,
            sections: [
                TestSection(name: "Road signs", pool: .signs, questions: 15),
                TestSection(name: "Rules of the road", pool: .rules, questions: 20),
            ]))

    static let xing = { () -> Question in
        var q = Question(
            id: "u-fill-1", category: .roadSigns, difficulty: .easy, kind: .fillIn,
            questionText: "On road signs, the abbreviation XING is short for the word ___.", answers: ["crossing"],
            correctAnswerIndex: 0, explanation: "XING means crossing.", source: "MUTCD 11th ed., Section 2C")
        q.acceptedAnswers = ["a crossing"]
        return q
    }()
    static let thc = Question(
        id: "u-fill-2", category: .alcoholDrugs, difficulty: .easy, kind: .fillIn,
        questionText: "The chemical in marijuana that impairs driving is ___.", answers: ["THC"],
        correctAnswerIndex: 0, explanation: "THC slows reaction time.", source: "NHTSA")
    static let tf = Question(
        id: "u-tf-1", category: .distraction, difficulty: .easy, kind: .trueFalse,
        questionText: "True or false: hands-free calls are distraction-free.", answers: ["True", "False"],
        correctAnswerIndex: 1, explanation: "Your mind is still on the call.", source: "NHTSA")
    static let yield = Question(
        id: "u-sg-1", category: .roadSigns, difficulty: .easy, questionText: "What does this sign mean?",
        answers: ["Yield", "Stop", "Merge", "Exit"], correctAnswerIndex: 0, explanation: "A triangle means yield.",
        source: "MUTCD 11th ed., Section 2B", imageAssetName: "yield")
    static let signs = [
        SignInfo(id: "yield", name: "Yield", group: .regulatory, mutcd: "R1-2", meaning: "Yield.", rule: "Triangle.")
    ]

    static let banks: Banks = {
        var universal = (1...30).map {
            Sample.question($0, [.rightOfWay, .parking, .roadSigns, .speedAndSpace][$0 % 4])
        }
        universal += [xing, thc, tf, yield]
        return Banks(
            states: [ny, ok, hi, wa, dc, wy, il], universal: universal,
            stateQuestions: [
                "NY": [
                    Question(
                        id: "ny-1", category: .stateSpecific, difficulty: .easy, questionText: "NY rule?",
                        answers: ["Yes", "No"], correctAnswerIndex: 0, explanation: "It is.", source: "NY manual",
                        stateCode: "NY")
                ]
            ],
            signs: signs)
    }()

    static let t0 = Sample.t0
    static func ctx(_ now: Date = t0, seed: UInt64 = 7) -> DialogueContext {
        DialogueContext(banks: banks, now: now, seed: seed)
    }

    func reduce(_ s: inout ChatState, _ e: Event, at now: Date = t0) -> [Effect] {
        let (next, effects) = Dialogue.reduce(s, e, Self.ctx(now))
        s = next
        return effects
    }

    func messages(_ effects: [Effect]) -> [Message] {
        effects.compactMap {
            if case .send(let r) = $0 { return r.message }
            if case .edit(_, let r) = $0 { return r.message }
            return nil
        }
    }

    func resultsView(_ effects: [Effect]) -> ResultsView? {
        for m in messages(effects) { if case .results(let v) = m { return v } }
        return nil
    }

    func started(_ code: String = "NY") -> ChatState {
        var s = Sample.newChat()
        _ = reduce(&s, .commandSent(.start, payload: code))
        return s
    }

    /// A quiz made of exactly these questions (the picker draws at random).
    func inQuiz(_ ids: [String], mode: QuizMode = .quick, from s: ChatState) -> ChatState {
        var s = s
        s.session.quiz = QuizRun(id: 9, mode: mode, questionIDs: ids, order: [], startedAt: Self.t0)
        s.session.screen = .quiz
        return s
    }

    // MARK: - Blocker: a typed question shows its own answer

    @Test func aTypedQuestionShowsNoOptionsAndALetterIsNotMarkedWrong() throws {
        var s = inQuiz(["u-fill-1"], from: started())
        let shown = reduce(&s, .buttonTapped(callbackID: "r", action: .menu(.resume), messageID: 1))
        guard case .question(let view) = messages(shown).last else {
            Issue.record("no question")
            return
        }
        #expect(view.typeIn && view.options.isEmpty, "the answer 'crossing' must not be printed as option A")
        let letter = reduce(&s, .textSent("A"))
        #expect(messages(letter) == [.notice(.typeTheAnswer)])
        #expect(s.session.quiz?.answers.isEmpty == true, "a letter is not an answer to a typed question")
        _ = reduce(&s, .textSent("crossing"))
        #expect(s.session.quiz?.answers.last?.correct == true)
    }

    // MARK: - Short words become states without asking

    @Test func shortWordsAndCodesAreConfirmedAndDCIsReachable() {
        var s = Sample.newChat()
        // A first "ok" is a greeting: the welcome, not Oklahoma.
        let first = reduce(&s, .textSent("ok"))
        #expect(s.learner.stateCode == nil)
        #expect(messages(first).first == .welcome(firstName: "Sam"))
        let ok = reduce(&s, .textSent("ok"))
        #expect(s.learner.stateCode == nil && messages(ok) == [.confirmState(Self.ok)])
        // "hi" is a greeting, not Hawaii (a play-tester was asked "Hawaii — is that right?"): the picker again.
        let hi = reduce(&s, .textSent("hi"))
        #expect(s.learner.stateCode == nil && messages(hi) == [.pickState])
        _ = reduce(&s, .textSent("washington dc"))
        #expect(s.learner.stateCode == "DC", "DC, not Washington state")
        var t = Sample.newChat()
        _ = reduce(&t, .commandSent(.start, payload: nil))
        _ = reduce(&t, .textSent("Hawaii"))
        #expect(t.learner.stateCode == "HI", "a full name needs no question")
        var u = Sample.newChat()
        _ = reduce(&u, .commandSent(.start, payload: nil))
        _ = reduce(&u, .textSent("district of columbia"))
        #expect(u.learner.stateCode == "DC")
        // After Delete my data, "thanks" is a first message again: the welcome.
        var v = started()
        _ = reduce(&v, .buttonTapped(callbackID: "d", action: .menu(.confirmDelete), messageID: 1))
        let thanks = reduce(&v, .textSent("thanks"))
        #expect(
            messages(thanks).first == .welcome(firstName: "Sam") && !messages(thanks).contains(.notice(.stateNotFound)))
    }

    // MARK: - Flashcards pile up and can't be left

    @Test func flashcardsComeFromMissesWithADailyCapAndCanBeLeft() throws {
        var s = started()
        // 30 questions in a day: 15 right make no cards; 15 misses make cards only up to the cap.
        for (i, id) in (1...30).map({ "u-t-\($0)" }).enumerated() {
            s = inQuiz([id], from: s)
            s.session.quiz?.order = [0, 1, 2, 3]
            _ = reduce(
                &s,
                .buttonTapped(callbackID: "a\(i)", action: .answer(quiz: 9, question: 0, option: i % 2), messageID: 5),
                at: Self.t0.addingTimeInterval(Double(i) * 60))
        }
        #expect(s.cards.count == Reduction.newCardsPerDay, "15 misses, 10 new cards a day; right answers make none")
        #expect(s.cards.keys.allSatisfy { s.progress[$0]?.missed == true })
        // The next day: the due cards come up, misses first, and "Done for now" ends the session.
        let tomorrow = Self.t0.addingTimeInterval(86_400)
        _ = reduce(&s, .commandSent(.cards, payload: nil), at: tomorrow)
        let run = try #require(s.session.cards)
        #expect(run.questionIDs.prefix(10).allSatisfy { s.progress[$0]?.missed == true })
        let done = reduce(&s, .buttonTapped(callbackID: "x", action: .menu(.doneForNow), messageID: 6), at: tomorrow)
        #expect(s.session.cards == nil)
        guard case .flashcardsDone(let summary) = messages(done).first else {
            Issue.record("no summary")
            return
        }
        #expect(summary.leftEarly)
        // Typed "home" leaves a card session too.
        _ = reduce(&s, .commandSent(.cards, payload: nil), at: tomorrow)
        #expect(s.session.cards != nil)
        _ = reduce(&s, .textSent("home"), at: tomorrow)
        #expect(s.session.cards == nil)
    }

    /// "Flashcards (10 new)" on a new account read as ten cards waiting (walkthrough, 2nd round):
    /// home counts only cards due now, and says plain "Flashcards" otherwise (never "(0 due)").
    @Test func homeCountsOnlyCardsDueNow() {
        var s = started()
        let home = reduce(&s, .buttonTapped(callbackID: "h", action: .menu(.home), messageID: 1))
        guard case .send(let reply) = home.last else {
            Issue.record("no home")
            return
        }
        #expect(reply.buttons.joined().contains(Button(.flashcards(due: 0), .menu(.flashcards))))
    }

    // MARK: - Reminders and /stop

    @Test func stopShowsAsStoppedInSettingsWithAWayBack() {
        var s = started()
        let stop = reduce(&s, .commandSent(.stop, payload: nil))
        #expect(s.learner.stopped && s.learner.nextNudgeAt == nil)
        guard case .send(let reply) = stop.last else {
            Issue.record("no reply")
            return
        }
        #expect(reply.buttons.joined().contains(Button(.messagesBackOn, .menu(.messagesOn))))
        let settings = reduce(&s, .commandSent(.settings, payload: nil))
        guard case .send(let screen) = settings.last, case .settings(let view) = screen.message else {
            Issue.record("no settings")
            return
        }
        #expect(view.stopped)
        #expect(
            !screen.buttons.joined().contains {
                if case .nudges = $0.label { return true }
                if case .nudgeTime = $0.label { return true }
                return false
            },
            "no 'Turn reminders off' or reminder times while everything is off")
        _ = reduce(&s, .buttonTapped(callbackID: "m", action: .menu(.messagesOn), messageID: 2))
        #expect(!s.learner.stopped && s.learner.nextNudgeAt != nil)
    }

    // MARK: - The habit loop

    @Test func sessionsEndWithWhatTheyEarnedAndAnEndedStreakIsToldKindly() throws {
        var s = started()
        for i in 0..<25 {
            s = inQuiz(["u-t-\(i % 30 + 1)"], from: s)
            s.session.quiz?.order = [0, 1, 2, 3]
            s.session.quiz?.xpAtStart = s.learner.xp
            _ = reduce(
                &s, .buttonTapped(callbackID: "a\(i)", action: .answer(quiz: 9, question: 0, option: 0), messageID: 5))
            let end = reduce(&s, .buttonTapped(callbackID: "n\(i)", action: .next(quiz: 9, question: 0), messageID: 5))
            if i == 24 {
                guard let view = resultsView(end) else {
                    Issue.record("no results")
                    return
                }
                let reward = try #require(view.reward)
                #expect(reward.xpEarned == XP.attempt + XP.correct)
                #expect(reward.answeredToday == 25 && reward.goal == 20, "all 25 counted, not capped at the goal")
                #expect(reward.streak == 1)
            }
        }
        // Three days later the streak has ended: home says so, kindly, with how freezes work.
        s.learner.streak = Streak(current: 5, best: 5, lastDay: LocalDay(iso: "2026-11-18"), freezes: 0)
        let later = reduce(&s, .commandSent(.start, payload: nil), at: Self.t0.addingTimeInterval(3 * 86_400))
        guard case .home(let home) = messages(later).last else {
            Issue.record("no home")
            return
        }
        #expect(home.streakEnded == 5)
    }

    @Test func homeOffersThreeLivesAndKeepsItsButtonsInPlace() {
        var s = started()
        let plain = reduce(&s, .buttonTapped(callbackID: "h", action: .menu(.home), messageID: 1))
        s.progress["u-t-1"] = QuestionStats(
            seen: 1, correct: 0, lastCorrect: false, lastAnsweredAt: Self.t0, missed: true)
        s = inQuiz(["u-t-2", "u-t-3"], from: s)
        let busy = reduce(&s, .buttonTapped(callbackID: "h2", action: .menu(.home), messageID: 1))
        guard case .send(let a) = plain.last, case .send(let b) = busy.last else {
            Issue.record("no home")
            return
        }
        #expect(a.buttons.joined().contains { $0.action == .menu(.livesChallenge) })
        // Every button of the plain home is at the same row and column when Review and Continue appear.
        for (r, row) in a.buttons.enumerated() {
            for (c, button) in row.enumerated() {
                #expect(b.buttons[r][c].action == button.action, "row \(r) col \(c)")
            }
        }
    }

    @Test func thinkFastReportsSpeedAndBest() throws {
        var s = started()
        var firstScore = 0
        for run in 0..<2 {
            _ = reduce(&s, .buttonTapped(callbackID: "t\(run)", action: .menu(.timedChallenge), messageID: 1))
            var quiz = try #require(s.session.quiz)
            var effects: [Effect] = []
            for i in 0..<quiz.questionIDs.count {
                quiz = try #require(s.session.quiz)
                let q = try #require(Self.banks.question(quiz.currentQuestionID))
                let at = (quiz.questionShownAt ?? Self.t0).addingTimeInterval(4)
                let option =
                    q.kind == .fillIn
                    ? nil : (run == 0 && i < 5 ? (q.correctAnswerIndex + 1) % q.answers.count : q.correctAnswerIndex)
                if let option {
                    _ = reduce(
                        &s,
                        .buttonTapped(
                            callbackID: "a\(i)", action: .answer(quiz: quiz.id, question: i, option: option),
                            messageID: 3), at: at)
                } else {
                    _ = reduce(&s, .textSent(q.answers[0]), at: at)
                }
                effects = reduce(
                    &s, .buttonTapped(callbackID: "n\(i)", action: .next(quiz: quiz.id, question: i), messageID: 3),
                    at: at)
            }
            guard let view = resultsView(effects) else {
                Issue.record("no results")
                return
            }
            let average = try #require(view.averageSeconds)
            #expect(abs(average - 4) < 0.01)
            if run == 0 {
                firstScore = view.result.correct
                #expect(view.previousBest == nil && firstScore < 10)
            }
            if run == 1 { #expect(view.previousBest == firstScore && view.result.correct == 10) }
        }
    }

    // MARK: - Typed answers a person would try

    @Test func typedAnswersAPersonWouldTryAreAccepted() throws {
        var s = inQuiz(["u-tf-1"], from: started())
        s.session.quiz?.order = [0, 1]
        _ = reduce(&s, .textSent("false"))
        #expect(s.session.quiz?.answers.last?.correct == true)
        var t = inQuiz(["u-tf-1"], from: started())
        t.session.quiz?.order = [0, 1]
        _ = reduce(&t, .textSent("T"))
        #expect(t.session.quiz?.answers.last?.correct == false, "T is True, which is wrong here")
        #expect(AnswerMatcher.matches("THC lol", Self.thc))
        #expect(AnswerMatcher.matches("its crossing", Self.xing))
        #expect(
            !AnswerMatcher.matches(
                "12 not 10",
                Question(
                    id: "u-x", category: .parking, difficulty: .easy, kind: .fillIn,
                    questionText: "___ inches", answers: ["10"], correctAnswerIndex: 0,
                    explanation: "e", source: "s")))
    }

    // MARK: - Screens

    @Test func strayTextPointsToTheQuestionAndOtherScreensStay() {
        var s = inQuiz(["u-sg-1"], from: started())
        _ = reduce(&s, .buttonTapped(callbackID: "r", action: .menu(.resume), messageID: 1))
        let stray = reduce(&s, .textSent("lol what"))
        #expect(messages(stray) == [.notice(.answerAbove)], "the question (and its picture) is not sent again")
        var t = started()
        _ = reduce(&t, .commandSent(.settings, payload: nil))
        let strayInSettings = reduce(&t, .textSent("hmm"))
        #expect(messages(strayInSettings).first == .notice(.didNotCatchThat))
        if case .settings = messages(strayInSettings).last {
        } else {
            Issue.record("Settings, not Home, after stray text in Settings")
        }
    }

}
