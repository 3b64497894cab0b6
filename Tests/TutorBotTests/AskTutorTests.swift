import FakeBotAPI
import Foundation
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// Ask the tutor: a question typed in a teen's words gets the card that answers it, for their
/// state, through the real bot (libcurl, SQLite, the FTS5 index) against the fake Bot API.
@Suite(.serialized) struct AskTutorTests {
    let chat: Int64 = 7301

    func texan() throws -> Harness { try learner { h in #expect(h.fake.press("Texas", chat: chat)) } }

    /// A new learner at Home, the state picked by `pick` at the picker.
    func learner(_ pick: (Harness) -> Void) throws -> Harness {
        let h = try Harness()
        try h.start()
        h.fake.say("/start", chat: chat)
        #expect(h.waitForText(chat, "Which state"))
        pick(h)
        #expect(h.waitForText(chat, "Questions seen"))
        return h
    }

    @Test func aTypedQuestionGetsTheCardThatAnswersItWithItsButtons() async throws {
        let h = try texan()
        h.fake.say("can i turn right on red??", chat: chat)
        #expect(h.waitForText(chat, "📘"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📘") })
        #expect(answer.text.lowercased().contains("red"), "\(answer.text)")
        #expect(answer.text.lowercased().contains("stop"), "right on red means a full stop first: \(answer.text)")
        let labels = answer.buttons.joined().map(\.text)
        #expect(labels.contains("✍️ Quiz me on this") && labels.contains("👍") && labels.contains("👎"), "\(labels)")
        // 👎 is counted for the content writers; the question is not in the unanswered list.
        #expect(h.fake.press("👎", chat: chat))
        let store = try #require(h.bot?.store)
        #expect(h.fake.wait { ((try? store.unhelpfulAnswers()) ?? []).count == 1 })
        #expect(try store.unansweredQuestions().isEmpty)
        // "Quiz me on this": 2-3 questions on that card.
        #expect(h.fake.press("✍️ Quiz me on this", chat: chat))
        #expect(h.waitForText(chat, "Q1/"))
        let first = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Q1/") })
        #expect(first.text.contains("Q1/2") || first.text.contains("Q1/3"), "\(first.text)")
        await h.kill()
    }

    /// A question about the test that its card doesn't answer (retakes, online, what to bring) says
    /// so before the card: a play-tester got the same card for five such questions, as if it answered.
    @Test func aTestQuestionTheCardDoesNotAnswerSaysSo() async throws {
        let h = try texan()
        h.fake.say("if i fail the permit test can i take it again the same day", chat: chat)
        #expect(h.waitForText(chat, "I don't have that detail for Texas"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("🤷") })
        #expect(answer.text.contains("The Texas permit test"), "\(answer.text)")
        h.fake.say("how many questions are on the test", chat: chat)
        #expect(
            h.fake.wait { h.fake.messages(chat: chat).filter { $0.text.contains("The Texas permit test") }.count == 3 })
        #expect(!(h.fake.messages(chat: chat).last?.text.contains("🤷") ?? true))
        await h.kill()
    }

    /// Every learner is a teen: the adults' limit comes after theirs (a 15-year-old asking the
    /// "drunk limit" got only 0.08%), and a limit of 0 reads as any alcohol at all, not "0%".
    @Test func aTeenAskingTheDrunkLimitGetsTheUnder21LimitFirst() async throws {
        let h = try learner { h in h.fake.say("washington", chat: chat) }
        h.fake.say("whats the drunk limit", chat: chat)
        #expect(h.waitForText(chat, "📍"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📍") }).text
        let teen = try #require(
            answer.range(of: "under 21 is over the limit at a blood alcohol concentration of 0.02%"), "\(answer)")
        let adult = try #require(answer.range(of: "21 or older"), "\(answer)")
        #expect(teen.lowerBound < adult.lowerBound, "\(answer)")
        // A limit of 0 reads as any alcohol at all (Texas), not "over the limit at 0%".
        let texas = try #require(h.bot?.banks.states.first { $0.code == "TX" })
        let zero = try #require(h.bot?.banks.stateRules.sentence("under21BAC", state: texas))
        #expect(zero.contains("any alcohol at all") && !zero.contains("0%"), "\(zero)")
        await h.kill()
    }

