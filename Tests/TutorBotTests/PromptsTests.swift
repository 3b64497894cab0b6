import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Every template renders with sample data within Telegram's limits and as valid Telegram HTML.
@Suite struct PromptsTests {
    let prompts: Prompts

    init() throws { prompts = try Prompts.load(directory: "\(repoRoot)/Prompts/en") }

    /// The parent folder instead of the locale's (an easy slip with --prompts): the operator is
    /// told which file is missing, spelled right, and what the folder should be.
    @Test func aPromptsFolderWithoutTheTemplatesNamesTheMissingFileAndTheFolderItWants() {
        do {
            _ = try Prompts.load(directory: "\(repoRoot)/Prompts")
            Issue.record("the parent folder loaded")
        } catch {
            let said = "\(error)"
            #expect(said.contains("\(repoRoot)/Prompts/") && said.contains(".mustache is missing"), "\(said)")
            #expect(!said.contains(".mustache.mustache"), "\(said)")
            #expect(said.contains("Prompts/en"), "\(said)")
        }
    }

    static let state = StateInfo(
        code: "NY", name: "New York", timeZones: ["America/New_York"], minPermitAge: 16, handbook: "NY <Manual> & more",
        launch: true, confidence: .medium, note: "Counts vary & change.",
        test: TestFormat(
            questions: 20, passCorrect: 14, timeLimitMinutes: 25,
            sections: [
                TestSection(name: "Road signs", pool: .signs, questions: 4, passCorrect: 2),
                TestSection(name: "Rules", pool: .rules, questions: 16),
            ]))

    var sampleQuestion: QuestionView {
        let long = String(repeating: "Which of these is the safest choice when <merging> & why? ", count: 6)
        let options = ["A", "B", "C", "D"].map { AnswerOption(letter: $0, text: String(repeating: "x", count: 120)) }
        return QuestionView(
            number: 3, total: 10, mode: .review, topic: .rightOfWay, text: long, options: options,
            sectionName: "Road signs", secondsPerQuestion: 20)
    }
    var sampleAnswered: AnsweredView {
        AnsweredView(
            question: sampleQuestion, chosenLetter: "B", correctLetter: "A", correctText: "x", isCorrect: false,
            explanation: String(repeating: "Because & <why>. ", count: 25), source: "Manual § 4", timedOut: true,
            typed: "eight <8>",
            hardBonusXP: XP.hardBonus)
    }
    var sampleResult: QuizResult {
        QuizResult(
            quizID: 1, mode: .practiceTest(number: 2), stateCode: "NY", correct: 13, total: 20, passPercent: 70,
            startedAt: Date(),
            finishedAt: Date(), byTopic: Topic.allCases.map { TopicScore(topic: $0, correct: 1, total: 2) },
            missedIDs: ["u-1"],
            exam: ExamOutcome(
                correct: 13, total: 20, needed: 14,
                sections: [
                    SectionOutcome(name: "Road signs", correct: 1, total: 4, needed: 2, separate: false, passed: false),
                    SectionOutcome(name: "Rules", correct: 12, total: 16, needed: nil, separate: false, passed: true),
                ], passed: false),
            timedOut: true)
    }
    var sampleResults: ResultsView {
        ResultsView(
            result: sampleResult, stateName: "New York", durationSeconds: 754, missedCount: 7, timeLimitMinutes: 25,
            readiness: ReadinessSummary(
                shown: true, lowPercent: 35, highPercent: 55, seen: 120, poolSize: 347, topicsNotTried: 3,
                testsPassedWithMargin: 2),
            reward: SessionReward(xpEarned: 120, answeredToday: 45, streak: 4), averageSeconds: 6.25, previousBest: 7)
    }
    var sampleProgress: ProgressView {
        ProgressView(
            stateName: "New York", mastery: Topic.allCases.map { TopicMastery(topic: $0, mastered: 3, total: 7) },
            seenCount: 10, totalCount: 330, streak: 1, bestStreak: 9, recent: Array(repeating: sampleResult, count: 5),
            readiness: ReadinessSummary(
                shown: true, lowPercent: 80, highPercent: 90, seen: 300, poolSize: 347, testsPassedWithMargin: 3,
                chanceHigh: true, ready: true), freezes: 1,
            league: .ranked(LeagueLine(place: 1, of: 2, xp: 90, aheadName: nil, aheadBy: 0, hiddenFriends: 1)))
    }

