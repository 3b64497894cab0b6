import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Issue #43, items 8-11: what teens typed instead of tapping, screen by screen, and got
/// "Hmm, I didn't catch that" for. Each screen now takes the words for its buttons.
@Suite struct CasualTypingTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty)
        self.banks = try #require(banks)
    }

    func texan(_ name: String = "Maya", chatID: Int64 = 43) -> TestChat {
        let chat = TestChat(banks: banks, chatID: chatID, name: name)
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        return chat
    }

    /// A skeptical re-taker asking how the number works is shown Help's explanation; "my pass
    /// chance" opens Progress.
    @Test func askingHowThePassChanceWorksOpensHelp() throws {
        let chat = texan()
        _ = chat.reduce(.textSent("how do you calculate my pass chance"))
        #expect(chat.state.session.screen == .help)
        _ = chat.reduce(.textSent("why should i trust that number"))
        #expect(chat.state.session.screen == .help)
        _ = chat.reduce(.textSent("whats my pass chance"))
        #expect(chat.state.session.screen == .progress)
    }

    static func notices(_ effects: [Effect]) -> [Notice] {
        effects.compactMap {
            if case .send(let r) = $0, case .notice(let n) = r.message { return n }
            return nil
        }
    }

    /// Item 8: "next", "ok", "k", "continue" and a near-typo turn a lesson card, as Next does.
    @Test func aLessonCardTurnsOnNextOkKAndTypos() throws {
        let chat = texan()
        _ = chat.tap(.menu(.learn))
        #expect(chat.state.session.screen == .lesson)
        for (n, word) in ["next", "ok", "k", "nxt"].enumerated() {
            let effects = chat.reduce(.textSent(word))
            #expect(chat.state.session.lesson?.card == n + 1, "\(word)")
            #expect(!Self.notices(effects).contains(.didNotCatchThat), "\(word)")
        }
    }

    /// Item 8: home takes "quiz", "quizz", "test", "signs", "hi" and "menu".
    @Test func homeTakesTheWordsForItsButtons() throws {
        let quiz = texan()
        _ = quiz.reduce(.textSent("quizz"))
        #expect(quiz.state.session.screen == .quiz && quiz.state.session.quiz?.mode == .quick)

        let test = texan(chatID: 44)
        let effects = test.reduce(.textSent("test"))
        #expect(
            effects.contains {
                if case .send(let r) = $0, case .pickTest = r.message { return true }
                return false
            })

        let signs = texan(chatID: 45)
        _ = signs.reduce(.textSent("Signs!"))
        #expect(signs.state.session.screen == .gallery)

        for word in ["hi", "menu"] {
            let chat = texan(chatID: 46)
            let effects = chat.reduce(.textSent(word))
            #expect(chat.state.session.screen == .home, "\(word)")
            #expect(Self.notices(effects).isEmpty, "\(word)")
        }
    }

    /// Item 9: in the sign gallery a stray word keeps the sign on screen, "next" and "back" move.
    @Test func theGalleryStaysOnTheSignAndNextBackMove() throws {
        let chat = texan()
        let group = try #require(SignGroup.allCases.first { g in banks.signs.filter { $0.group == g }.count > 2 })
        _ = chat.tap(.signAt(group, 1))
        let effects = chat.reduce(.textSent("lol"))
        #expect(chat.state.session.screen == .gallery)
        #expect(chat.state.session.gallerySign == GallerySpot(group: group, index: 1))
        #expect(
            effects.contains {
                if case .send(let r) = $0, case .signCard = r.message { return true }
                return false
            },
            "the sign is shown again, not the group picker")
        _ = chat.reduce(.textSent("next"))
        #expect(chat.state.session.gallerySign?.index == 2)
        _ = chat.reduce(.textSent("back"))
        _ = chat.reduce(.textSent("back"))
        #expect(chat.state.session.gallerySign?.index == 0)
    }

    /// Item 8: typing the answer on a flashcard turns it over (its answer and the ratings show).
    @Test func typingOnAFlashcardTurnsItOver() throws {
        let chat = texan()
        // A quick quiz answered wrong puts its questions among the cards.
        chat.missAQuickQuiz()
        _ = chat.tap(.menu(.flashcards))
        let run = try #require(chat.state.session.cards, "a card run started")
        #expect(!run.showingAnswer)
        let effects = chat.reduce(.textSent("diamond"))
        #expect(chat.state.session.cards?.showingAnswer == true)
        #expect(
            effects.contains {
                if case .edit(.tag(run.tag), _) = $0 { return true }
                return false
            })
        _ = chat.reduce(.textSent("knew it"))
        #expect(chat.state.session.cards?.index == 1 || chat.state.session.cards == nil)
    }

    /// Item 11: an option letter typed under an explanation says to tap Next first (it was refused
    /// with "didn't catch that").
    @Test func aLetterUnderAnExplanationSaysTapNextFirst() throws {
        let chat = texan()
        _ = chat.tap(.menu(.quickQuiz))
        let quiz = try #require(chat.state.session.quiz)
        _ = chat.tap(.answer(quiz: quiz.id, question: 0, option: 0))
        let effects = chat.reduce(.textSent("A"))
        #expect(Self.notices(effects) == [.tapNextFirst])
        // One line with Next under it, not the question and its explanation again (a play-tester
        // got the whole screen after every letter).
        let sent = effects.compactMap { effect -> Reply? in if case .send(let r) = effect { r } else { nil } }
        #expect(sent.count == 1 && sent.first?.buttons.joined().contains { $0.label == .next } == true, "\(sent)")
        #expect(chat.state.session.quiz?.index == 0, "nothing answered behind the learner's back")
        // "k" (and "okay", "nxt") under the explanation goes on, as "next" and "ok" do.
        _ = chat.reduce(.textSent("k"))
        #expect(chat.state.session.quiz?.index == 1, "a play-tester's 'k' got 'didn't catch that'")
    }

    /// Item 10: on a typed-answer question "idk" is a friendly skip, as on multiple choice, and a
    /// number is taken as the typed answer.
    @Test func idkOnATypedAnswerQuestionIsASkip() throws {
        let chat = texan()
        _ = chat.tap(.menu(.quickQuiz))
        var quiz = try #require(chat.state.session.quiz)
        let fillIn = try #require(banks.pool(for: "TX").first { $0.kind == .fillIn })
        quiz.questionIDs[quiz.index] = fillIn.id
        chat.state.session.quiz = quiz
        let effects = chat.reduce(.textSent("idk"))
        let answered = effects.compactMap { e -> AnsweredView? in
            if case .edit(_, let r) = e, case .answered(let v) = r.message { return v }
            if case .send(let r) = e, case .answered(let v) = r.message { return v }
            return nil
        }.first
        #expect(answered?.skipped == true && answered?.typed == nil, "a skip, not 'You typed: idk'")
        #expect(chat.state.session.quiz?.phase == .answered)
    }
}

