import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

extension PromptsTests {
    @Test func everyButtonLabelAndCommandFitsTelegram() {
        let labels: [ButtonLabel] =
            [
                .next, .seeResults, .home, .quickQuiz, .topics, .progress, .settings, .help, .about,
                .reviewMissed(count: 12),
                .reviewMyMisses, .tryAnother, .changeState, .otherState, .continueQuiz(number: 3, total: 10),
                .practiceTest, .timedChallenge, .randomTest, .morePages, .testNumber(2, passed: true),
                .testNumber(3, passed: nil), .seeMisses(count: 7), .revealAnswers(on: true), .revealAnswers(on: false),
                .nudges(on: true), .nudges(on: false), .nudgeTime(minute: 960, selected: true),
                .nudgeTime(minute: 1110, selected: false),
                .zone("America/Indiana/Indianapolis", selected: true), .deleteData, .confirmDelete, .keepData,
                .flashcards(due: 12), .showAnswer, .gallery, .livesChallenge, .previous, .nextSign, .quizMeOnThese,
                .fourButtons(on: true), .fourButtons(on: false), .challengeBack(name: "Maya"),
                .playChallenge(name: "Maya"),
                .daily(done: false), .daily(done: true), .dailyScore(score: 2, total: 5),
            ]
            + Rating.allCases.flatMap { [ButtonLabel.rate($0, simple: true), .rate($0, simple: false)] }
            + SignGroup.allCases.map { .signGroup($0) }
            + Topic.allCases.map { .topic($0) }
        for l in labels {
            let t = prompts.label(l)
            #expect(!t.isEmpty && t.count <= 40 && !t.contains("{{"), "\(l): \(t)")
        }
        #expect(prompts.label(.reviewMissed(count: 12)).contains("12"))
        #expect(prompts.label(.dailyScore(score: 2, total: 5)) == "📅 Daily 5: 2/5")
        for c in Command.menu {
            #expect(c.rawValue.range(of: "^[a-z0-9_]{1,32}$", options: .regularExpression) != nil)
            let d = prompts.commandDescription(c)
            #expect((1...256).contains(d.count))
        }
    }