    var samples: [Message] {
        let q = sampleQuestion
        let result = QuizResult(
            quizID: 1, mode: .topic(.parking), stateCode: "NY", correct: 6, total: 10, passPercent: 70,
            startedAt: Date(),
            finishedAt: Date(), byTopic: Topic.allCases.map { TopicScore(topic: $0, correct: 1, total: 2) },
            missedIDs: [])
        let longMiss = MissItem(
            number: 1, question: String(repeating: "q", count: 300), correctAnswer: String(repeating: "a", count: 120),
            explanation: String(repeating: "e", count: 450))
        return [
            .results(sampleResults), .progress(sampleProgress), .lockedIn(sampleAnswered), .testUnavailable,
            .pickTest(PickTestView(state: Self.state, best: [sampleResult, nil, sampleResult, nil])),
            .misses(
                MissesView(
                    items: Reduction.paginate(Array(repeating: longMiss, count: 40), budget: 3_000)[0], page: 1,
                    pageCount: 9)),
            .welcome(firstName: "<Sam & Co>"), .welcomeBack(firstName: "Sam"), .pickState, .typeState,
            .stateCard(StateCardView(state: Self.state)),
            .home(
                HomeView(
                    firstName: "Sam", stateName: "New York", streak: 6, studiedToday: false, missedCount: 4,
                    seenCount: 40, totalCount: 330)),
            .question(q),
            .answered(
                AnsweredView(
                    question: q, chosenLetter: "B", correctLetter: "A", correctText: "x", isCorrect: false,
                    explanation: String(repeating: "Because & <why>. ", count: 25), source: "Manual § 4")),
            .results(ResultsView(result: result, stateName: "New York", durationSeconds: 754, missedCount: 4)),
            .reviewEmpty, .pickTopic,
            .progress(
                ProgressView(
                    stateName: "New York",
                    mastery: Topic.allCases.map { TopicMastery(topic: $0, mastered: 3, total: 7) },
                    seenCount: 10, totalCount: 330, streak: 1, bestStreak: 9, recent: Array(repeating: result, count: 5)
                )),
            .settings(SettingsView(stateName: nil)),
            .settings(
                SettingsView(
                    stateName: "Texas", revealAnswersAsYouGo: true, nudgesOn: false, timeZone: "America/Chicago")),
            .nudge(NudgeView(firstName: "Sam", streak: 6, missedCount: 5, cardsDue: 5)),
            .nudge(NudgeView(firstName: "Sam", streak: 0, missedCount: 0)),
            .confirmDelete, .dataDeleted, .help, .about,
            .confirmState(Self.state), .confirmSwitch(from: "New York", to: "Wyoming", test: .practiceTest(number: 2)),
            .notice(.answerAbove), .notice(.typeTheAnswer),
            .home(
                HomeView(
                    firstName: "Sam", stateName: "New York", streak: 0, studiedToday: false, missedCount: 0,
                    seenCount: 4, totalCount: 330,
                    answeredToday: 45, streakEnded: 6)),
            .settings(SettingsView(stateName: "Texas", stopped: true)),
            .flashcardsDone(
                FlashcardSummary(
                    reviewed: 4, dueTomorrow: 3, dueThisWeek: 9,
                    reward: SessionReward(xpEarned: 8, answeredToday: 3, streak: 2), leftEarly: true)),
            .flashcard(
                FlashcardView(
                    number: 2, total: 20, topic: .parking, question: "Where <may> you park?", answer: nil,
                    explanation: nil)),
            .flashcard(
                FlashcardView(
                    number: 2, total: 20, topic: .parking, question: "Where may you park?",
                    answer: "At the curb & legal", explanation: String(repeating: "why ", count: 100))),
            .flashcardsDone(FlashcardSummary(reviewed: 0, dueTomorrow: 1, dueThisWeek: 12)),
            .flashcardsDone(FlashcardSummary(reviewed: 7, dueTomorrow: 3, dueThisWeek: 12)),
            .pickSignGroup,
            .signCard(
                SignCardView(
                    sign: SignInfo(
                        id: "stop", name: "Stop", group: .regulatory, mutcd: "R1-1", meaning: "Come to a full stop.",
                        rule: "Red octagon."), number: 1, total: 20)),
            .levelUp(level: 4),
            .home(
                HomeView(
                    firstName: "Sam", stateName: "Ohio", streak: 0, studiedToday: false, missedCount: 0, seenCount: 0,
                    totalCount: 330,
                    lessonsDone: 0, lessonsTotal: 65)),
            .lessonCard(
                LessonCardView(
                    topic: .roadSigns, lessonNumber: 2, lessonCount: 5, title: "Shapes & <colours>",
                    text: String(repeating: "A sign's shape & colour tell you what it is. ", count: 10), cardNumber: 3,
                    cardCount: 6)),
            .lessonCard(
                LessonCardView(
                    topic: .stateSpecific, lessonNumber: 1, lessonCount: 4, title: "Your permit", text: "Ohio's rule.",
                    cardNumber: 1, cardCount: 4, stateName: "Ohio")),
            .lessonDone(
                LessonDoneView(
                    title: "Shapes", correct: 4, total: 5, testedOut: false, finished: true, needed: 4,
                    nextTitle: "Colours",
                    lessonsDone: 3, lessonsTotal: 65, reward: SessionReward(xpEarned: 30, answeredToday: 5, streak: 2))),
            .lessonDone(
                LessonDoneView(
                    title: "Shapes", correct: 3, total: 5, testedOut: true, finished: false, needed: 4, nextTitle: nil,
                    lessonsDone: 3, lessonsTotal: 65)),
            .lessonDone(
                LessonDoneView(
                    title: "Last one", correct: 0, total: 0, testedOut: false, finished: true, needed: 0,
                    nextTitle: nil,
                    lessonsDone: 65, lessonsTotal: 65)),
            .topicLessons(TopicLessonsView(topic: .parking, done: 1, total: 3)),
            .challengeIntro(ChallengeIntroView(opponent: "<Maya & Co>", questions: 10)),
            .challengeIntro(ChallengeIntroView(opponent: nil, questions: 10)),
            .challengeReady(
                ChallengeReadyView(
                    token: String(repeating: "A", count: 22), score: 7, total: 10, botUsername: "PermitReadyBot",
                    own: false,
                    reward: SessionReward(xpEarned: 60, answeredToday: 10, streak: 1))),
            .challengeReady(
                ChallengeReadyView(
                    token: String(repeating: "A", count: 22), score: 7, total: 10, botUsername: "PermitReadyBot",
                    own: true)),
            .challengeResult(
                ChallengeResultView(
                    opponent: "Maya", theirScore: 7, yourScore: 9, total: 10,
                    differed: Array(
                        repeating: .init(
                            question: String(repeating: "Where <may> you & park? ", count: 8), youRight: true,
                            correctAnswer: "At the curb & legal"), count: 10),
                    reward: nil, newcomer: true)),
            .challengeResult(
                ChallengeResultView(opponent: "Maya", theirScore: 9, yourScore: 9, total: 10, differed: [])),
            .challengePlayed(ChallengePlayedView(friend: "Jordan", friendScore: 8, yourScore: 7, total: 10)),
            .challengedBack(friend: "<Jo & Co>", questions: 10, back: true),
            .challengedBack(friend: "Riley", questions: 10, back: false),
            .challengeReady(
                ChallengeReadyView(
                    token: String(repeating: "A", count: 22), score: 7, total: 10, botUsername: "PermitReadyBot",
                    own: false, sentTo: "<Maya & Co>")),
            .challengePlayed(
                ChallengePlayedView(
                    friend: "Jordan", friendScore: 8, yourScore: 7, total: 10,
                    differed: Array(
                        repeating: .init(
                            question: String(repeating: "What does <this> sign mean? ", count: 4),
                            youRight: false, correctAnswer: "Stop & wait", sign: "Stop"), count: 3),
                    differedCount: 4)),
        ] + Notice.allCases.map { .notice($0) } + Badge.allCases.map { .badgeEarned($0) }
    }