/// Issue #43, item 7: Think Fast tapped mid-Daily 5 ended the Daily 5 at once, its one try spent.
@Suite struct LeaveTheDailyTests {
    @Test func anotherQuizAsksBeforeEndingTheDaily5() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let chat = TestChat(banks: try #require(loaded), chatID: 47, name: "Riley")
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        _ = chat.tap(.menu(.daily))
        let daily = try #require(chat.state.session.quiz)
        #expect(daily.mode.isDaily)
        _ = chat.tap(.answer(quiz: daily.id, question: 0, option: 0))
        let asked = chat.tap(.menu(.timedChallenge))
        #expect(CasualTypingTests.notices(asked) == [.leaveDailyFirst])
        #expect(chat.state.session.quiz?.id == daily.id, "the Daily 5 is still open")
        // Keep playing: the same Daily 5, where it was.
        _ = chat.tap(.menu(.resume))
        #expect(chat.state.session.quiz?.id == daily.id)
        // Asked again and left: the quiz asked for starts.
        _ = chat.tap(.menu(.timedChallenge))
        _ = chat.tap(.menu(.leaveDaily))
        #expect(chat.state.session.quiz?.mode == .timedChallenge)
        #expect(chat.state.session.pendingQuiz == nil)
    }
}

/// Issue #43, item 5: a Think Fast question that timed out with no tap (on a restart) counted as
/// studying ("🔥 2-day streak … you've already studied today").
@Suite struct TimerAloneIsNoStudyTests {
    @Test func aTimeoutWithNoTapIsNoStudyDay() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let chat = TestChat(banks: try #require(loaded), chatID: 48, name: "Jo")
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        _ = chat.tap(.menu(.timedChallenge))
        let quiz = try #require(chat.state.session.quiz)
        let xp = chat.state.learner.xp
        _ = chat.reduce(.timerFired(key: quiz.timerKey))
        #expect(chat.state.session.quiz?.answers.count == 1, "the question counts as missed")
        #expect(chat.state.learner.answeredToday == 0 && chat.state.learner.xp == xp, "but no study, no XP")
        #expect(chat.state.learner.streak.best == 0)
        // A tap, then a timeout: that run is study.
        _ = chat.tap(.next(quiz: quiz.id, question: 0))
        _ = chat.tap(.answer(quiz: quiz.id, question: 1, option: 0))
        #expect(chat.state.learner.streak.best == 1)
    }
}

