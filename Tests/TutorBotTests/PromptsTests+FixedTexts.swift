import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

extension PromptsTests {
    /// Hand-written field lists must name exactly the struct's properties (optionals may be absent when nil).
    @Test func handWrittenFieldListsMatchTheirStructs() {
        var homeView = HomeView(
            firstName: "Sam", stateName: "Ohio", streak: 3, studiedToday: true, missedCount: 2, seenCount: 9,
            totalCount: 300, answeredToday: 4, streakEnded: 5)
        homeView.league = LeagueLine(place: 2, of: 3, xp: 300, aheadName: "Jordan", aheadBy: 40, tiedWith: ["Ava"])
        homeView.lastWeek = LeagueWeekWinners(friends: ["Jordan"], you: false, xp: 420)
        homeView.dailyWaiting = 2
        let home = HomeContext(homeView)
        let exam = ResultsContext(sampleResults, prompts: prompts)
        // A quiz (not a test) whose misses list weak topics, with a reward and no readiness.
        var quiz = sampleResults
        quiz.result.mode = .quick
        quiz.result.exam = nil
        quiz.readiness = nil
        let quizResults = ResultsContext(quiz, prompts: prompts)
        var thinkFast = sampleResults
        thinkFast.result.mode = .timedChallenge
        thinkFast.result.exam = nil
        let timed = ResultsContext(thinkFast, prompts: prompts)
        #expect(
            exam.readiness != nil && exam.reward != nil && exam.sections.count == 2 && !exam.weak.isEmpty
                && !exam.topics.isEmpty)
        let samples: [any TemplateFields] = [
            QuestionContext(sampleQuestion, prompts: prompts), AnsweredContext(sampleAnswered, prompts: prompts),
            OptionContext(letter: "A", text: "t", mark: "m"), home, exam, exam.readiness!, exam.reward!,
            exam.sections[0], exam.weak[0], exam.topics[0],
        ]
        for sample in samples {
            let labels = Set(Mirror(reflecting: sample).children.compactMap(\.label))
            #expect(
                Set(sample.fields.keys) == labels,
                "\(type(of: sample)): \(labels.symmetricDifference(sample.fields.keys))")
        }
        // And they render exactly what reflecting the struct renders.
        let renders: [(String, any TemplateFields)] = [
            ("question", samples[0]), ("answered", samples[1]), ("home", home),
            ("results", exam), ("results", quizResults), ("results", timed),
        ]
        for (template, sample) in renders {
            let fast = prompts.library.render(Prompts.tree(sample), withTemplate: template)
            #expect(
                fast != nil
                    && fast == prompts.library.render(Prompts.reflected(sample, purely: true), withTemplate: template),
                "\(template)")
        }
    }

    /// Notices and the screens without a context are rendered once at load: the stored text is
    /// what their templates render now.
    @Test func fixedTextsAreWhatTheirTemplatesRender() {
        #expect(prompts.fixedNotices.count == Notice.allCases.count)
        for n in Notice.allCases {
            #expect(prompts.render(.notice(n)) == prompts.notice(NoticeContext(n)), "\(n)")
            #expect(!prompts.render(.notice(n)).isEmpty, "\(n)")
        }
        #expect(prompts.fixedScreens.count == Prompts.fixedScreenNames.count)
        for name in Prompts.fixedScreenNames {
            #expect(prompts.fixed(name) == prompts.render(name, EmptyContext()), "\(name)")
        }
        #expect(prompts.render(.help).contains("/quiz"))
    }

    /// A Houston teen offered "Chicago / Denver" didn't know which was theirs: a zone is named as
    /// US teens say it, with its city, on the buttons and in Settings; every zone a state offers
    /// has a name.
    @Test func timeZonesAreNamedTheWayTeensSayThem() throws {
        #expect(prompts.label(.zone("America/Chicago", selected: false)) == "Central time (Chicago)")
        #expect(prompts.label(.zone("America/Denver", selected: true)) == "• Mountain time (Denver)")
        #expect(
            prompts.render(.settings(SettingsView(stateName: "Texas", timeZone: "America/Denver"))).contains(
                "Time zone: Mountain time (Denver)"))
        #expect(prompts.zoneName("Europe/Paris") == "Paris")
        let states = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(repoRoot)/Banks/states.json")))
        let list = (states as? [[String: Any]]) ?? ((states as? [String: Any])?["states"] as? [[String: Any]]) ?? []
        #expect(list.count >= 51)
        for state in list {
            for zone in state["timeZones"] as? [String] ?? [] {
                #expect(prompts.zoneName(zone).contains(" time ("), "\(zone) (\(state["code"] ?? "?")) has no name")
            }
        }
    }

    /// Help explains XP with the amounts the game gives (a teen compared +110 for 6/10 with a
    /// friend's +100 for 8/10 and couldn't tell why); a change to `XP` must change the words too.
    @Test func helpStatesTheXPTheGameGives() {
        let help = prompts.fixed("help")
        for words in [
            "+\(XP.correct) for a right answer", "+\(XP.hardBonus) more on a hard question",
            "+\(XP.attempt) for every answer",
            "+\(XP.studyDayBonus) for your first answer of the day", "+\(XP.cardReview) for each flashcard",
            "Every \(XP.perLevel) XP is a new level",
        ] {
            #expect(help.contains(words), "\(words)")
        }
    }

    /// Issue #43: home said "Continue: Your state's rules · lesson 2 of 4" while the lesson itself
    /// said "Kentucky rules · lesson 2 of 4". Both name the state now.
    @Test func homeNamesTheStatesLessonsAsTheLessonDoes() {
        #expect(
            prompts.label(.learn(topic: .stateSpecific, number: 2, of: 4, continuing: true, stateName: "Kentucky"))
                == "📖 Continue: Kentucky rules · lesson 2 of 4")
        #expect(
            prompts.label(.learn(topic: .signals, number: 1, of: 3, continuing: false))
                == "📖 Learn: Traffic signals · lesson 1 of 3")
    }

    /// /help says how the pass chance is worked out (an anxious teen shown 95-100% after one
    /// practice test didn't trust a number nobody explained), with the model's own window.
    @Test func helpSaysHowThePassChanceIsWorkedOut() {
        let help = prompts.fixed("help")
        for words in [
            "Your chance of passing", "practice tests count most", "A retake counts for little",
            "an answer you saw a few hours ago counts for less than one you remember a day later",
            "the number drops on days you don't study", "95-100% means",
        ] {
            #expect(help.contains(words), "\(words)")
        }
    }

    /// /help names what each Home button is, with the game's own numbers (a teen asked what
    /// Daily 5, 3 lives and Think Fast were).
    @Test func helpSaysWhatEachModeIs() {
        let help = prompts.fixed("help")
        for words in [
            "\(QuestionPicker.quizLength) questions",
            "the same \(DailyChallenge.length) questions for everyone in your state today",
            "\(Reduction.timedChallengeSeconds) seconds a question",
            "up to \(QuestionPicker.quizLength) questions, but \(Reduction.lives) misses",
            "\(Challenge.length) questions", "\(Learner.dailyGoal) questions a day", "👥 Friends — ",
        ] {
            #expect(help.contains(words), "\(words)")
        }
    }
}