    /// A section without its own minimum must not borrow the overall one: the first build's IL card
    /// read "Road signs: 15 questions, at least 28 right" (Mustache found the test's mark up the stack).
    @Test func stateCardsStateEachSectionsOwnRule() {
        let il = StateInfo(
            code: "IL", name: "Illinois", timeZones: ["America/Chicago"], minPermitAge: 15,
            handbook: "Illinois Rules of the Road",
            launch: true, confidence: .high, note: nil,
            test: TestFormat(
                questions: 35, passCorrect: 28,
                sections: [
                    TestSection(name: "Road signs", pool: .signs, questions: 15),
                    TestSection(name: "Rules of the road", pool: .rules, questions: 20),
                ]))
        let card = prompts.render(.stateCard(StateCardView(state: il, ownQuestions: 40)))
        #expect(card.contains("35 questions — you need 28 right"))
        #expect(card.contains("• Road signs: 15 questions\n") && !card.contains("at least 28"))
        let ny = prompts.render(.stateCard(StateCardView(state: Self.state, ownQuestions: 0)))
        #expect(
            ny.contains("• Rules: 16 questions\n")
                && ny.contains("Road signs: 4 questions, and at least 2 of them right"))
        #expect(ny.contains("I don't have New York-only questions yet"), "a state without its own file says so")
    }

    /// Each template uses only variables its context struct has (a typo renders blank in Mustache).
    @Test func templatesUseOnlyTheirContextsVariables() throws {
        let contexts: [String: Any] = [
            "welcome": WelcomeContext(firstName: ""), "state_card": StateCardContext(StateCardView(state: Self.state)),
            "home": HomeContext(
                {
                    var v = HomeView(
                        firstName: "", stateName: "", streak: 0, studiedToday: false, missedCount: 0, seenCount: 0,
                        totalCount: 0)
                    v.league = LeagueLine(place: 1, of: 2, xp: 0, aheadName: nil, aheadBy: 0)
                    v.lastWeek = LeagueWeekWinners(friends: [], you: true, xp: 10)
                    v.dailyWaiting = 3
                    return v
                }()),
            "settings": SettingsContext(
                SettingsView(stateName: "Texas", nudgesOn: true, paused: true, timeZone: "America/Chicago"),
                zoneName: prompts.zoneName),
            "nudge": NudgeContext(
                firstName: "Sam", streak: 3, hasStreak: true, missed: 2, hasMissed: true, cards: 5, hasCards: true,
                cardsPlural: "s"),
            "question": QuestionContext(sampleQuestion, prompts: prompts),
            "answered": AnsweredContext(sampleAnswered, prompts: prompts),
            "locked_in": AnsweredContext(sampleAnswered, prompts: prompts, lockedIn: true),
            "results": ResultsContext(sampleResults, prompts: prompts),
            "progress": ProgressContext(sampleProgress, prompts: prompts),
            "pick_test": PickTestContext(PickTestView(state: Self.state, best: [sampleResult, nil, nil, nil])),
            "misses": MissesContext(
                items: [MissesContext.Item(number: 1, question: "q", correctAnswer: "a", explanation: "e")], page: 1,
                pageCount: 2),
        ]
        // notice.mustache: one section per notice, named as its `Notice` case (its context is that one flag).
        let notice = try String(contentsOfFile: "\(repoRoot)/Prompts/en/notice.mustache", encoding: .utf8)
        let sections = try NSRegularExpression(pattern: "\\{\\{#([A-Za-z]+)\\}\\}")
            .matches(in: notice, range: NSRange(notice.startIndex..., in: notice))
            .map { String(notice[Range($0.range(at: 1), in: notice)!]) }
        #expect(Set(sections) == Set(Notice.allCases.map(\.rawValue)) && sections.count == Notice.allCases.count)
        for (name, context) in contexts {
            let text = try String(contentsOfFile: "\(repoRoot)/Prompts/en/\(name).mustache", encoding: .utf8)
            let names = Set(Mirror(reflecting: context).children.compactMap(\.label))
            // Nested context sections ({{#readiness}}…{{/readiness}}, {{#league}}{{#line}}…), behind optionals and in
            // lists.
            func labels(_ value: Any, depth: Int) -> Set<String> {
                let m = Mirror(reflecting: value)
                if m.displayStyle == .optional { return m.children.first.map { labels($0.value, depth: depth) } ?? [] }
                if let list = value as? [Any] { return list.first.map { labels($0, depth: depth) } ?? [] }
                guard depth < 4, m.displayStyle == .struct else { return [] }
                return m.children.reduce(into: Set<String>()) { found, child in
                    if let label = child.label { found.insert(label) }
                    found.formUnion(labels(child.value, depth: depth + 1))
                }
            }
            let nested = Mirror(reflecting: context).children.reduce(into: Set<String>()) {
                $0.formUnion(labels($1.value, depth: 1))
            }
            let regex = try NSRegularExpression(pattern: "\\{\\{[#^/]?\\s*([A-Za-z]+)\\s*\\}\\}")
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let v = String(text[Range(m.range(at: 1), in: text)!])
                #expect(
                    names.contains(v) || nested.contains(v), "\(name).mustache uses {{\(v)}}, which its context lacks")
            }
        }
    }

    /// What a teen reads of the league (issue #25's play-test): ties, hidden friends as a count,
    /// the week boundary in their own time, last week's winner, hiding both ways, Remove asking first.
    @Test func theLeagueReadsRight() {
        let table = [
            LeagueEntry(name: "Jordan", xp: 400, streak: 3, isYou: false),
            LeagueEntry(name: "Ava", xp: 340, streak: 0, isYou: false),
            LeagueEntry(name: "Sam", xp: 340, streak: 2, isYou: true),
        ]
        let ranked = prompts.render(
            .friends(
                FriendsView(
                    standings: table,
                    standing: .ranked(
                        LeagueLine(
                            place: 2, of: 3, xp: 340, aheadName: "Jordan", aheadBy: 60, tiedWith: ["Ava"],
                            hiddenFriends: 1)),
                    friendNames: ["Jordan", "Ava"], hidden: false,
                    lastWeek: LeagueWeekWinners(friends: ["Jordan"], you: false, xp: 420),
                    weekStartsLocal: LocalWeekTime(weekday: 1, minute: 21 * 60))))
        #expect(ranked.contains("1. Jordan · 400 XP · 🔥 3\n2. Ava · 340 XP\n2. Sam (you) · 340 XP · 🔥 2"), "\(ranked)")
        #expect(ranked.contains("You're 2nd · tied with Ava · Jordan is 60 XP ahead"))
        #expect(
            ranked.contains("(1 friend hides from the league.)")
                && ranked.contains("Jordan won last week's league with 420 XP."))
        #expect(ranked.contains("Monday 12 am US Eastern — Sunday 9 pm your time"))
        // A last week without a winner to name leaves no empty line behind (the play-test saw two).
        let noWinner = prompts.render(
            .friends(
                FriendsView(
                    standings: table,
                    standing: .ranked(LeagueLine(place: 1, of: 3, xp: 340, aheadName: nil, aheadBy: 0)),
                    friendNames: ["Jordan", "Ava"], hidden: false,
                    lastWeek: LeagueWeekWinners(friends: [], you: false, xp: 0))))
        #expect(
            !noWinner.contains("\n\n\n") && noWinner.contains("You're in the lead! 🏆\n\n<i>A new week"), "\(noWinner)")
        let hiding = prompts.render(
            .friends(
                FriendsView(
                    standings: [], standing: .youHide(friends: 2), friendNames: ["Ava", "Jordan"], hidden: true)))
        #expect(
            hiding.contains("so it's hidden from you too. Your friends here: Ava and Jordan.")
                && !hiding.contains("1. "), "no table")
        let alone = prompts.render(
            .friends(FriendsView(standings: [], standing: .noFriends, friendNames: [], hidden: false)))
        #expect(alone.contains("No friends here yet") && !alone.contains("US Eastern"))
        var home = HomeView(
            firstName: "Sam", stateName: "Ohio", streak: 0, studiedToday: false, missedCount: 0, seenCount: 1,
            totalCount: 300)
        home.league = LeagueLine(place: 1, of: 2, xp: 50, aheadName: nil, aheadBy: 0, tiedWith: ["Ava"])
        home.lastWeek = LeagueWeekWinners(friends: [], you: true, xp: 400)
        let homeText = prompts.render(.home(home))
        #expect(
            homeText.contains("👥 Friends' league: 1st of 2 this week · tied with Ava\n🏆 You won last week's league!"),
            "\(homeText)")
        var progress = sampleProgress
        progress.league = .friendsHidden(1)
        #expect(prompts.render(.progress(progress)).contains("👥 Your friend here hides from the league this week."))
        progress.league = .ranked(LeagueLine(place: 1, of: 3, xp: 90, aheadName: nil, aheadBy: 0, hiddenFriends: 2))
        #expect(
            prompts.render(.progress(progress)).contains(
                "Friends' league this week: 1st of 3 · 90 XP · in the lead 🏆 (2 friends hide)"))
        #expect(
            prompts.render(.confirmUnfriend(ConfirmUnfriendView(name: "Ava"))).contains(
                "Remove <b>Ava</b> from your friends?"))
        #expect(prompts.render(.notice(.hiddenFromLeague)).contains("hidden from you too"))
    }

    /// The questions two friends differed on: a sign question names its sign (the recap has no
    /// picture), and the challenger's news shows them too, from the challenger's side.
    @Test func theChallengeRecapNamesItsSignsForBothSides() {
        let d = ChallengeResultView.Difference(
            question: "What does this sign mean?", youRight: true, correctAnswer: "Stop completely", sign: "Stop")
        let result = prompts.render(
            .challengeResult(
                ChallengeResultView(
                    opponent: "Maya", theirScore: 7, yourScore: 8, total: 10,
                    differed: [d], differedCount: 1)))
        #expect(
            result.contains(
                "✅ You got it, Maya didn't: What does this sign mean? <i>(pictured: Stop)</i>\n   ✔️ Right answer: Stop completely"
            ), "\(result)")
        var mine = d
        mine.youRight = false
        let news = prompts.render(
            .challengePlayed(
                ChallengePlayedView(
                    friend: "Jordan", friendScore: 8, yourScore: 7, total: 10,
                    differed: [mine], differedCount: 4)))
        #expect(news.contains("Jordan beat you 8–7"), "\(news)")
        #expect(
            news.contains(
                "Where you two differed (the first 1):\n❌ Jordan got it, you didn't: What does this sign mean? <i>(pictured: Stop)</i>"
            ), "\(news)")
        let plain = prompts.render(
            .challengePlayed(ChallengePlayedView(friend: "Jordan", friendScore: 8, yourScore: 8, total: 10)))
        #expect(!plain.contains("differed") && !plain.contains("pictured"))
    }
}