/// What a Colorado play-tester typed after the first fixes (issue #43): each got "didn't catch that",
/// the wrong screen, or the wrong answer.
@Suite struct PlayTestTypingTests {
    let banks: Banks

    init() throws {
        let (banks, _) = try BankFiles.load("\(repoRoot)/Banks")
        self.banks = try #require(banks)
    }

    @Test func hiAtTheStatePickerIsAGreetingNotHawaii() {
        let chat = TestChat(banks: banks, chatID: 60, name: "Sam")
        _ = chat.reduce(.commandSent(.start, payload: nil))
        let effects = chat.reduce(.textSent("hi"))
        #expect(
            !effects.contains {
                if case .send(let r) = $0, case .confirmState = r.message { return true }
                return false
            })
        #expect(chat.state.learner.stateCode == nil && chat.state.session.screen == .pickingState)
    }

    @Test func progressPhrasesOpenProgress() {
        for phrase in ["whats my chance of passing", "how am i doing", "am i gonna pass"] {
            let chat = TestChat(banks: banks, chatID: 61, name: "Sam")
            _ = chat.reduce(.commandSent(.start, payload: "CO"))
            _ = chat.reduce(.textSent(phrase))
            #expect(chat.state.session.screen == .progress, "\(phrase)")
        }
    }

    @Test func aWordFromOneOptionAnswersIt() throws {
        let q = Question(
            id: "u-x", category: .sharingTheRoad, difficulty: .easy, questionText: "How much room?",
            answers: ["At least 3 feet", "At least 1 foot", "Half a lane", "No set distance"],
            correctAnswerIndex: 0, explanation: "e", source: "s")
        #expect(Reduction.optionTyped("3 feet", q) == 0)
        #expect(Reduction.optionTyped("at least", q) == nil, "in two options: no answer")
        #expect(Reduction.optionTyped("no set distance", q) == 3)
        #expect(Reduction.optionTyped("eet", q) == nil, "whole words only")
    }

    @Test func flashcardsTakeStopAsAnAnswerAndYaGotItAsARating() throws {
        let chat = TestChat(banks: banks, chatID: 62, name: "Sam")
        _ = chat.reduce(.commandSent(.start, payload: "CO"))
        chat.missAQuickQuiz()
        _ = chat.tap(.menu(.flashcards))
        #expect(chat.state.session.cards != nil)
        _ = chat.reduce(.textSent("stop"))
        #expect(
            chat.state.session.screen == .cards && chat.state.session.cards?.showingAnswer == true,
            "'stop' on a card's front is an answer, not leaving")
        let unclear = chat.reduce(.textSent("hmm"))
        #expect(chat.state.session.cards?.showingAnswer == true, "an unclear word keeps the card turned over")
        #expect(
            unclear.contains {
                if case .send(let r) = $0, case .flashcard = r.message { return true }
                return false
            })
        let index = chat.state.session.cards?.index
        _ = chat.reduce(.textSent("ya got it"))
        #expect(chat.state.session.cards == nil || chat.state.session.cards?.index == (index ?? 0) + 1)
    }
}

/// The Texas play-tester's "🔁 Review my misses" right after a test served week-old misses, not the
/// test's; and "think fast" typed on Home answered a handbook card instead of starting Think Fast.
@Suite struct ReviewOrderTests {
    @Test func reviewStartsWithTheLatestMissesAndThinkFastIsAWord() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let banks = try #require(loaded)
        let chat = TestChat(banks: banks, chatID: 63, name: "Alex")
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        var missed: [[String]] = []
        for _ in 0..<2 {
            missed.append(chat.missAQuickQuiz())
            chat.now += 86_400
        }
        // (A typed-answer question answered by a tapped option may not count as a miss.)
        let latest = Set(missed[1].filter { chat.state.progress[$0]?.missed == true })
        #expect(latest.count >= 5)
        _ = chat.tap(.menu(.review))
        let first = try #require(chat.state.session.quiz?.questionIDs)
        #expect(latest.isSubset(of: Set(first)), "the latest quiz's misses first: \(first) vs \(latest)")
        _ = chat.tap(.menu(.home))
        _ = chat.reduce(.textSent("think fast"))
        #expect(chat.state.session.quiz?.mode == .timedChallenge)
    }
}

