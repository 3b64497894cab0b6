import Foundation
import Testing

@testable import TutorCore

/// Issue #25, challenge a friend: the maker plays ten universal questions and gets a link; a friend
/// who opens it plays the same ten in the same order, once, and both hear the result.
struct ChallengeTests {
    /// Two questions in each of many topics, and a typed one that a challenge must never ask.
    static let banks: Banks = {
        let topics: [Topic] = [
            .signals, .roadSigns, .rightOfWay, .parking, .turning, .passing, .laneUse, .freeways, .railroads,
            .alcoholDrugs,
        ]
        var universal = topics.enumerated().flatMap { i, t in
            [Sample.question(i * 2, t), Sample.question(i * 2 + 1, t)]
        }
        universal.append(
            Question(
                id: "u-typed", category: .speedAndSpace, difficulty: .easy, kind: .fillIn, questionText: "Speed ___?",
                answers: ["25"], correctAnswerIndex: 0, explanation: "E", source: "S"))
        return Banks(states: [Sample.ny, Sample.ca], universal: universal, stateQuestions: [:])
    }()
    static let token = "Ab3_-Ab3_-Ab3_-Ab3_-Zz"

    static func ctx(_ now: Date = Sample.t0, seed: UInt64 = 3, token: String? = nil, lookup: ChallengeLookup? = nil)
        -> DialogueContext
    {
        var c = DialogueContext(banks: banks, now: now, seed: seed)
        c.freshToken = token
        c.challenge = lookup
        return c
    }

    /// Answers the open quiz's questions: the first `right` right, the rest wrong. Returns every effect.
    static func play(_ s: inout ChatState, right: Int, at t: Date = Sample.t0) -> [Effect] {
        var all: [Effect] = []
        var i = 0
        while let quiz = s.session.quiz, case .challenge = quiz.mode {
            let q = banks.question(quiz.currentQuestionID)!
            let option = i < right ? q.correctAnswerIndex : (q.correctAnswerIndex + 1) % q.answers.count
            var effects: [Effect]
            (s, effects) = Dialogue.reduce(
                s,
                .buttonTapped(
                    callbackID: "a\(i)", action: .answer(quiz: quiz.id, question: quiz.index, option: option),
                    messageID: 9),
                ctx(t.addingTimeInterval(Double(i) * 10)))
            all += effects
            if let next = s.session.quiz, next.phase == .answered {
                (s, effects) = Dialogue.reduce(
                    s,
                    .buttonTapped(
                        callbackID: "n\(i)", action: .next(quiz: next.id, question: next.index), messageID: 9),
                    ctx(t.addingTimeInterval(Double(i) * 10 + 5)))
                all += effects
            }
            i += 1
        }
        return all
    }

    static func makeChallenge(right: Int = 7) -> (Challenge, [Effect]) {
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        s.session.screen = .home
        (s, _) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c", action: .menu(.challenge), messageID: 1), ctx(token: token))
        let effects = play(&s, right: right)
        let made = effects.compactMap { if case .createChallenge(let c) = $0 { return c } else { return nil } }
        return (made.first!, effects)
    }