    @Test func anotherStatesRuleIsAnsweredForThatStateAndSaysSo() async throws {
        let h = try texan()
        h.fake.say("can you turn left on red in missouri?", chat: chat)
        #expect(h.waitForText(chat, "📘"))
        let answer = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📘") })
        #expect(answer.text.contains("Missouri"), "\(answer.text)")
        h.fake.say("how many questions are on the test", chat: chat)
        #expect(h.fake.wait { h.fake.messages(chat: chat).filter { $0.text.contains("📘") }.count == 2 })
        let format = try #require(h.fake.messages(chat: chat).last { $0.text.contains("📘") })
        #expect(
            format.text.contains("30 questions") && format.text.contains("21 right"), "Texas's own test: \(format.text)"
        )
        await h.kill()
    }

    /// "what about in california" asks the last question again for California (play-testers'
    /// follow-ups were all declined); a follow-up of a follow-up still reaches the question.
    @Test func aFollowUpNamingAStateAsksTheLastQuestionForThatState() async throws {
        let h = try texan()
        h.fake.say("is there a passenger limit for new drivers", chat: chat)
        #expect(h.waitForText(chat, "In Texas"))
        h.fake.say("what about in ohio", chat: chat)
        #expect(h.waitForText(chat, "In Ohio, a new teen driver"))
        h.fake.say("and oregon?", chat: chat)
        #expect(h.waitForText(chat, "In Oregon, a new teen driver"))
        let ohio = try #require(h.fake.messages(chat: chat).last { $0.text.contains("In Ohio, a new teen driver") })
        #expect(ohio.text.contains("at most 1 passenger who is not family"), "\(ohio.text)")
        let oregon = try #require(h.fake.messages(chat: chat).last { $0.text.contains("In Oregon, a new teen driver") })
        #expect(oregon.text.contains("may carry no passengers who are not family"), "a value of 0: \(oregon.text)")
        // "wait what about illinois" is a follow-up too (it got the off-topic line).
        h.fake.say("wait what about illinois", chat: chat)
        #expect(
            h.waitForText(chat, "Illinois Rules of the Road"), "\(h.fake.messages(chat: chat).suffix(2).map(\.text))")
        let illinois = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Illinois Rules of the Road") })
        #expect(illinois.text.contains("passenger"), "\(illinois.text)")
        await h.kill()
    }

    @Test func offTopicIsDeclinedAndCountedAsUnanswered() async throws {
        let h = try texan()
        h.fake.say("whats the capital of france", chat: chat)
        #expect(h.waitForText(chat, "I only know the permit test"))
        h.fake.say("Whats the capital of France  ", chat: chat)
        #expect(
            h.fake.wait {
                h.fake.messages(chat: chat).filter { $0.text.contains("I only know the permit test") }.count == 2
            })
        let store = try #require(h.bot?.store)
        // The same words, case and spacing aside, are one line of the list, asked twice.
        #expect(
            h.fake.wait {
                (try? store.unansweredQuestions()) == [
                    TutorStore.AskedQuestion(text: "whats the capital of france", times: 2)
                ]
            })
        #expect(!h.fake.messages(chat: chat).contains { $0.text.contains("📘") }, "no card that merely shares a word")
        // Plainly off-topic, though not put as a question; a bare letter on Home is no question at all.
        h.fake.say("tell me a joke", chat: chat)
        #expect(
            h.fake.wait {
                h.fake.messages(chat: chat).filter { $0.text.contains("I only know the permit test") }.count == 3
            })
        #expect(
            h.fake.wait { (try? store.hasPendingReplies(chatID: chat)) == false }, "stray text waits for queued replies"
        )
        h.fake.say("c", chat: chat)
        #expect(h.waitForText(chat, "didn't catch that"))
        // Kept 14 days at most.
        #expect(h.fake.wait { (try? store.unansweredQuestions().count) == 2 })
        #expect(try store.prune(now: Date().addingTimeInterval(15 * 86_400)).askedQuestions == 3)
        #expect(try store.unansweredQuestions().isEmpty)
        await h.kill()
    }

    @Test func midQuizAnAnswerStaysAnAnswerAndAQuestionIsAnsweredThenTheQuestionComesBack() async throws {
        let h = try texan()
        #expect(h.fake.press("⚡ Quick quiz", chat: chat))
        #expect(h.waitForText(chat, "Q1/10"))
        // Stray text waits for the chat's queued replies to go (backpressure): let Q1's row go first.
        let store = try #require(h.bot?.store)
        #expect(h.fake.wait { (try? store.hasPendingReplies(chatID: chat)) == false })
        // Not a question: pointed back to the open question, no card.
        h.fake.say("stop sign", chat: chat)
        #expect(h.waitForText(chat, "just above"), "\(h.fake.messages(chat: chat).suffix(3).map(\.text))")
        #expect(!h.fake.messages(chat: chat).contains { $0.text.contains("📘") && !$0.text.contains("Q1/10") })
        // A real question: answered, then Q1 again.
        h.fake.say("what does a yellow diamond sign mean?", chat: chat)
        #expect(h.fake.wait { h.fake.messages(chat: chat).filter { $0.text.contains("Q1/10") }.count == 2 })
        let texts = h.fake.messages(chat: chat).map(\.text)
        let answerAt = try #require(texts.lastIndex { $0.contains("📘") })
        #expect(
            texts.lastIndex { $0.contains("Q1/10") }! > answerAt, "the open question is shown again after the answer")
        // A letter still answers it.
        h.fake.say("b", chat: chat)
        #expect(
            h.fake.wait { h.fake.messages(chat: chat).contains { $0.text.contains("Q1/10") && $0.text.contains("📘") } },
            "the question is edited to show its answer")
        // Asked at the answered question: the answer and a line with Next, not the question again.
        let before = h.fake.messages(chat: chat).filter { $0.text.contains("Q1/10") }.count
        h.fake.say("how far do i park from a fire hydrant?", chat: chat)
        #expect(h.waitForText(chat, "Back to your quiz"))
        let back = try #require(h.fake.messages(chat: chat).last)
        #expect(back.text.contains("Back to your quiz") && back.buttons.joined().contains { $0.text.contains("Next") })
        #expect(h.fake.messages(chat: chat).filter { $0.text.contains("Q1/10") }.count == before)
        #expect(h.fake.press("Next ➡️", chat: chat))
        #expect(h.waitForText(chat, "Q2/10"))
        await h.kill()
    }

    @Test func inAPracticeTestAQuestionWaitsForTheEnd() async throws {
        let h = try texan()
        #expect(h.fake.press("📝 Practice test", chat: chat))
        #expect(
            h.fake.wait {
                h.fake.messages(chat: chat).contains { $0.buttons.joined().contains { $0.text.hasPrefix("Test 1") } }
            })
        #expect(h.fake.press("Test 1", chat: chat))
        #expect(h.waitForText(chat, "Q1/30"))
        h.fake.say("what does a yellow diamond sign mean?", chat: chat)
        #expect(h.waitForText(chat, "after the test"))
        #expect(!h.fake.messages(chat: chat).contains { $0.text.contains("📘") && !$0.text.contains("Q1/30") })
        await h.kill()
    }
}

