import Foundation
import Testing

@testable import TutorCore

/// Reducer transcripts: each step asserts the whole new state and the whole effect list.
@Suite struct DialogueTests {
    let pickerButtons: [[Button]] = [
        [Button(.state(name: "California"), .pickState("CA")), Button(.state(name: "New York"), .pickState("NY"))],
        [Button(.otherState, .menu(.otherState))],
    ]

    /// Home's buttons never move: Review is always there, Continue is added at the bottom.
    func homeButtons(missed: Int = 0, quiz: QuizRun? = nil) -> [[Button]] {
        var rows: [[Button]] = []
        rows.append([Button(.quickQuiz, .menu(.quickQuiz)), Button(.practiceTest, .menu(.practiceTest))])
        rows.append([Button(.flashcards(due: 0), .menu(.flashcards)), Button(.gallery, .menu(.gallery))])
        rows.append([Button(.topics, .menu(.topics)), Button(.reviewMissed(count: missed), .menu(.review))])
        rows.append([
            Button(.timedChallenge, .menu(.timedChallenge)), Button(.livesChallenge, .menu(.livesChallenge)),
            Button(.daily(done: false), .menu(.daily)),
        ])
        rows.append([Button(.challengeFriend, .menu(.challenge)), Button(.friends, .menu(.friends))])
        rows.append([
            Button(.progress, .menu(.progress)), Button(.settings, .menu(.settings)), Button(.help, .menu(.help)),
        ])
        if let quiz {
            rows.append([Button(.continueQuiz(number: quiz.index + 1, total: quiz.questionIDs.count), .menu(.resume))])
        }
        return rows
    }