    /// Every question the two differed on is listed, for both of them (it was the first three).
    @Test func everyDifferenceIsListedForBoth() throws {
        let (c, _) = Self.makeChallenge(right: 0)
        var jo = Dialogue.newChat(
            chatID: 88, sender: Sender(userID: 88, firstName: "Jo"), isGroup: false, now: Sample.t0)
        (jo, _) = Dialogue.reduce(
            jo, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: false)))
        let effects = Self.play(&jo, right: 10)
        let result = try #require(
            effects.lazy.compactMap { e -> ChallengeResultView? in
                if case .send(let r) = e, case .challengeResult(let v) = r.message { return v } else { return nil }
            }.first)
        let played = try #require(
            effects.lazy.compactMap { e -> ChallengePlayedView? in
                if case .notify(_, let r, _) = e, case .challengePlayed(let v) = r.message {
                    return v
                } else {
                    return nil
                }
            }.first)
        #expect(result.differed.count == 10 && result.differedCount == 10 && result.differed.allSatisfy(\.youRight))
        #expect(
            played.differed.count == 10 && played.differedCount == 10 && played.differed.allSatisfy { !$0.youRight })
    }

    @Test func theMakerPlaysTenUniversalQuestionsAndGetsAShareLink() throws {
        let (c, effects) = Self.makeChallenge(right: 7)
        #expect(c.token == Self.token && c.creatorChatID == 77 && c.creatorName == "Sam")
        #expect(c.questionIDs.count == 10 && Set(c.questionIDs).count == 10)
        #expect(c.questionIDs.allSatisfy { Self.banks.question($0)?.stateCode == nil }, "universal only")
        #expect(!c.questionIDs.contains("u-typed"), "no typed questions")
        #expect(c.creatorScore == 7 && c.expiresAt == c.createdAt.addingTimeInterval(7 * 86_400))
        guard
            case .send(let reply)? = effects.last(where: {
                if case .send(let r) = $0, case .challengeReady = r.message { return true }
                return false
            }),
            case .challengeReady(let view) = reply.message
        else {
            Issue.record("no link")
            return
        }
        #expect(view.link == "https://t.me/PermitReadyBot?start=c\(Self.token)")
        let share = try #require(reply.buttons.first?.first?.url)
        #expect(
            share.hasPrefix(
                "https://t.me/share/url?url=https%3A%2F%2Ft.me%2FPermitReadyBot%3Fstart%3Dc\(Self.token)&text="))
    }

    @Test func aFriendPlaysTheSameTenInOrderAndBothHearTheResult() throws {
        let (c, _) = Self.makeChallenge(right: 7)
        var jo = Dialogue.newChat(
            chatID: 88, sender: Sender(userID: 88, firstName: "Jo Ann"), isGroup: false, now: Sample.t0)
        var effects: [Effect]
        (jo, effects) = Dialogue.reduce(
            jo, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: false)))
        #expect(effects.first == .send(Reply(.welcome(firstName: "Jo Ann"))), "someone new meets the bot first")
        guard case .send(let intro) = effects.dropFirst().first, case .challengeIntro(let v) = intro.message else {
            Issue.record("no intro: \(effects)")
            return
        }
        #expect(v.opponent == "Sam" && v.questions == 10)
        #expect(jo.session.quiz?.questionIDs == c.questionIDs, "same questions, same order")
        // Opening the link again mid-play resumes where they were: one go per friend.
        let firstQuestion = try #require(jo.session.quiz)
        let q0 = Self.banks.question(firstQuestion.currentQuestionID)!
        (jo, _) = Dialogue.reduce(
            jo,
            .buttonTapped(
                callbackID: "a", action: .answer(quiz: firstQuestion.id, question: 0, option: q0.correctAnswerIndex),
                messageID: 9), Self.ctx())
        (jo, _) = Dialogue.reduce(
            jo, .buttonTapped(callbackID: "n", action: .next(quiz: firstQuestion.id, question: 0), messageID: 9),
            Self.ctx())
        (jo, effects) = Dialogue.reduce(
            jo, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: false)))
        #expect(
            jo.session.quiz?.id == firstQuestion.id && jo.session.quiz?.index == 1
                && jo.session.quiz?.answers.count == 1)
        effects = Self.play(&jo, right: 10)
        #expect(effects.contains(.recordChallengePlay(token: Self.token, correct: Array(repeating: true, count: 10))))
        #expect(effects.contains(.befriend(77)))
        let news = effects.compactMap {
            if case .notify(let chat, let r, _) = $0 { return (chat, r) } else { return nil }
        }
        #expect(news.count == 1 && news.first?.0 == 77 && news.first?.1.bulk == true)
        guard case .challengePlayed(let played)? = news.first?.1.message else {
            Issue.record("no news: \(news)")
            return
        }
        #expect(
            played.friend == "Jo" && played.friendScore == 10 && played.yourScore == 7 && played.total == 10,
            "first name only")
        guard
            case .send(let result)? = effects.last(where: {
                if case .send(let r) = $0, case .challengeResult = r.message { return true }
                return false
            }),
            case .challengeResult(let r) = result.message
        else {
            Issue.record("no result")
            return
        }
        // The challenger sees the same questions, from their side: Jo got them, Sam didn't.
        #expect(played.differed.map(\.question) == r.differed.map(\.question) && played.differedCount == 3)
        #expect(played.differed.allSatisfy { !$0.youRight })
        // A sign question names its sign: the recap has no picture.
        for d in r.differed {
            let q = try #require(
                c.questionIDs.lazy.compactMap(Self.banks.question).first {
                    $0.questionText.hasPrefix(d.question.replacingOccurrences(of: "…", with: ""))
                })
            #expect((d.sign != nil) == (q.imageAssetName != nil), "\(q.id)")
        }
        #expect(r.opponent == "Sam" && r.theirScore == 7 && r.yourScore == 10 && r.differed.count == 3 && r.newcomer)
        #expect(effects.isEmpty == false)
        #expect(r.differed.allSatisfy { $0.youRight })
        #expect(
            result.buttons == [
                [Button(.pickMyState, .menu(.changeState))],
                [Button(.challengeBack(name: "Sam"), .menu(.challengeBack))],
            ],
            "a newcomer is led to pick a state next, or to send one back")
        #expect(jo.learner.xp > 0, "a challenge earns XP like any quiz")
    }

    @Test func badLinksGetAFriendlyLineNeverAnError() throws {
        let (c, _) = Self.makeChallenge()
        func open(_ payload: String, _ lookup: ChallengeLookup?, chat: Int64 = 88, at t: Date = Sample.t0) -> [Effect] {
            let s = Dialogue.newChat(
                chatID: chat, sender: Sender(userID: chat, firstName: "Jo"), isGroup: false, now: Sample.t0)
            return Dialogue.reduce(s, .commandSent(.start, payload: payload), Self.ctx(t, lookup: lookup)).1
        }
        func says(_ effects: [Effect], _ n: Notice) -> Bool { effects.contains(.send(Reply(.notice(n)))) }
        #expect(says(open("c" + Self.token.dropLast(3), nil), .challengeLinkBroken), "cut short when copied")
        #expect(says(open("c" + Self.token, .notFound), .challengeLinkBroken), "forged or deleted")
        #expect(
            says(open("c" + Self.token, .found(c, alreadyPlayed: true)), .challengeAlreadyPlayed), "once per friend")
        #expect(
            says(open("c" + Self.token, .found(c, alreadyPlayed: false), at: c.expiresAt), .challengeExpired),
            "a week is the limit")
        // An old link opened from Settings: the line, then Home (a /start starts there), not Settings again.
        var settled = Dialogue.newChat(
            chatID: 88, sender: Sender(userID: 88, firstName: "Jo"), isGroup: false, now: Sample.t0)
        settled.learner.stateCode = "NY"
        settled.session.screen = .settings
        let fromSettings = Dialogue.reduce(
            settled, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: true))
        ).1
        #expect(says(fromSettings, .challengeAlreadyPlayed))
        #expect(fromSettings.contains { if case .send(let r) = $0, case .home = r.message { true } else { false } })
        #expect(
            !fromSettings.contains { if case .send(let r) = $0, case .settings = r.message { true } else { false } })
        // The maker opening their own link gets it back to share, not a game against themselves.
        let own = open("c" + Self.token, .found(c, alreadyPlayed: false), chat: 77)
        #expect(
            own.contains {
                if case .send(let r) = $0, case .challengeReady(let v) = r.message { return v.own }
                return false
            })
        // A state code is still a state, not a challenge.
        let tx = Dialogue.reduce(Sample.newChat(), .commandSent(.start, payload: "CA"), Self.ctx()).0
        #expect(tx.learner.stateCode == "CA")
        // No token from the edge: no link is ever made from the seed.
        var s = Sample.newChat()
        s.learner.stateCode = "NY"
        let (_, none) = Dialogue.reduce(
            s, .buttonTapped(callbackID: "c", action: .menu(.challenge), messageID: 1), Self.ctx(token: nil))
        #expect(
            says(none, .ourFault)
                && !none.contains {
                    if case .createChallenge = $0 { return true }
                    return false
                })
    }

    @Test func tokensAre128RandomBitsInBase64URL() {
        var system = SystemRandomNumberGenerator()
        let a = Challenge.newToken(using: &system)
        let b = Challenge.newToken(using: &system)
        #expect(a.count == 22 && a != b)
        #expect(Challenge.token(fromPayload: "c" + a) == a)
        #expect(
            Challenge.token(fromPayload: "c" + a + "x") == nil
                && Challenge.token(fromPayload: "c" + a.dropLast() + "!") == nil)
        #expect(Challenge.token(fromPayload: "TX") == nil && Challenge.token(fromPayload: nil) == nil)
        // Every bit of both words shows: flipping one word changes the token.
        var zeros = Fixed(values: [0, 0])
        var ones = Fixed(values: [0, 1 << 63])
        #expect(Challenge.newToken(using: &zeros) != Challenge.newToken(using: &ones))
    }

    struct Fixed: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    /// "Challenge Sam back" after playing Sam's challenge: the new challenge goes to Sam too (news
    /// with a button to play it), and the maker is told it was sent. Who to is kept in the
    /// session, never in the button: a forged tap with nothing kept is an ordinary challenge.
    @Test func challengingBackSendsTheNewChallengeToThatFriend() throws {
        let (c, _) = Self.makeChallenge(right: 7)
        var jo = Dialogue.newChat(
            chatID: 88, sender: Sender(userID: 88, firstName: "Jo"), isGroup: false, now: Sample.t0)
        jo.learner.stateCode = "NY"
        (jo, _) = Dialogue.reduce(
            jo, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: false)))
        _ = Self.play(&jo, right: 5)
        #expect(jo.session.rematch == Rematch(chatID: 77, name: "Sam"))
        let back = "Back_Back_Back_Back_Bk"
        let sam = FriendSummary(chatID: 77, firstName: "Sam", weekXP: 0, xpWeek: nil, streak: Streak(), hidden: false)
        // Sam removed Jo since: an ordinary challenge, Sam hears nothing.
        var removed = jo
        var ctx = Self.ctx(token: back)
        ctx.friends = []
        (removed, _) = Dialogue.reduce(
            removed, .buttonTapped(callbackID: "b", action: .menu(.challengeBack), messageID: 9), ctx)
        #expect(removed.session.rematch == nil)
        #expect(!Self.play(&removed, right: 3).contains { if case .notify = $0 { true } else { false } })
        ctx.friends = [sam]
        (jo, _) = Dialogue.reduce(jo, .buttonTapped(callbackID: "b", action: .menu(.challengeBack), messageID: 9), ctx)
        #expect(jo.session.quiz?.mode == .challenge(back))
        let effects = Self.play(&jo, right: 6)
        let news = effects.compactMap {
            if case .notify(let chat, let r, _) = $0 { return (chat, r) } else { return nil }
        }
        #expect(news.count == 1 && news.first?.0 == 77 && news.first?.1.bulk == true)
        #expect(news.first?.1.message == .challengedBack(friend: "Jo", questions: 10, back: true))
        #expect(
            news.first?.1.buttons.first?.first?.url == "https://t.me/PermitReadyBot?start=c\(back)",
            "the button opens Jo's challenge")
        guard
            case .send(let ready)? = effects.last(where: {
                if case .send(let r) = $0, case .challengeReady = r.message { true } else { false }
            }),
            case .challengeReady(let view) = ready.message
        else {
            Issue.record("no link")
            return
        }
        #expect(view.sentTo == "Sam" && view.token == back)
        #expect(jo.session.rematch == nil, "sent once")
        // Another challenge afterwards is an ordinary one, as is a forged "back" tap.
        for action in [ButtonAction.menu(.challenge), .menu(.challengeBack)] {
            var again = jo
            (again, _) = Dialogue.reduce(
                again, .buttonTapped(callbackID: "c", action: action, messageID: 9),
                Self.ctx(token: "Other_Other_Other_Othr"))
            #expect(!Self.play(&again, right: 3).contains { if case .notify = $0 { true } else { false } }, "\(action)")
        }
    }

    /// A friend who came by a link has no state yet: what they type mid-challenge is an answer or
    /// a stray word, never a state ("hi" was read as Hawaii, "D" as "couldn't find that state").
    @Test func aFriendWithNoStateTypesAnswersNotStates() throws {
        let (c, _) = Self.makeChallenge(right: 7)
        var jo = Dialogue.newChat(
            chatID: 88, sender: Sender(userID: 88, firstName: "Jo"), isGroup: false, now: Sample.t0)
        (jo, _) = Dialogue.reduce(
            jo, .commandSent(.start, payload: "c" + Self.token), Self.ctx(lookup: .found(c, alreadyPlayed: false)))
        let run = try #require(jo.session.quiz)
        var effects: [Effect]
        (jo, effects) = Dialogue.reduce(jo, .textSent("hi"), Self.ctx())
        #expect(jo.learner.stateCode == nil && jo.session.screen == .quiz && jo.session.quiz?.answers.isEmpty == true)
        #expect(
            !effects.contains { if case .send(let r) = $0, case .confirmState = r.message { true } else { false } },
            "not Hawaii")
        #expect(effects.contains(.send(Reply(.notice(.answerAbove)))), "pointed to the question")
        (jo, _) = Dialogue.reduce(jo, .textSent("B"), Self.ctx())
        #expect(jo.session.quiz?.id == run.id && jo.session.quiz?.answers.count == 1, "a letter answers")
        #expect(jo.learner.stateCode == nil)
    }

    @Test func aDifferedQuestionIsCutAtAWord() {
        let long =
            "You're driving on a two-lane road at night and an oncoming driver keeps the high beams on. What does it mean for you?"
        let cut = Reduction.clipped(long, to: 90)
        #expect(
            cut.count <= 90 && cut.hasSuffix("…")
                && cut == "You're driving on a two-lane road at night and an oncoming driver keeps the high beams…",
            "\(cut)")
        #expect(Reduction.clipped("Short enough?", to: 90) == "Short enough?")
    }
}

/// Issue #25, friends and the weekly league: the Friends screen ranks this week's XP, a friend can
/// be removed (by position, never by id), hidden friends stay out, Progress says the place.