/// The question set in Tests/AskSet (teen-typed questions over 19 topics and 10+ states, and
/// off-topic ones), answered by the index alone. Half of it was held out while the ranking was tuned.
@Suite struct AskSetTests {
    /// Whatever is typed, the look-up answers or declines; it never throws (FTS5's query syntax
    /// never sees the raw text, only the index's own terms, quoted).
    @Test func anyTextIsLookedUpWithoutAnError() throws {
        let (banks, _) = try BankFiles.load("\(repoRoot)/Banks")
        let index = try AskIndex(banks: try #require(banks))
        let nasty = [
            "", " ", "?", "\"", "\"stop\" OR", "NEAR(a b)", "AND OR NOT", "stop*", "^turn", "col:value",
            "'; DROP TABLE ask; --",
            String(repeating: "sign ", count: 2_000), "🚗🚦🛑", "e\u{301}\u{301}\u{301}", "\u{0000}\u{0001}", "ｓｔｏｐ ｓｉｇｎ",
            "ＲＩＧＨＴ ＯＦ ＷＡＹ", "0.08 0.08.08 ..", "u-turn U-TURN k-", "new york new york texas dc washington dc",
        ]
        for text in nasty {
            let got = try index.lookUp(text, learnerState: "TX")
            if let best = got.best { #expect(index.corpus.documents.contains { $0.ref == best }, "\(text)") }
        }
        #expect(try index.lookUp("what's the permit age in washington dc", learnerState: "TX").stateCode == "DC")
        #expect(try index.lookUp("can you turn left on red in west virginia", learnerState: "TX").stateCode == "WV")
    }

    /// Chat about life is declined, however many words it shares with a card ("who made you" and
    /// "made up of", "my parents are fighting" and "fights the system"); the same words about the
    /// road still get their card ("is that real" about fines, "u" as "you" before "turn left").
    @Test func chatAboutLifeIsDeclinedAndRoadWordsStillAnswer() throws {
        let (banks, _) = try BankFiles.load("\(repoRoot)/Banks")
        let index = try AskIndex(banks: try #require(banks))
        for chat in [
            "who made you", "what should i eat for dinner", "my parents are fighting", "im gonna fail",
            "whats the meaning of life", "im so tired of studying", "are you a real person",
            // Words the banks use, but the question as a whole reads like everyday English.
            "recommend me a good book, i like fantasy",
        ] {
            let got = try index.lookUp(chat, learnerState: "TX")
            #expect(got.best == nil, "\(chat) → \(got.best?.raw ?? "")")
        }
        #expect(try index.lookUp("fines double in work zones is that real", learnerState: "TX").best != nil)
        #expect(try index.lookUp("can u turn left on red in missouri", learnerState: "IL").stateCode == "MO")
        #expect(try index.lookUp("where am i allowed to do a u turn", learnerState: "TX").best != nil)
        // One word, if it is the road's own ("passengers?" weighs 2.4 and was declined at 2.5).
        // (Washington's rule and its quiz questions on passengers score within 0.1% of each other.)
        let passengers = try index.lookUp("passengers?", learnerState: "WA").best?.raw ?? "declined"
        #expect(["rule:WA:newDriver", "wa-007", "wa-008", "l-wa-2-2"].contains(passengers), "\(passengers)")
        // Failing the permit test is about the test (the state's card), not a car's failing parts.
        #expect(try index.lookUp("what happens if i fail the test", learnerState: "TX").best?.raw == "state:TX")
        let manualCar = try index.lookUp("which gear do i leave a manual car in when i park", learnerState: "TX")
        #expect(manualCar.best?.raw.hasPrefix("state:") == false, "a manual car is not the handbook")
        // A word rare in the banks and in English alike ("psi") says nothing either way: it used to
        // count as chat and the tire card was declined.
        #expect(
            try index.lookUp("where do i find how much psi to put in my tires", learnerState: "WA").best?.raw
                == "l-vehiclecontrol-1-2")
        // Florida's permit is a "learner's license" in its handbook; "w" is "with".
        #expect(
            try index.lookUp("can i drive my friends around w my permit", learnerState: "FL").best?.raw == "l-fl-1-3")
        // A second play-test's permit questions (they got Scott's Law, a hangover, Move Over).
        let late = try index.lookUp("how late can i drive", learnerState: "IL").best?.raw
        #expect(["l-il-2-2", "rule:IL:newDriver"].contains(late ?? ""), "\(late ?? "declined")")
        #expect(try index.lookUp("how many ppl can be in the car w me", learnerState: "OH").best?.raw == "l-oh-2-3")
        let parent = try index.lookUp("do i need a parent in the car", learnerState: "IL").best?.raw
        #expect(parent?.hasPrefix("rule:IL:supervised") == true || parent?.hasPrefix("il-") == true, "\(parent ?? "")")
        // An everyday word the banks lack is not a typo of one of theirs.
        #expect(AskQuery("my grand dad drives", corpus: index.corpus).groups.first == ["grand"])
        // A misspelt slang word is still the slang word; a plural's short stem is corrected (a
        // blind set's "breathalizer" and "high beems" were declined), but not a word of English.
        #expect(AskQuery("refuse a breathalizer", corpus: index.corpus).groups.last?.contains("breath") == true)
        #expect(AskQuery("high beems", corpus: index.corpus).groups.last == ["beam"])
        #expect(AskQuery("who sings highway to hell", corpus: index.corpus).groups.first == ["sing"])
        #expect(try index.lookUp("when do i use high beems", learnerState: "CO").best != nil)
        // An everyday word of chat is no reason to decline a road question ("bad weather" was declined
        // whatever else it said); without a road word it still is chat.
        #expect(try index.lookUp("how do i drive in bad weather", learnerState: "TX").best != nil)
        #expect(!AskQuery("can i drive my friends to the mall", corpus: index.corpus).offTopic)
        #expect(!AskQuery("can i take the permit test in spanish", corpus: index.corpus).offTopic)
        #expect(AskQuery("translate hello to spanish", corpus: index.corpus).offTopic)
        for chat in ["whats the weather today", "recommend me a song", "how much is car insurance for a 16 year old"] {
            #expect(try index.lookUp(chat, learnerState: "TX").best == nil, "\(chat)")
        }
        // A state named to compare is not the state asked about ("like in cali", "the same here").
        let moved = "in cali u need 50 hours of practice, is it the same here"
        #expect(AskJudge.targetState(AskQuery(moved, corpus: index.corpus), learnerState: "AZ") == "AZ")
        let freeway = "whats the speed limit on the freeway here, in cali its 65"
        #expect(AskJudge.targetState(AskQuery(freeway, corpus: index.corpus), learnerState: "AZ") == "AZ")
        let moving = "were moving to missouri, can u turn left on red there? my dad does it here all the time"
        #expect(AskJudge.targetState(AskQuery(moving, corpus: index.corpus), learnerState: "TX") == "MO")
        // New Jersey's night limit is its own wording: no driving in those hours, not "without an adult".
        let nj = try #require(banks?.states.first { $0.code == "NJ" })
        let curfew = try #require(banks?.stateRules.sentence("newDriverNightLimit", state: nj))
        #expect(curfew.contains("may not drive from 11:01 p.m.") && !curfew.contains("without"), "\(curfew)")
        // No state's night limit claims an adult lifts it unless its own detail says who does (Texas's doesn't).
        for state in banks?.states ?? [] {
            let night = banks?.stateRules.sentence("newDriverNightLimit", state: state) ?? ""
            #expect(!night.contains("without a licensed adult"), "\(night)")
        }
        // A typo one card's asks hold too ("drivng") is still the word it misspells, in every card.
        #expect(AskQuery("hours of drivng", corpus: index.corpus).groups.last?.contains("driv") == true)
        // A word whose stem is no term is corrected as typed ("drivign" is one edit from "driving").
        #expect(AskQuery("drivign lessons", corpus: index.corpus).groups.first?.contains("driv") == true)
        // Asked about a named state, that state's card answers, not a general one sharing more words.
        // (It got the general card "report the crash to the police or your state's DMV".)
        let named = try index.lookUp(
            "how much damage does a crash need before i have to report it in illinois", learnerState: "WI")
        #expect(named.best?.raw == "rule:IL:crashReportDamage", "\(named.best?.raw ?? "declined")")
    }

    /// Greetings and questions to the bot are chat ("good morning" shares "morning" with a glare
    /// card); a question told as a story, with words no card holds, still gets its card; a scared
    /// teen's question is about the road, not feelings.
    @Test func greetingsAreChatAndStoriesStillGetTheirCard() throws {
        let (banks, _) = try BankFiles.load("\(repoRoot)/Banks")
        let index = try AskIndex(banks: try #require(banks))
        for chat in ["good morning!!", "whats ur name", "who made u", "u there?", "good night"] {
            let got = try index.lookUp(chat, learnerState: "TX")
            #expect(got.best == nil, "\(chat) → \(got.best?.raw ?? "")")
        }
        let story = try index.lookUp(
            "why does my driving teacher say to roll the window down at train tracks", learnerState: "OR")
        #expect(story.best?.raw == "l-railroads-2-4")
        let scared = try index.lookUp("im scared of the highway, which lane is for going slower", learnerState: "GA")
        #expect(scared.best != nil)
        // Nerves beside a question about the test don't decline it (a play-tester's Ohio teen was declined).
        let nervous = "how many questions are on the ohio permit test, im so nervous im going to fail"
        #expect(try index.lookUp(nervous, learnerState: "OH").best?.raw == "state:OH")
        #expect(try index.lookUp("whats ur favorite food", learnerState: "NV").best == nil)
    }

    /// The corpus's terms, worked out with each distinct word's stem remembered
    /// (`AskText.TermCache`), are exactly `AskText.terms` of every text the banks hold.
    @Test func cachedTermsAreTheTermsOfEveryBankText() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let banks = try #require(loaded)
        var cache = AskText.TermCache()
        var texts = banks.allLessons.flatMap { lesson in [lesson.title] + lesson.cards.map(\.text) }
        texts += banks.universal.flatMap { [$0.questionText, $0.explanation] }
        texts += ["4 way stop", "an 8 sided sign", "a u turns k turn", "under the influence of a 3 point"]
        for text in texts { #expect(cache.terms(text) == AskText.terms(text), "\(text)") }
    }

    /// A regression floor at the level measured when the ranking was tuned, not the goal: the
    /// goal (precision at 1 ≥ 90%, off-topic declined ≥ 95%, the state's own rule 100%) is not
    /// met yet (issue 42's note has the figures). The held-out half was never looked at while tuning.
    /// Raised with the cards' `asks` (held out: precision 74% → 82%, state's rule 85% → 91%); the
    /// retuned weights answered one more held-out off-topic question, and "numbers alone are no
    /// question about the road" then declined two more (21 → 23 of 29): that rule was found reading
    /// the whole set's misses, so the held-out off-topic figure is no longer unseen.
    /// Lowered when three fresh sets joined (set-c, set-d: longer questions told as stories, and chat
    /// sharing a road word; set-e, kept blind until the round's changes were made): on set-c and
    /// set-d alone the index scored 61.8% before those changes. The whole set now reads held out
    /// 78.3% / 77.0% / 87.5%, tuned on 80.1% / 94.7% / 87.2%.
    /// set-f joined (170 items written blind; alone it read 68.5% / 90.0% / 80.0% before this
    /// round's changes), and the question as a whole must read like the banks (`meanRoadLift`):
    /// held out 76.5% / 82.0% / 87.2%, tuned on 80.1% / 96.0% / 89.1%. set-g joined too (150 items,
    /// blind until then: 75.0% / 86.7% / 80.0% at the round's start, 75.8% / 90.0% / 80.0% at its
    /// end): held out 77.5% / 82.7% / 86.4%, tuned on 79.1% / 95.7% / 87.8%. set-h joined (160
    /// items, blind on first use: 64.6% / 86.7% / 73.3%; it asks about cards from new angles): held
    /// out 76.0% / 84.3% / 85.7%, tuned on 77.8% / 94.6% / 86.2%. The floors on the tuning half
    /// came down with the harder set, not a change of the bot. Every card then got 3-4 more `asks`
    /// (4,502, written from the cards by helpers who never saw the sets), and a general card must
    /// hold half the question's weight (a state's own card or rule still 40%): held out 78.7% /
    /// 87.6% / 85.7%, tuned on 82.0% / 94.6% / 86.2%. Then typos of slang and plurals, a named
    /// state's own cards first, and a general card saying the state's rule counted as the state's
    /// (it shows "📍 In Ohio, …" and cites Ohio's handbook): 79.5% / 87.6% / 89.1%, tuned on 83.2% /
    /// 94.6% / 90.3%. set-i joined (170 items written blind, questions first and then labelled:
    /// 78.2% / 78.3% / 91.3% before this round, 78.2% / 78.3% / 95.7% at its end): held out 79.2% /
    /// 85.9% / 90.3%, tuned on 85.3% / 92.2% / 95.2%.
    @Test func theQuestionSetIsAnsweredAtLeastAsWellAsWhenTuned() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        let index = try AskIndex(banks: try #require(banks, "\(problems.prefix(3))"))
        let items = try AskSet.load("\(repoRoot)/Tests/AskSet")
        #expect(items.filter { !$0.isOffTopic }.count >= 300 && items.filter(\.isOffTopic).count >= 50)
        #expect(Set(items.map(\.state)).count >= 10)
        let held = try AskSet.evaluate(items.filter(\.isHeldOut), index: index)
        #expect(
            held.precision >= 0.79 && held.declineRate >= 0.85 && held.stateRate >= 0.90, "held out: \(held.summary)")
        let tuned = try AskSet.evaluate(items.filter { !$0.isHeldOut }, index: index)
        #expect(
            tuned.precision >= 0.85 && tuned.declineRate >= 0.92 && tuned.stateRate >= 0.95,
            "tuned on: \(tuned.summary)"
        )
    }
}