    @Test func firstStartWelcomesWithDisclaimerThenAsksForTheState() {
        let (s, effects) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: nil), Sample.context())
        var expected = Sample.newChat()
        expected.session.screen = .pickingState
        #expect(s == expected)
        #expect(
            effects == [.send(Reply(.welcome(firstName: "Sam"))), .send(Reply(.pickState, buttons: pickerButtons))])
        // A second /start at the picker (the console opens with one) asks for the state again,
        // without the welcome a second time, and never "Welcome back".
        let (_, again) = Dialogue.reduce(s, .commandSent(.start, payload: nil), Sample.context())
        #expect(again == [.send(Reply(.pickState, buttons: pickerButtons))])
    }

    @Test func deepLinkPreselectsTheState() {
        let (s, effects) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "ny"), Sample.context())
        #expect(s.learner.stateCode == "NY")
        #expect(s.session.screen == .home)
        #expect(
            effects == [
                .send(Reply(.welcome(firstName: "Sam"))),
                .send(Reply(.stateCard(StateCardView(state: Sample.ny, ownQuestions: 1)))),
                .send(
                    Reply(
                        .home(
                            HomeView(
                                firstName: "Sam", stateName: "New York", streak: 0, studiedToday: false, missedCount: 0,
                                seenCount: 0, totalCount: 15)), buttons: homeButtons())),
            ])
    }

    @Test func typedStateNamesAreForgiving() {
        let states = [
            Sample.ny, Sample.ca,
            StateInfo(
                code: "PA", name: "Pennsylvania", timeZones: ["America/New_York"], minPermitAge: 16,
                handbook: "", launch: true, confidence: .high, note: nil,
                test: TestFormat(questions: 18, passCorrect: 15, sections: [])),
        ]
        #expect(StateMatcher.match("Pensylvania", in: states)?.code == "PA")
        #expect(StateMatcher.match("new york", in: states)?.code == "NY")
        #expect(StateMatcher.match("NY", in: states)?.code == "NY")
        #expect(StateMatcher.match("ca", in: states)?.code == "CA")
        #expect(StateMatcher.match("Califronia", in: states)?.code == "CA")
        #expect(StateMatcher.match("pizza", in: states) == nil)
        #expect(StateMatcher.match("", in: states) == nil)
        // Said in a sentence, as a teen types it at the state prompt.
        #expect(StateMatcher.match("im in new york state", in: states)?.code == "NY")
        #expect(StateMatcher.match("I live in Pensylvania", in: states)?.code == "PA")
        #expect(StateMatcher.match("i'm from california lol", in: states)?.code == "CA")
        #expect(StateMatcher.isFullName("im in new york", of: Sample.ny))
        #expect(!StateMatcher.needsConfirmation("im in new york state", for: Sample.ny))
        #expect(StateMatcher.match("im in a pizza place", in: states) == nil)
    }

    /// An answer's card is headed by the subjects of its lesson's title that it is about.
    @Test func anAnsweredCardIsHeadedByItsOwnSubject() {
        let speed = "Texas speed limits when no sign is posted: 30 mph on urban streets."
        #expect(Reduction.titleOfTheCard("Alcohol, speed and lights", cardText: speed) == "Speed")
        #expect(Reduction.titleOfTheCard("If you're in a crash", cardText: speed) == "If you're in a crash")
        let both = "Phones down, and no alcohol at all under 21."
        #expect(Reduction.titleOfTheCard("Phones, points and alcohol", cardText: both) == "Phones and alcohol")
        #expect(Reduction.titleOfTheCard("Phones and alcohol", cardText: "Buckle up.") == "Phones and alcohol")
        // One subject put two ways is not split: play-testers saw cards headed "3" and "Provisional".
        let level3 = "At Level 3 you have a full provisional license."
        #expect(Reduction.titleOfTheCard("Levels 2 and 3", cardText: level3) == "Levels 2 and 3")
        let provisional = "With a provisional license, one passenger under 20."
        #expect(
            Reduction.titleOfTheCard("Provisional and full license", cardText: provisional)
                == "Provisional and full license")
    }

    /// A state's rules asked together lead with the one the question names ("passenger limit" got
    /// the night limit first).
    @Test func aStatesRulesLeadWithTheOneAsked() {
        let night = StateRule(
            id: "newDriverNightLimit", kind: .hours, title: "Night limit (curfew) for new teen drivers",
            says: "a new teen driver may not drive without a licensed adult from {value}.")
        let passengers = StateRule(
            id: "newDriverPassengerLimit", kind: .number, title: "Passenger limit for new teen drivers",
            says: "a new teen driver may carry at most {value} passengers who are not family.")
        let ids = { (q: String?) in Reduction.askedFirst([night, passengers], question: q).map(\.id) }
        #expect(ids("how many friends can ride with me") == ["newDriverPassengerLimit", "newDriverNightLimit"])
        #expect(ids("whats the curfew") == ["newDriverNightLimit", "newDriverPassengerLimit"])
        #expect(ids(nil) == ["newDriverNightLimit", "newDriverPassengerLimit"])
    }

    /// Start → NY → quick quiz → typed answer → Next: the state after each step, whole.
    @Test func quizTranscript() throws {
        var (s, _) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "NY"), Sample.context())
        var effects: [Effect]
        (s, effects) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c1", action: .menu(.quickQuiz), messageID: 10), Sample.context(seed: 1))
        let quiz = try #require(s.session.quiz)
        #expect(quiz.id == 1 && quiz.index == 0 && quiz.phase == .asking && quiz.questionIDs.count == 10)
        #expect(Set(quiz.questionIDs).count == 10, "no question twice in one quiz")
        #expect(s.session.nextQuizID == 2)
        let q = try #require(Sample.banks.question(quiz.questionIDs[0]))
        let options = zip(["A", "B", "C", "D"], quiz.order).map { AnswerOption(letter: $0, text: q.answers[$1]) }
        let view = QuestionView(
            number: 1, total: 10, mode: .quick, topic: q.category, text: q.questionText, options: options)
        let letters = zip(["A", "B", "C", "D"], quiz.order).map {
            Button(.letter($0), .answer(quiz: 1, question: 0, option: $1))
        }
        #expect(
            effects == [
                .answerButton(callbackID: "c1", toast: nil),
                .send(Reply(.question(view), buttons: [letters], tag: "q1.0")),
            ])

        // Typing the letter of the right answer, wherever the shuffle put it.
        let rightLetter = ["a", "b", "c", "d"][quiz.order.firstIndex(of: q.correctAnswerIndex)!]
        let before = s
        (s, effects) = Dialogue.reduce(s, .textSent(rightLetter), Sample.context(Sample.t0.addingTimeInterval(30)))
        var expected = before
        expected.learner.lastActiveAt = Sample.t0.addingTimeInterval(30)
        expected.learner.streak = Streak(current: 1, best: 1, lastDay: LocalDay(iso: "2026-11-18"))
        // Studied today, so the next reminder moves to tomorrow 4 pm Eastern (21:00 UTC).
        #expect(before.learner.nextNudgeAt == Date(timeIntervalSince1970: 1_795_122_000 - 86_400))
        expected.learner.nextNudgeAt = Date(timeIntervalSince1970: 1_795_122_000)
        var stats = QuestionStats(lastAnsweredAt: Sample.t0.addingTimeInterval(30))
        stats.record(
            correct: true, at: Sample.t0.addingTimeInterval(30), question: q, unstudied: Knowledge.newcomerKnown(q))
        #expect(
            stats.seen == 1 && stats.correct == 1 && stats.lastCorrect && !stats.missed && stats.firstCorrect == true)
        expected.progress[q.id] = stats
        // XP: 2 for answering, 10 for a right answer, 20 for the first answer of the day.
        expected.learner.xp = 32
        // … and toward this week's friends' league (the week starting Monday 2026-11-16, US Eastern).
        expected.learner.weekXP = 32
        expected.learner.xpWeek = LocalDay(iso: "2026-11-16")
        expected.learner.answeredToday = 1
        expected.learner.answeredDay = LocalDay(iso: "2026-11-18")
        // A right answer makes no flashcard: only misses become cards (the pile must not grow by every answer).
        #expect(s.cards.isEmpty)
        expected.session.quiz?.phase = .answered
        expected.session.quiz?.answers = [
            GivenAnswer(questionID: q.id, topic: q.category, chosen: q.correctAnswerIndex, correct: true)
        ]
        // The time spent answering, for the results' "⏱" (#43 item 5: not the days a test is left).
        expected.session.quiz?.activeSeconds = 30
        expected.session.quiz?.lastAnswerAt = Sample.t0.addingTimeInterval(30)
        #expect(s == expected)
        #expect(effects.count == 2)
        #expect(
            effects[0]
                == .recordAnswer(
                    AnswerRecord(
                        questionID: q.id, correct: true, quizID: 1, answeredAt: Sample.t0.addingTimeInterval(30),
                        localDay: LocalDay(iso: "2026-11-18")!)))
        guard case .edit(.tag("q1.0"), let reply) = effects[1], case .answered(let answered) = reply.message else {
            Issue.record("expected the question message to be edited")
            return
        }
        #expect(answered.isCorrect && answered.explanation == q.explanation && answered.source == q.source)
        #expect(reply.buttons == [[Button(.next, .next(quiz: 1, question: 0))]])

        // A double tap on an answer of the same question changes nothing.
        let (same, doubleTap) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c2", action: .answer(quiz: 1, question: 0, option: 1), messageID: 11),
            Sample.context(Sample.t0.addingTimeInterval(30)))
        #expect(same == s)
        #expect(doubleTap == [.answerButton(callbackID: "c2", toast: .alreadyAnswered)])
    }

    @Test func staleAndForgedButtonsAnswerKindlyAndShowTheCurrentScreen() {
        let (home, _) = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "NY"), Sample.context())
        let homeReply = Effect.send(
            Reply(
                .home(
                    HomeView(
                        firstName: "Sam", stateName: "New York", streak: 0, studiedToday: false, missedCount: 0,
                        seenCount: 0, totalCount: 15)), buttons: homeButtons()))
        let (s1, e1) = Dialogue.reduce(
            home, .buttonTapped(callbackID: "x", action: .answer(quiz: 42, question: 3, option: 1), messageID: 5),
            Sample.context())
        #expect(s1 == home)
        #expect(e1 == [.answerButton(callbackID: "x", toast: .staleButton), homeReply])
        let (s2, e2) = Dialogue.reduce(
            home, .buttonTapped(callbackID: "y", action: ButtonAction(callbackData: "1a:1:x:0"), messageID: 5),
            Sample.context())
        #expect(s2 == home)
        #expect(e2 == [.answerButton(callbackID: "y", toast: .garbledButton), homeReply])
        let (s3, e3) = Dialogue.reduce(home, .unsupportedContentSent(kind: "sticker"), Sample.context())
        #expect(s3 == home)
        #expect(e3 == [.send(Reply(.notice(.unsupportedContent))), homeReply])
    }

    @Test func callbackDataRoundTripsAndRejectsForgeries() {
        let actions: [ButtonAction] = [
            .answer(quiz: 123_456, question: 45, option: 3), .next(quiz: 1, question: 0), .menu(.review),
            .pickState("NY"), .pickTopic(.alcoholDrugs),
        ]
        for a in actions {
            #expect(ButtonAction(callbackData: a.callbackData) == a)
            #expect(a.callbackData.utf8.count <= 64)
        }
        for forged in [
            "", "1", "1a:1:2", "1a:-1:0:0", "2a:1:0:0", "1m:zz", "1s:ny", "1t:nope", String(repeating: "1", count: 65),
            "1a:9999999999:0:0",
        ] {
            #expect(ButtonAction(callbackData: forged) == nil, "\(forged)")
        }
    }

    @Test func reviewOnlyHoldsMissesStillInTheBank() {
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        s.progress["u-t-3"] = QuestionStats(
            seen: 1, correct: 0, lastCorrect: false, lastAnsweredAt: Sample.t0, missed: true)
        s.progress["u-gone"] = QuestionStats(
            seen: 1, correct: 0, lastCorrect: false, lastAnsweredAt: Sample.t0, missed: true)
        s.progress["u-t-4"] = QuestionStats(
            seen: 2, correct: 1, lastCorrect: true, lastAnsweredAt: Sample.t0, missed: false)
        #expect(QuestionPicker.reviewQuestions(s, banks: Sample.banks).map(\.id) == ["u-t-3"])
    }

    @Test func gettingStartedDrawsEasyQuestionsFirst() {
        let pool = (1...30).map { Sample.question($0, difficulty: $0 <= 12 ? .easy : .hard) }
        var random = SeededRandom(seed: 3)
        let picked = QuestionPicker.pick(10, from: pool, progress: [:], random: &random)
        #expect(picked.allSatisfy { $0.difficulty == .easy })
    }
}

