import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// The second walkthrough's findings as the learner reads them (rendered screens).
@Suite struct WalkthroughScreenTests {
    let p = try! PromptsTests()

    func quick(correct: Int, mode: QuizMode = .quick) -> QuizResult {
        QuizResult(
            quizID: 1, mode: mode, stateCode: "NY", correct: correct, total: 10, passPercent: nil, startedAt: Date(),
            finishedAt: Date(), byTopic: [TopicScore(topic: .parking, correct: correct, total: 10)], missedIDs: [])
    }

    /// A quick quiz left for hours said "⏱ 4 h 31 min".
    @Test func aQuizLeftForHoursDoesNotReportItsClockTime() {
        let long = p.prompts.render(
            .results(
                ResultsView(
                    result: quick(correct: 7), stateName: "New York", durationSeconds: 4 * 3600 + 31 * 60,
                    missedCount: 3)))
        #expect(!long.contains("4 h 31 min") && long.contains("more than one sitting"), "\(long)")
        let short = p.prompts.render(
            .results(
                ResultsView(result: quick(correct: 7), stateName: "New York", durationSeconds: 185, missedCount: 3)))
        #expect(short.contains("⏱ 3 min 5 s"))
    }

    /// Think Fast showed no best score (its first game had nothing to compare with).
    @Test func thinkFastAlwaysShowsItsBest() {
        var first = ResultsView(
            result: quick(correct: 6, mode: .timedChallenge), stateName: "New York", durationSeconds: 120,
            missedCount: 4)
        first.averageSeconds = 7.5
        #expect(p.prompts.render(.results(first)).contains("first score"))
        var later = first
        later.previousBest = 8
        #expect(p.prompts.render(.results(later)).contains("best 8/10"))
    }

    /// "idk" is answered with a kind word, not a bare ❌.
    @Test func idkGetsAWordAboutIt() {
        var view = p.sampleAnswered
        view.skipped = true
        view.timedOut = false
        view.isCorrect = false
        let text = p.prompts.render(.answered(view))
        #expect(
            text.contains("No problem") && text.contains("comes back in your review") && !text.contains("Not quite"),
            "\(text)")
    }

    /// Two consoles count update ids from 1: their seeds still differ, so their deals do.
    @Test func seedsDifferBetweenChatsWithTheSameUpdateID() {
        #expect(Bot.seed(updateID: 1, chatID: 1) != Bot.seed(updateID: 1, chatID: 2))
        #expect(Bot.seed(updateID: 1, chatID: 1) != Bot.seed(updateID: 2, chatID: 1))
    }

    /// Admin texts: "/broadcast" alone said "I didn't send anything — " with nothing after the
    /// dash; "to 1  learner (everyone)" had a double space.
    @Test func adminBroadcastTextsReadWell() {
        struct Usage {
            var usage = true
            var hasWhy = false
            var why = ""
        }
        let usage = p.prompts.render("admin_broadcast", Usage())
        #expect(!usage.contains("I didn't send anything"))
        #expect(BroadcastDraft.parse("", states: []) == .failure(.empty))
        #expect(BroadcastDraft.parse("all   ", states: []) == .failure(.noNote(after: "all")))
        #expect(
            BroadcastDraft.parse("all  Hi there ", states: [])
                == .success(BroadcastDraft(stateCode: nil, text: "Hi there")))
        #expect(
            BroadcastDraft.make(to: "all", text: String(repeating: "x", count: 3_001), states: [])
                == .failure(.tooLong(3_001)))
    }

    /// Issue #39: "/broadcast Hi everyone …" went to Hawaii and "/broadcast in 10 minutes …" to
    /// Indiana. In a chat line a two-letter state is its code in capitals.
    @Test func aBroadcastStartingWithAnEnglishWordIsNotSentToAState() {
        let names = [
            "HI": "Hawaii", "IN": "Indiana", "OK": "Oklahoma", "ME": "Maine", "OR": "Oregon", "OH": "Ohio",
            "TX": "Texas",
        ]
        let states = names.keys.sorted().map { code in
            StateInfo(
                code: code, name: names[code]!, timeZones: ["America/Chicago"], minPermitAge: 15, handbook: "H",
                launch: true,
                confidence: .high, note: nil, test: TestFormat(questions: 10, passCorrect: 7, sections: []))
        }
        for line in [
            "Hi everyone, new questions are in", "in 10 minutes the bot restarts", "ok folks", "me again",
            "oh and one more",
        ] {
            guard case .failure(.unknownAudience) = BroadcastDraft.parse(line, states: states) else {
                Issue.record("\(line) was read as a state")
                continue
            }
        }
        #expect(
            BroadcastDraft.parse("HI Aloha, new Hawaii questions", states: states)
                == .success(BroadcastDraft(stateCode: "HI", text: "Aloha, new Hawaii questions")))
        #expect(
            BroadcastDraft.parse("TX New questions", states: states)
                == .success(BroadcastDraft(stateCode: "TX", text: "New questions")))
        #expect(
            BroadcastDraft.make(to: "tx", text: "From the command line", states: states)
                == .success(BroadcastDraft(stateCode: "TX", text: "From the command line")))
    }
}
