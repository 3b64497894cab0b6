import Foundation
import Testing

@testable import TutorCore

/// What four people met playing for 7 simulated days (second walkthrough). Each test failed on
/// the build they played.
@Suite struct WalkthroughRound2Tests {
    let w = WalkthroughTests()

    func isHome(_ m: Message) -> Bool {
        if case .home = m { return true }
        return false
    }

    /// "home" typed on a flashcard said "All caught up! … 0 cards by tomorrow" while cards were
    /// due, and stayed there (all three learners who tried it).
    @Test func homeTypedOnAFlashcardGoesHomeAndNeverSaysAllCaughtUpWhileCardsAreDue() throws {
        var s = w.started()
        for (i, id) in (1...4).map({ "u-t-\($0)" }).enumerated() {
            s = w.inQuiz([id], from: s)
            s.session.quiz?.order = [0, 1, 2, 3]
            _ = w.reduce(
                &s, .buttonTapped(callbackID: "a\(i)", action: .answer(quiz: 9, question: 0, option: 3), messageID: 5))
        }
        let tomorrow = WalkthroughTests.t0.addingTimeInterval(86_400)
        _ = w.reduce(&s, .commandSent(.cards, payload: nil), at: tomorrow)
        #expect(s.session.cards != nil)
        let left = w.messages(w.reduce(&s, .textSent("home"), at: tomorrow))
        #expect(s.session.cards == nil && s.session.screen == .home)
        #expect(left.contains(where: isHome), "home, as asked")
        #expect(
            !left.contains {
                if case .flashcardsDone = $0 { return true }
                return false
            }, "nothing reviewed: no summary at all")
        // /home does the same (the play-test typed it mid-quiz and was told "didn't catch that").
        _ = w.reduce(&s, .commandSent(.cards, payload: nil), at: tomorrow)
        let viaCommand = w.messages(w.reduce(&s, .commandSent(.home, payload: nil), at: tomorrow))
        #expect(s.session.cards == nil && s.session.screen == .home && viaCommand.contains(where: isHome))

