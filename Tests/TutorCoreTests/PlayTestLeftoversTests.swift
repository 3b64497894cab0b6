import Foundation
import Testing

@testable import TutorCore

/// Issue #43, from the four teens' week replayed: what they typed or looked for and didn't get.
struct PlayTestLeftoversTests {
    func reduce(_ s: inout ChatState, _ e: Event, friends: [FriendSummary]? = nil) -> [Effect] {
        var ctx = Sample.context()
        if let friends { ctx.friends = friends }
        let (next, effects) = Dialogue.reduce(s, e, ctx)
        s = next
        return effects
    }

    func sent(_ effects: [Effect]) -> [Reply] {
        effects.compactMap { if case .send(let r) = $0 { r } else { nil } }
    }

    func home() -> ChatState {
        var s = Sample.newChat()
        _ = reduce(&s, .commandSent(.start, payload: "NY"))
        return s
    }

    /// Sam's challenge came as news and scrolled away: Friends offers it again until Riley plays it.
    @Test func aFriendsOpenChallengeIsOnTheFriendsScreen() throws {
        var s = LeagueScreenTests.chat(xp: 100)
        var sam = LeagueScreenTests.friend(501, "Sam", xp: 200)
        sam.openChallenge = String(repeating: "A", count: 22)
        let riley = LeagueScreenTests.friend(502, "Riley", xp: 50)
        let effects = reduce(
            &s, .buttonTapped(callbackID: "f", action: .menu(.friends), messageID: 3), friends: [sam, riley])
        let (_, buttons) = try #require(LeagueScreenTests.screen(effects))
        let play = buttons.flatMap { $0 }.filter { if case .playChallenge = $0.label { true } else { false } }
        #expect(play.count == 1, "one open challenge, Sam's")
        #expect(play.first?.label == .playChallenge(name: "Sam"))
        let url = try #require(play.first?.url, "a link button")
        #expect(url.hasSuffix(String(repeating: "A", count: 22)), "the link plays Sam's challenge: \(url)")
        #expect(buttons.first == play.first.map { [$0] }, "first, above the league's buttons")
    }

    /// "this is boring lol" and "bruh" on home got "didn't catch that" and the 15-button home again.
    @Test func aBoredTeenIsOfferedAGameNotTheWholeHomeAgain() throws {
        for text in ["this is boring lol", "bruh", "ugh"] {
            var s = home()
            let replies = sent(reduce(&s, .textSent(text)))
            #expect(replies.count == 1, "\(text): one line, not a notice and home")
            let reply = try #require(replies.first)
            #expect(reply.message == .notice(.soundsBored), "\(text)")
            let actions = reply.buttons.flatMap { $0 }.map(\.action)
            #expect(actions.contains(.menu(.timedChallenge)) && actions.contains(.menu(.livesChallenge)))
            #expect(actions.count <= 4, "\(text): a few buttons, not the home's fifteen")
        }
        // A question about driving that happens to say "ugh" is still a question.
        var s = home()
        let asked = sent(reduce(&s, .textSent("ugh what does a yellow diamond sign mean and why")))
        #expect(!asked.contains { $0.message == .notice(.soundsBored) })
    }

    /// "next" under a quiz's results opened the next lesson without a word: it is another round,
    /// as the results' own button says.
    @Test func nextUnderResultsIsAnotherRound() throws {
        var s = home()
        _ = reduce(&s, .buttonTapped(callbackID: "q", action: .menu(.quickQuiz), messageID: 2))
        var taps = 0
        while let quiz = s.session.quiz, taps < 60 {
            taps += 1
            if quiz.phase == .answered {
                _ = reduce(
                    &s, .buttonTapped(callbackID: "n", action: .next(quiz: quiz.id, question: quiz.index), messageID: 4)
                )
                continue
            }
            _ = reduce(
                &s,
                .buttonTapped(
                    callbackID: "a", action: .answer(quiz: quiz.id, question: quiz.index, option: 0), messageID: 4))
        }
        #expect(s.session.screen == .results)
        for text in ["next", "nxt", "again", "one more"] {
            var after = s
            _ = reduce(&after, .textSent(text))
            #expect(after.session.screen == .quiz && after.session.quiz?.mode == .quick, "\(text): another quick quiz")
            #expect(after.session.lesson == nil, "\(text): no lesson opened")
        }
    }

    /// A New York re-taker typed "NY", got "New York — is that right?", typed "ya", then "yes":
    /// "I couldn't find that state" both times.
    @Test func yesUnderIsThatRightTakesTheState() throws {
        for (answer, expected) in [("ya", "NY"), ("yes", "NY"), ("Yep!", "NY"), ("nope", nil)] {
            var s = Sample.newChat()
            _ = reduce(&s, .commandSent(.start, payload: nil))
            let asked = sent(reduce(&s, .textSent("NY")))
            #expect(asked.contains { if case .confirmState = $0.message { true } else { false } })
            let replies = sent(reduce(&s, .textSent(answer)))
            #expect(s.learner.stateCode == expected, "\(answer)")
            #expect(!replies.contains { $0.message == .notice(.stateNotFound) }, "\(answer)")
            if expected == nil { #expect(s.session.screen == .typingState, "\(answer): asked again") }
        }
    }

    /// A re-taker typed "progress" mid-quiz and got "didn't catch that" ("home" worked there).
    @Test func progressTypedMidQuizShowsProgressAndTheQuizWaits() throws {
        var s = home()
        _ = reduce(&s, .buttonTapped(callbackID: "q", action: .menu(.quickQuiz), messageID: 2))
        let quiz = try #require(s.session.quiz)
        let replies = sent(reduce(&s, .textSent("progress")))
        #expect(replies.contains { if case .progress = $0.message { true } else { false } })
        #expect(s.session.quiz?.id == quiz.id, "the quiz waits behind Continue")
    }
}