/// Issue #43 items 3 and 13: the test list said "Test 2: not taken yet" beside Home's
/// "▶️ Continue (9/40)", "Answers are revealed at the end" with Settings on "as you go", and nothing
/// about the ~10 questions from lessons not reached yet.
@Suite struct TestListLabelsTests {
    @Test func theTestListSaysWhatIsInProgressHowAnswersShowAndWhatIsUntaught() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let banks = try #require(loaded)
        let prompts = try Prompts.load(directory: "\(repoRoot)/Prompts/en")
        let chat = TestChat(banks: banks, chatID: 64, name: "Maya")
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        _ = chat.tap(.startTest(2))
        let quiz = try #require(chat.state.session.quiz)
        for i in 0..<3 { _ = chat.tap(.answer(quiz: quiz.id, question: i, option: 0)) }
        _ = chat.tap(.menu(.home))
        let effects = chat.tap(.menu(.practiceTest))
        let view = try #require(
            effects.compactMap { e -> PickTestView? in
                if case .send(let r) = e, case .pickTest(let v) = r.message { return v }
                return nil
            }.first)
        let text = prompts.render(.pickTest(view))
        #expect(text.contains("• Test 2: ▶️ in progress (3 answered)"), "\(text)")
        #expect(text.contains("Answers are revealed at the end"))
        // A 30-question Texas test with 24 or more untaught reads "Nearly every question", not "About 30 of each".
        let untaughtLine =
            view.untaught >= 24
            ? "Nearly every question on these tests comes from lessons you haven't done yet"
            : "About \(view.untaught) of each test's questions come from lessons you haven't done yet"
        #expect(view.untaught > 20 && text.contains(untaughtLine), "\(text)")
        var asYouGo = view
        asYouGo.revealAsYouGo = true
        #expect(prompts.render(.pickTest(asYouGo)).contains("You've set answers to show as you go"))
        #expect(!prompts.render(.pickTest(asYouGo)).contains("Answers are revealed at the end"))
    }
}

/// Arithmetic is not the road: "whats 2+2" was answered with a right-of-way card.
@Suite struct NumbersAloneTests {
    @Test func numbersAloneAreOffTopicButNumbersWithWordsAreNot() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let corpus = AskCorpus(banks: try #require(loaded))
        for text in ["whats 2+2", "whats 15 times 12", "55?"] {
            #expect(AskQuery(text, corpus: corpus).offTopic, "\(text)")
        }
        for text in ["4 way stop who goes first", "what does a 25 sign mean", "is 0.08 the limit"] {
            #expect(!AskQuery(text, corpus: corpus).offTopic, "\(text)")
        }
    }
}

/// Issue #43 item 15: a card marked "✅ Knew it" came back the same evening and again the next day.
@Suite struct KnewItCardsWaitTests {
    @Test func aCardKnownOnFirstSightWaitsAtLeastADayAndAMissComesBackSoon() {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        var random = SeededRandom(seed: 3)
        let knew = Reduction.scheduler.review(FSRSCard.new(due: now), rating: .good, at: now, random: &random)
        #expect(knew.due.timeIntervalSince(now) >= 86_400, "\(knew.due.timeIntervalSince(now)) s")
        let missed = Reduction.scheduler.review(FSRSCard.new(due: now), rating: .again, at: now, random: &random)
        #expect(missed.due.timeIntervalSince(now) == 600)
    }
}

/// Issue #43 item 3: a lesson's "Next up: Your permit, step by step" beside Home's "📖 Start
/// learning: Road signs" read as a contradiction; a topic's next lesson now says it is the topic's.
@Suite struct NextLessonLabelTests {
    @Test func aLessonPickedFromATopicSaysItsNextIsTheTopics() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let banks = try #require(loaded)
        let chat = TestChat(banks: banks, chatID: 65, name: "Kay")
        _ = chat.reduce(.commandSent(.start, payload: "KY"))
        let own = banks.lessons(forState: "KY")
        _ = chat.tap(.openLesson(own[0].id))
        var done: LessonDoneView?
        for _ in 0..<30 where done == nil {
            let effects: [Effect]
            if let quiz = chat.state.session.quiz, let q = banks.question(quiz.currentQuestionID) {
                if quiz.phase == .answered {
                    effects = chat.tap(.next(quiz: quiz.id, question: quiz.index))
                } else {
                    effects = chat.tap(.answer(quiz: quiz.id, question: quiz.index, option: q.correctAnswerIndex))
                }
            } else {
                effects = chat.reduce(.textSent("next"))
            }
            done =
                effects.compactMap {
                    if case .send(let r) = $0, case .lessonDone(let v) = r.message { return v }
                    return nil
                }.first
        }
        let view = try #require(done)
        #expect(view.nextTitle == own[1].title && view.nextInTopic, "\(view)")
        let prompts = try Prompts.load(directory: "\(repoRoot)/Prompts/en")
        #expect(prompts.render(.lessonDone(view)).contains("Next in this topic: <b>\(own[1].title)</b>"))
    }
}