/// A state's law from the table of rules that differ by state, where no card of the state says it
/// (#42 item 2; a Kentucky play-tester's "can i turn left on red in kentucky" got the No Left Turn sign).
@Suite struct AskStateRuleTests {
    @Test func aStatesRuleIsAnsweredFromTheTableWithEveryCaseAskedTogether() throws {
        let (loaded, _) = try BankFiles.load("\(repoRoot)/Banks")
        let banks = try #require(loaded)
        let index = try AskIndex(banks: banks)
        let got = try index.lookUp("can i turn left on red in kentucky", learnerState: "TX")
        #expect(got.best?.raw == "rule:KY:leftOnRed" && got.stateCode == "KY", "\(String(describing: got.best))")
        let text = AskSet.text(of: try #require(got.best), banks: banks)
        #expect(text.contains("one-way street onto a one-way street") && text.contains("two-way street"), "\(text)")
        // A rule's detail that its sentence already says is not said twice (a play-tester's
        // Washington answer read "…unless a sign forbids it. After a full stop, unless a sign forbids it.").
        let washington = try #require(banks.state("WA"))
        let said = try #require(banks.stateRules.sentence("leftOnRedOneWayToOneWay", state: washington))
        #expect(said.components(separatedBy: "unless a sign forbids it").count == 2, "\(said)")
        // A state whose value is not found has no such answer: nothing is said it doesn't know.
        let silent = banks.states.filter { banks.stateRules.value("leftOnRedOneWayToOneWay", state: $0.code) == nil }
        for state in silent {
            #expect(
                !index.corpus.documents.contains { $0.ref.raw == "rule:\(state.code):leftOnRed" }
                    || banks.stateRules.value("leftOnRedTwoWayToOneWay", state: state.code) != nil)
        }
        // Titled by the rules it says: Georgia's curfew hour is not confirmed, so its new-driver
        // answer (the passenger rule) is not found, nor headed, as "Night limit (curfew)".
        let georgia = try #require(index.corpus.documents.first { $0.ref.raw == "rule:GA:newDriver" })
        #expect(!georgia.titleTerms.contains("curfew") && georgia.titleTerms.contains("passenger"))
        let illinois = try #require(index.corpus.documents.first { $0.ref.raw == "rule:IL:newDriver" })
        #expect(illinois.titleTerms.contains("curfew"))
    }
}
