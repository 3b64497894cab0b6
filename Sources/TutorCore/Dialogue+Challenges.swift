import Foundation

/// Challenge a friend: the learner plays ten universal questions, gets a link to forward; a friend
/// who opens it plays the same ten in the same order, once, and both see the result side by side.
/// Everything another chat needs (the challenge, who played it, friendships) is written by the
/// edge from the effects below; what the edge found for a link comes in `DialogueContext.challenge`.
extension Reduction {
    /// "⚔️ Challenge a friend": ten questions to play first, then the link. `back`: "Challenge
    /// Maya back", which also sends the link to Maya (the session says who, if it still can).
    mutating func startChallenge(back: Bool = false) {
        guard let token = ctx.freshToken else { return notice(.ourFault) }
        // Sent back only to someone still a friend (they may have removed this learner since).
        let stillFriends =
            state.session.rematch.map { r in currentFriends?.contains { $0.chatID == r.chatID } == true } ?? false
        if back, stillFriends { state.session.rematch?.token = token } else { state.session.rematch = nil }
        var draw = random
        let questions = Challenge.pickQuestions(
            banks: banks, excluding: learner.stateCode.flatMap { banks.excludesUniversal[$0] } ?? [],
            random: &draw)
        random = draw
        guard questions.count == Challenge.length else {
            send(.testUnavailable)
            return showHome()
        }
        state.session.challenge = nil
        closeAbandonedDaily()  // "ended at 2 of 5" before the challenge's intro, not after it
        send(.challengeIntro(ChallengeIntroView(opponent: nil, questions: questions.count)))
        beginRun(.challenge(token), questionIDs: questions.map(\.id))
    }

    /// A `/start c<token>` link: play the friend's challenge, or say plainly why not.
    mutating func openChallenge(payload: String?) {
        let firstTime = state.session.screen == .new
        if learner.stopped { state.learner.stopped = false }
        guard Challenge.token(fromPayload: payload) != nil, case .found(let challenge, let played)? = ctx.challenge
        else {
            if firstTime { send(.welcome(firstName: learner.firstName)) }
            return linkNotice(.challengeLinkBroken)
        }
        if challenge.creatorChatID == learner.chatID {
            send(
                .challengeReady(
                    ChallengeReadyView(
                        token: challenge.token, score: challenge.creatorScore, total: challenge.questionIDs.count,
                        botUsername: ctx.botUsername, own: true)),
                buttons: [
                    [
                        Button.link(
                            .shareChallenge,
                            ChallengeReadyView.shareURL(botUsername: ctx.botUsername, token: challenge.token))
                    ],
                    [Button(.home, .menu(.home))],
                ])
            return
        }
        if played {
            if firstTime { send(.welcome(firstName: learner.firstName)) }
            return linkNotice(.challengeAlreadyPlayed)
        }
        if ctx.now >= challenge.expiresAt {
            if firstTime { send(.welcome(firstName: learner.firstName)) }
            return linkNotice(.challengeExpired)
        }
        // The link again mid-play: where they were, not a fresh start (one go per friend).
        if let open = state.session.quiz, open.mode == .challenge(challenge.token) { return resume() }
        // Questions since retired from the banks are skipped on both sides.
        let ids = challenge.questionIDs.filter { banks.question($0) != nil }
        guard !ids.isEmpty else { return linkNotice(.challengeLinkBroken) }
        state.session.challenge = challenge
        // (Friends are read for commands: a friend already is told so, not "friends now".)
        state.session.challengeFromFriend = currentFriends?.contains { $0.chatID == challenge.creatorChatID } ?? false
        // Someone new to the bot meets it first (who it is, the disclaimer), then the challenge.
        if firstTime { send(.welcome(firstName: learner.firstName)) }
        closeAbandonedDaily()
        send(.challengeIntro(ChallengeIntroView(opponent: challenge.creatorName, questions: ids.count)))
        beginRun(.challenge(challenge.token), questionIDs: ids)
    }