    @Test func everyMessageFitsTelegramAndIsValidHTML() {
        for m in samples {
            let text = prompts.render(m)
            #expect(!text.isEmpty, "\(m) renders something")
            #expect(FakeBotAPI.visibleLength(text) <= 4096, "\(m) fits in one message")
            #expect(FakeBotAPI.balancedHTML(text), "\(m) is valid Telegram HTML: \(text)")
            #expect(!text.contains("{{") && !text.contains("}}"), "\(m) has no unrendered tags")
        }
    }

    /// What the walkthrough read wrong, rendered: a goal over 100%, /stop not shown, a failed test
    /// that read as a contradiction, a test list with no pass mark, an ended streak not mentioned.
    @Test func walkthroughScreensReadRight() {
        let home = prompts.render(
            .home(
                HomeView(
                    firstName: "Sam", stateName: "New York", streak: 0, studiedToday: true, missedCount: 0,
                    seenCount: 4, totalCount: 330, answeredToday: 45, streakEnded: 6)))
        // Never "45/20" (a goal over 100%), and never "20/20" after 45 either (the bot not counting).
        #expect(
            home.contains("Today: 45 questions ✅ daily goal of 20 done!") && !home.contains("45/20")
                && !home.contains("20/20"))
        #expect(home.contains("6-day streak ended") && home.contains("streak freeze"))
        let stopped = prompts.render(.settings(SettingsView(stateName: "Texas", stopped: true)))
        #expect(stopped.contains("Messages: <b>off</b>") && !stopped.contains("Daily reminder: 4 pm"))
        // 17/20 overall passes NY's mark, but 1 of 4 signs does not: say that, not "17/20, and New York needs 14".
        let exam = ExamOutcome(
            correct: 17, total: 20, needed: 14,
            sections: [
                SectionOutcome(name: "Road signs", correct: 1, total: 4, needed: 2, separate: false, passed: false),
                SectionOutcome(name: "Rules", correct: 16, total: 16, needed: nil, separate: false, passed: true),
            ], passed: false)
        let failed = QuizResult(
            quizID: 3, mode: .practiceTest(number: 1), stateCode: "NY", correct: 17, total: 20, passPercent: 70,
            startedAt: Date(),
            finishedAt: Date(), byTopic: [TopicScore(topic: .roadSigns, correct: 1, total: 4)],
            missedIDs: ["a", "b", "c"], exam: exam)
        let results = prompts.render(
            .results(ResultsView(result: failed, stateName: "New York", durationSeconds: 600, missedCount: 3)))
        #expect(
            results.contains("17/20 is enough overall, but New York also needs 2 of 4 road signs right (you got 1)"))
        #expect(results.components(separatedBy: "Road signs").count - 1 == 1, "road signs named once: \(results)")
        let list = prompts.render(.pickTest(PickTestView(state: Self.state, best: [failed, nil, nil, nil])))
        #expect(list.contains("Test 1: ❌ not passed yet · best 17/20") && list.contains("Test 2: not taken yet"))
        #expect(
            prompts.label(.testNumber(1, passed: false)) == "Test 1 ❌"
                || prompts.label(.testNumber(1, passed: false)).hasSuffix("❌"))
    }

}