        // One card reviewed, then "Done for now": the summary counts the cards still due.
        _ = w.reduce(&s, .commandSent(.cards, payload: nil), at: tomorrow)
        let run = try #require(s.session.cards)
        _ = w.reduce(
            &s, .buttonTapped(callbackID: "s", action: .showCard(seq: run.seq, index: 0), messageID: 7), at: tomorrow)
        _ = w.reduce(
            &s, .buttonTapped(callbackID: "r", action: .rateCard(seq: run.seq, index: 0, rating: .good), messageID: 7),
            at: tomorrow)
        let done = w.messages(
            w.reduce(&s, .buttonTapped(callbackID: "d", action: .menu(.doneForNow), messageID: 7), at: tomorrow))
        guard case .flashcardsDone(let summary) = done.first else {
            Issue.record("no summary")
            return
        }
        #expect(summary.dueNow == 3 && summary.dueTomorrow >= 3, "the 3 cards still due count: \(summary)")
    }

    /// Reminder times were only 3-8 pm, and "4pm" or "7:30" typed in settings was not understood.
    @Test func reminderTimesCanBeTypedAndCoverTheDay() {
        #expect(
            Nudges.choices.first == 8 * 60 && Nudges.choices.contains(12 * 60) && Nudges.choices.last == 20 * 60 + 30)
        #expect(Nudges.choices.allSatisfy(Nudges.isAllowed))
        let typed: [(String, Int?)] = [
            ("4pm", 16 * 60), ("4 PM", 16 * 60), ("4:30pm", 16 * 60 + 30), ("16:00", 16 * 60), ("7:30", 19 * 60 + 30),
            ("7", 19 * 60), ("9am", 9 * 60), ("10:15", 10 * 60 + 15), ("noon", 12 * 60), ("12pm", 12 * 60),
            ("17", 17 * 60), ("25:00", nil), ("4:7", nil), ("hello", nil), ("13pm", nil),
        ]
        for (text, minute) in typed { #expect(Nudges.parseTime(text) == minute, "\(text)") }

        var s = w.started()
        _ = w.reduce(&s, .buttonTapped(callbackID: "st", action: .menu(.settings), messageID: 1))
        _ = w.reduce(&s, .textSent("4:30pm"))
        #expect(s.learner.nudgeMinute == 16 * 60 + 30)
        let quiet = w.messages(w.reduce(&s, .textSent("11pm")))
        #expect(
            quiet.first == .notice(.reminderQuietHours) && s.learner.nudgeMinute == 16 * 60 + 30,
            "quiet hours are said, not silently moved")
        // Anywhere else a time is just text (a typed answer, a state name): settings only.
        _ = w.reduce(&s, .buttonTapped(callbackID: "h", action: .menu(.home), messageID: 1))
        _ = w.reduce(&s, .textSent("5pm"))
        #expect(s.learner.nudgeMinute == 16 * 60 + 30)
    }

    /// "idk" was marked wrong without a word about it.
    @Test func idkShowsTheAnswerAndSaysItCountsAsAMiss() throws {
        var s = w.inQuiz(["u-t-1"], from: w.started())
        s.session.quiz?.order = [0, 1, 2, 3]
        let effects = w.reduce(&s, .textSent("idk"))
        guard case .answered(let view) = w.messages(effects).first else {
            Issue.record("no answer shown")
            return
        }
        #expect(view.skipped && !view.isCorrect)
        #expect(s.progress["u-t-1"]?.missed == true, "it comes back in review")
    }

    /// A California crammer typed a question on Progress and was shown Home ("Here's where we
    /// were 👇" — it wasn't); Progress is shown again, as Settings is.
    @Test func strayTextOnProgressShowsProgressAgain() {
        var s = w.started()
        _ = w.reduce(&s, .commandSent(.progress, payload: nil))
        let stray = w.messages(w.reduce(&s, .textSent("whats the speed limit near a school")))
        #expect(stray.first == .notice(.askedAQuestion), "a typed question is told where to learn it")
        if case .progress = stray.last {
        } else {
            Issue.record("Progress, not \(String(describing: stray.last)), after stray text on Progress")
        }
        #expect(s.session.screen == .progress)
    }

    /// Settings → Change state had no way out but picking a state again: a learner with a state
    /// gets "↩️ Keep New York" (back to Settings, nothing changed); a newcomer's picker has none.
    @Test func theStatePickerHasAWayBackThatChangesNothing() throws {
        var s = w.started()
        let before = s.learner
        let picker = w.reduce(&s, .buttonTapped(callbackID: "c", action: .menu(.changeState), messageID: 3))
        guard case .send(let reply)? = picker.last, case .pickState = reply.message else {
            Issue.record("no picker: \(picker)")
            return
        }
        let keep = try #require(
            reply.buttons.joined().first {
                if case .keepState = $0.label { return true }
                return false
            })
        #expect(keep == Button(.keepState(name: "New York"), .menu(.settings)))
        let back = w.messages(w.reduce(&s, .buttonTapped(callbackID: "k", action: keep.action, messageID: 3)))
        if case .settings = back.last {} else { Issue.record("Settings after Keep, got \(back)") }
        #expect(s.learner.stateCode == before.stateCode && s.session.screen == .settings)
        var fresh = Sample.newChat()
        let first = w.reduce(&fresh, .commandSent(.start, payload: nil))
        let buttons = first.compactMap {
            if case .send(let r) = $0, case .pickState = r.message { return r.buttons } else { return nil }
        }.joined().joined()
        #expect(
            !buttons.isEmpty
                && !buttons.contains {
                    if case .keepState = $0.label { return true }
                    return false
                })
    }

    @Test func aTypedQuestionIsToldWhereToLearnItAndOtherStrayTextIsNot() {
        for q in [
            "whats the speed limit near a school", "How do I parallel park", "can i drive alone at 15?",
            "speed limit school zone?",
        ] {
            #expect(Reduction.readsAsAQuestion(q), "\(q)")
        }
        for t in ["hmm", "lol what", "ok cool thanks", "what?", "yield sign", "stop", "wait for the green"] {
            #expect(!Reduction.readsAsAQuestion(t), "\(t)")
        }
        // A play-tester's "wait whats a yield sign look like" mid-quiz got "your question is just above".
        for q in ["wait whats a yield sign look like", "ok so how do i merge", "sorry quick question where do i park"] {
            #expect(Reduction.readsAsAQuestion(q), "\(q)")
        }
        // A play-test's questions after a story or a first sentence were dropped mid-quiz.
        for q in [
            "wait in cali it was 25 near schools. why is it 15 here", "my mom honked at a guy, is honking illegal",
            "honking at people is illegal or nah",
        ] {
            #expect(Reduction.readsAsAQuestion(q), "\(q)")
        }
        var s = w.started()
        _ = w.reduce(&s, .commandSent(.settings, payload: nil))
        #expect(w.messages(w.reduce(&s, .textSent("hmm"))).first == .notice(.didNotCatchThat))
    }

    /// At a question with no options, a real question is answered and the open one shown again, not
    /// graded (a play-tester's "wait sorry before i answer, what does…?" was marked wrong, cut short);
    /// a short guess with a question mark is still an answer.
    @Test func aRealQuestionTypedAtAFillInIsAnsweredNotGraded() {
        var s = w.inQuiz(["u-fill-1"], from: w.started())
        _ = w.reduce(&s, .buttonTapped(callbackID: "r", action: .menu(.resume), messageID: 1))
        var ctx = WalkthroughTests.ctx()
        ctx.asked = AskLookup(best: AskRef("u-fill-1"), stateCode: "NY")
        let question = "wait sorry before i answer, what does a flashing yellow light mean?"
        let (asked, effects) = Dialogue.reduce(s, .textSent(question), ctx)
        #expect(asked.session.quiz?.answers.isEmpty == true, "not graded")
        let said = w.messages(effects)
        #expect(said.contains { if case .askAnswer = $0 { return true } else { return false } })
        #expect(said.contains { if case .question = $0 { return true } else { return false } }, "shown again")
        let (guessed, _) = Dialogue.reduce(asked, .textSent("is it crossing?"), ctx)
        #expect(guessed.session.quiz?.answers.last?.correct == true)
    }

    /// "wait is it b" mid-quiz is B (it was taken for a question and declined); "is it a stop sign?"
    /// is not a letter.
    @Test func aLetterSaidInAFewWordsIsThatOption() {
        #expect(Reduction.optionInWords("wait is it b") == 1)
        #expect(Reduction.optionInWords("i think c lol") == 2)
        #expect(Reduction.optionInWords("is it a stop sign") == nil)
        #expect(Reduction.optionInWords("b") == nil, "a bare letter is typedOption's")
        var s = w.inQuiz(["u-sg-1"], from: w.started())
        _ = w.reduce(&s, .buttonTapped(callbackID: "r", action: .menu(.resume), messageID: 1))
        _ = w.reduce(&s, .textSent("wait is it b"))
        #expect(s.session.quiz?.answers.count == 1)
    }

    /// "thx" and "ok cool" on a menu get a short reply (a play-tester got "didn't catch that" and
    /// the whole menu again).
    @Test func smallTalkOnAMenuGetsAShortReply() {
        var s = w.started()
        #expect(w.messages(w.reduce(&s, .textSent("thx"))) == [.notice(.youreWelcome)])
        #expect(w.messages(w.reduce(&s, .textSent("ok cool"))) == [.notice(.acknowledged)])
        // Small talk in any order of its words, and in the sign gallery too (a play-tester's "k thx"
        // there got "didn't catch that" and the gallery's menu again).
        #expect(w.messages(w.reduce(&s, .textSent("lol ok"))) == [.notice(.acknowledged)])
        #expect(w.messages(w.reduce(&s, .textSent("ok cool ty bye"))) == [.notice(.youreWelcome)])
        _ = w.reduce(&s, .textSent("signs"))
        #expect(s.session.screen == .gallery)
        #expect(w.messages(w.reduce(&s, .textSent("k thx"))) == [.notice(.youreWelcome)])
        // "u there" is answered by Home, "what can u do" by Help, from the gallery as from Home.
        _ = w.reduce(&s, .textSent("u there"))
        #expect(s.session.screen == .home)
        _ = w.reduce(&s, .textSent("signs"))
        _ = w.reduce(&s, .textSent("what can u do"))
        #expect(s.session.screen == .help)
        // A nervous "do u think ill pass??" is a question about the chance of passing.
        _ = w.reduce(&s, .textSent("do u think ill pass?? im so nervous"))
        #expect(s.session.screen == .progress)
        // A sentence that only shares small talk's words is not small talk.
        #expect(w.messages(w.reduce(&s, .textSent("ok so what about the test"))) != [.notice(.acknowledged)])
    }
}