    /// `text` cut to at most `limit` characters at a word boundary, with "…" (a question cut
    /// mid-word, "What does it m…", read as a typo).
    static func clipped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        var head = text.prefix(limit - 1)
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) > limit / 2 {
            head = head[..<space]
        }
        while let last = head.last, " ,;:-—".contains(last) { head.removeLast() }
        return head + "…"
    }

    /// A link that can't be played: the line, then Home (a /start starts there, not on the screen
    /// the learner happened to be on), or the state picker for someone new.
    mutating func linkNotice(_ n: Notice) {
        send(.notice(n))
        learner.stateCode == nil ? showCurrentScreen() : showHome()
    }

    /// Starts a run of fixed questions (a challenge, the Daily 5), putting an open practice test aside.
    mutating func beginRun(_ mode: QuizMode, questionIDs: [String]) {
        // An open practice test is put aside (its clock running), as any other quiz does.
        if let open = state.session.quiz, open.mode.isPracticeTest, !open.answers.isEmpty, let code = learner.stateCode
        {
            if open.deadline != nil { effects.append(.cancelTimer(key: open.deadlineKey)) }
            park(open, state: code)
        }
        // So is a quiz left part-way, when nothing else waits: a play-tester's quick quiz at 3 of
        // 10 vanished without a word when the next day's Daily 5 began. It comes back (Continue)
        // when this run ends, like a test.
        if let open = state.session.quiz, open.mode.canWaitBehindARun, !open.answers.isEmpty,
            state.session.parkedQuiz == nil,
            let code = learner.stateCode
        {
            park(open, state: code)
        }
        state.session.cards = nil
        closeAbandonedDaily()
        let id = state.session.nextQuizID
        state.session.nextQuizID += 1
        var run = QuizRun(id: id, mode: mode, questionIDs: questionIDs, startedAt: ctx.now)
        run.xpAtStart = learner.xp
        state.session.quiz = run
        state.session.screen = .quiz
        askCurrentQuestion(reshuffle: true)
    }

    /// The end of a challenge run: the maker gets their link; a friend gets both scores side by
    /// side, becomes the maker's friend, and the maker hears about it once.
    mutating func finishChallenge(_ quiz: QuizRun, token: String) {
        state.session.quiz = nil
        state.session.screen = .results
        let mine = quiz.questionIDs.map { id in quiz.answers.first { $0.questionID == id }?.correct ?? false }
        let score = mine.filter { $0 }.count
        let reward = reward(since: quiz.xpAtStart)
        guard let opponent = state.session.challenge, opponent.token == token else {
            let challenge = Challenge(
                token: token, creatorChatID: learner.chatID, creatorName: Self.firstNameOnly(learner.firstName),
                questionIDs: quiz.questionIDs, creatorCorrect: mine, createdAt: ctx.now,
                expiresAt: ctx.now.addingTimeInterval(Challenge.lifetime))
            effects.append(.createChallenge(challenge))
            // Made to challenge a friend back: they hear of it with the link to play (as news:
            // dropped if they stopped the bot, held in their quiet hours).
            var sentTo: String?
            if let back = state.session.rematch, back.token == token {
                state.session.rematch = nil
                sentTo = back.name
                let link = ChallengeReadyView.link(botUsername: ctx.botUsername, token: token)
                let message = Message.challengedBack(
                    friend: challenge.creatorName, questions: mine.count, back: back.direct != true)
                sendNews(
                    to: back.chatID,
                    Reply(
                        message, buttons: [[Button.link(.playChallenge(name: challenge.creatorName), link)]],
                        bulk: true))
            }
            send(
                .challengeReady(
                    ChallengeReadyView(
                        token: token, score: score, total: mine.count, botUsername: ctx.botUsername,
                        own: false, reward: reward, sentTo: sentTo)),
                buttons: [
                    [
                        Button.link(
                            .shareChallenge, ChallengeReadyView.shareURL(botUsername: ctx.botUsername, token: token))
                    ],
                    [Button(.home, .menu(.home))],
                ])
            return restoreParkedTest()
        }
        state.session.challenge = nil
        let theirs = opponent.questionIDs.enumerated().reduce(into: [String: Bool]()) {
            $0[$1.element] = opponent.creatorCorrect.indices.contains($1.offset) && opponent.creatorCorrect[$1.offset]
        }
        let asked = quiz.questionIDs
        let theirScore = asked.filter { theirs[$0] == true }.count
        // Each cut short (the side-by-side is a score, not a second quiz), but all of them: with
        // only the first three shown, a teen who lost on four asked where the fourth went.
        let allDiffered: [ChallengeResultView.Difference] = asked.enumerated().compactMap { i, id in
            guard let q = banks.question(id), let them = theirs[id], them != mine[i] else { return nil }
            // Long enough for the question's point (at 90 a recap lost "…at a crosswalk").
            let text = Self.clipped(q.questionText, to: 150)
            let sign = q.imageAssetName.flatMap { name in banks.signs.first { $0.id == name }?.name }
            return .init(question: text, youRight: mine[i], correctAnswer: q.answers[q.correctAnswerIndex], sign: sign)
        }
        let differed = Array(allDiffered.prefix(ChallengeResultView.differencesShown))
        // The challenger's news shows the same questions from their side.
        let theirSide = differed.map { d in
            ChallengeResultView.Difference(
                question: d.question, youRight: !d.youRight,
                correctAnswer: d.correctAnswer, sign: d.sign)
        }
        effects.append(.recordChallengePlay(token: token, correct: mine))
        effects.append(.befriend(opponent.creatorChatID))
        let me = Self.firstNameOnly(learner.firstName)
        sendNews(
            to: opponent.creatorChatID,
            Reply(
                .challengePlayed(
                    ChallengePlayedView(
                        friend: me, friendScore: score, yourScore: theirScore, total: asked.count,
                        differed: theirSide, differedCount: allDiffered.count)),
                buttons: [[Button(.challengeFriend, .menu(.challenge)), Button(.home, .menu(.home))]], bulk: true))
        let next: [[Button]] =
            learner.stateCode == nil
            ? [
                [Button(.pickMyState, .menu(.changeState))],
                [Button(.challengeBack(name: opponent.creatorName), .menu(.challengeBack))],
            ]
            : [
                [Button(.challengeBack(name: opponent.creatorName), .menu(.challengeBack))],
                [Button(.home, .menu(.home))],
            ]
        state.session.rematch = Rematch(chatID: opponent.creatorChatID, name: opponent.creatorName)
        let wereFriends = state.session.challengeFromFriend == true
        state.session.challengeFromFriend = nil
        send(
            .challengeResult(
                ChallengeResultView(
                    opponent: opponent.creatorName, theirScore: theirScore, yourScore: score,
                    total: asked.count, differed: differed, reward: reward,
                    newcomer: learner.stateCode == nil, differedCount: allDiffered.count,
                    alreadyFriends: wereFriends)),
            buttons: next)
        restoreParkedTest()
    }

    /// A practice test put aside for the challenge comes back behind Continue.
    /// Puts a quiz aside until the run that takes its place ends (or its state is picked again).
    mutating func park(_ quiz: QuizRun, state code: String) {
        var waiting = quiz
        waiting.xpWhenParked = learner.xp
        state.session.parkedQuiz = waiting
        state.session.parkedState = code
    }

    /// A parked quiz as it resumes: the XP earned while it waited (the Daily 5 in between) is not
    /// its own, so its "+110 XP" at the end doesn't count it again.
    func unparked(_ parked: QuizRun) -> QuizRun {
        var quiz = parked
        if let start = quiz.xpAtStart, let then = quiz.xpWhenParked {
            quiz.xpAtStart = start + max(0, learner.xp - then)
        }
        quiz.xpWhenParked = nil
        return quiz
    }

    mutating func restoreParkedTest() {
        guard state.session.parkedState == learner.stateCode, let parked = state.session.parkedQuiz else { return }
        state.session.quiz = unparked(parked)
        state.session.parkedQuiz = nil
        state.session.parkedState = nil
        if let deadline = parked.deadline, deadline > ctx.now {
            effects.append(.setTimer(key: parked.deadlineKey, at: deadline))
        }
    }

    /// What a friend sees of a learner: the first word of their first name, at most 32 characters.
    static func firstNameOnly(_ name: String) -> String {
        let first = name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init) ?? ""
        return first.isEmpty ? "A friend" : String(first.prefix(32))
    }
}

extension Reduction {
    /// Minutes of activity that count as "using the bot right now": news is not held for them.
    static let newsActiveWindow: TimeInterval = 1800

    /// News for another learner: dropped if they stopped the bot, blocked it or deleted their data
    /// (or can't be read: the look-up logs why); in their quiet hours (9 pm - 8 am their time) held
    /// until 8 am, unless they are using the bot right now.
    mutating func sendNews(to chatID: Int64, _ reply: Reply) {
        guard let lookup = ctx.newsRecipientLookup else {
            return effects.append(.notify(chatID: chatID, reply, heldUntil: nil))
        }
        guard let recipient = lookup(chatID) else { return }
        var held: Date?
        if ctx.now.timeIntervalSince(recipient.lastActive) > Self.newsActiveWindow {
            let zone = recipient.timeZone ?? recipient.stateCode.flatMap { banks.state($0)?.primaryTimeZone }
            held = Nudges.quietHoursEnd(after: ctx.now, in: zone.flatMap(TimeZone.init(identifier:)) ?? League.timeZone)
        }
        effects.append(.notify(chatID: chatID, reply, heldUntil: held))
    }
}