@Suite struct StreakTests {
    let la = TimeZone(identifier: "America/Los_Angeles")!

    @Test func localDayFollowsTheLearnersZoneAcrossDST() {
        // 2026-03-08 is the spring-forward day in the US; 07:30 UTC is 23:30 PST on the 7th.
        let beforeMidnight = Date(timeIntervalSince1970: 1_772_955_000)
        #expect(LocalDay(beforeMidnight, in: la).description == "2026-03-07")
        #expect(LocalDay(beforeMidnight, in: TimeZone(identifier: "America/New_York")!).description == "2026-03-08")
        // 24 hours later the clocks have sprung forward: it is 00:30 PDT on the 9th, not 23:30 on the 8th.
        #expect(LocalDay(beforeMidnight.addingTimeInterval(24 * 3600), in: la).description == "2026-03-09")
        #expect(LocalDay(beforeMidnight.addingTimeInterval(23 * 3600), in: la).description == "2026-03-08")
    }

    @Test func consecutiveDaysCountAndAGapResets() {
        var s = Streak()
        let d = LocalDay(iso: "2026-11-01")!
        s.record(d)
        s.record(d)
        s.record(d.adding(days: 1))
        s.record(d.adding(days: 2))
        #expect(s == Streak(current: 3, best: 3, lastDay: d.adding(days: 2)))
        #expect(s.current(on: d.adding(days: 3)) == 3, "still alive the next day")
        #expect(s.current(on: d.adding(days: 4)) == 0)
        s.record(d.adding(days: 5))
        #expect(s == Streak(current: 1, best: 3, lastDay: d.adding(days: 5)))
        s.record(d.adding(days: 1))  // a clock that jumped back does not rewrite history
        #expect(s.current == 1 && s.lastDay == d.adding(days: 5))
    }

    @Test func ordinalRoundTrips() {
        for iso in ["1970-01-01", "2000-02-29", "2026-12-31", "2100-03-01"] {
            #expect(LocalDay(iso: iso)?.description == iso)
        }
    }
}
