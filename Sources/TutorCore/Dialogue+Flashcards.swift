import Foundation

/// Flashcards on FSRS: due cards, reveal, rate, and what comes next.
extension Reduction {
    // MARK: - flashcards

    /// One learning step (10 minutes, after a miss): a card the learner knew on first sight
    /// graduates at once to FSRS's first interval (days), instead of coming back the same evening
    /// and again the next day (a play-tester's due count grew 15 → 18 → 21 in three days of daily use).
    static let scheduler = FSRSScheduler(FSRSParameters(learningSteps: [600]))
    /// A session is at most this many cards (about 3 minutes at `secondsPerCard`).
    static let cardsPerSession = 20
    /// New cards a day. Anki's default is 20 for adults studying daily; a teen's session is
    /// 2-5 minutes, and each new card brings 3-4 more reviews over the next week, so 10 keeps the
    /// daily pile near 2 minutes instead of growing by every quiz answer.
    static let newCardsPerDay = 10
    /// What a card takes, reveal and rating included: the estimate a learner is shown.
    static let secondsPerCard = 8

    /// New cards the learner may still start today.
    var newCardsLeftToday: Int {
        let used = state.session.newCardsDay == today ? (state.session.newCardsToday ?? 0) : 0
        return max(0, Reduction.newCardsPerDay - used)
    }

    mutating func countNewCard() {
        if state.session.newCardsDay != today {
            state.session.newCardsDay = today
            state.session.newCardsToday = 0
        }
        state.session.newCardsToday = (state.session.newCardsToday ?? 0) + 1
    }

    /// Reviews a question's card. A quiz answer makes a new card only from a miss (what the
    /// learner got right needs no drilling), and only within the daily cap of new cards.
    mutating func reviewCard(_ questionID: String, _ rating: Rating, fromQuiz: Bool = false) {
        let existing = state.cards[questionID]
        if existing == nil {
            if fromQuiz && rating != .again { return }
            guard newCardsLeftToday > 0 else { return }
            countNewCard()
        }
        let card = existing ?? FSRSCard.new(due: ctx.now)
        state.cards[questionID] = Reduction.scheduler.review(card, rating: rating, at: ctx.now, random: &random)
    }

    /// New cards on offer now: misses without a card first, then questions never seen, easy first.
    /// Home asks on every visit, so the pool is walked only as far as the day's allowance needs.
    func newCardCandidates(_ pool: [Question]) -> [String] {
        let limit = newCardsLeftToday
        guard limit > 0 else { return [] }
        let ids = banks.poolIDs(for: learner.stateCode)
        let misses = state.missedIDs.filter { state.cards[$0] == nil && ids.contains($0) }
        guard misses.count < limit else { return Array(misses.prefix(limit)) }
        let wanted = limit - misses.count
        var easy: [String] = []
        var harder: [String] = []
        for q in pool where q.kind != .fillIn && state.cards[q.id] == nil && state.progress[q.id] == nil {
            if q.difficulty == .easy {
                easy.append(q.id)
                if easy.count == wanted { break }  // easy ones come first: enough already
            } else if harder.count < wanted {
                harder.append(q.id)
            }
        }
        return misses + (easy + harder).prefix(wanted)
    }

    mutating func startFlashcards() {
        guard let info = stateInfo else { return showStatePicker() }
        let pool = banks.pool(for: info.code)
        // Due cards, misses first (they are what the learner is fighting with), then new ones.
        let due = state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code))
        let missedDue = due.filter { state.progress[$0]?.missed == true }
        var ids = Array(
            (missedDue + due.filter { state.progress[$0]?.missed != true }).prefix(Reduction.cardsPerSession))
        // New cards only when nothing is due, so "2 due" on home opens 2 cards, not 10.
        if ids.isEmpty { ids = newCardCandidates(pool) }
        guard !ids.isEmpty else { return finishFlashcards(reviewed: 0) }
        let seq = state.session.nextQuizID
        state.session.nextQuizID += 1
        var run = FlashcardRun(seq: seq, questionIDs: ids)
        run.xpAtStart = learner.xp
        state.session.cards = run
        state.session.screen = .cards
        showCardFront()
    }

    func cardView(_ q: Question, _ run: FlashcardRun, back: Bool) -> FlashcardView {
        FlashcardView(
            number: run.index + 1, total: run.questionIDs.count, topic: q.category, question: q.questionText,
            answer: back ? q.answers[q.correctAnswerIndex] : nil, explanation: back ? q.explanation : nil)
    }

    mutating func showCardFront() {
        guard var run = state.session.cards else { return showHome() }
        while run.index < run.questionIDs.count, banks.question(run.questionIDs[run.index]) == nil {
            run.questionIDs.remove(at: run.index)
        }
        guard run.index < run.questionIDs.count, let q = banks.question(run.questionIDs[run.index]) else {
            state.session.cards = run
            return finishFlashcards(reviewed: run.reviewed)
        }
        run.showingAnswer = false
        state.session.cards = run
        send(
            Reply(
                .flashcard(cardView(q, run, back: false)),
                buttons: [
                    [Button(.showAnswer, .showCard(seq: run.seq, index: run.index))],
                    [Button(.doneForNow, .menu(.doneForNow))],
                ],
                picture: q.imageAssetName, tag: run.tag))
    }

    mutating func revealCard(target: MessageTarget) {
        guard let back = cardBack() else { return showHome() }
        effects.append(.edit(target, back))
    }

    /// The card turned over, sent again below (after a word that rated nothing).
    mutating func showCardBack() {
        guard let back = cardBack() else { return showHome() }
        send(back)
    }

    /// The current card's back with its rating buttons; the run marked as showing it.
    mutating func cardBack() -> Reply? {
        guard var run = state.session.cards, run.questionIDs.indices.contains(run.index),
            let q = banks.question(run.questionIDs[run.index])
        else { return nil }
        run.showingAnswer = true
        state.session.cards = run
        let ratings: [Rating] = learner.fourButtonCards ? [.again, .hard, .good, .easy] : [.again, .good]
        let buttons = ratings.map {
            Button(.rate($0, simple: !learner.fourButtonCards), .rateCard(seq: run.seq, index: run.index, rating: $0))
        }
        return Reply(
            .flashcard(cardView(q, run, back: true)), buttons: [buttons, [Button(.doneForNow, .menu(.doneForNow))]])
    }

    mutating func rateCard(_ rating: Rating) {
        guard var run = state.session.cards else { return showHome() }
        guard run.questionIDs.indices.contains(run.index) else { return showCardFront() }
        reviewCard(run.questionIDs[run.index], rating)
        // Counts from a stored row may be anything: they stop at their limit rather than trap.
        state.learner.cardsReviewed = state.learner.cardsReviewed.plusOne
        // A card is a question answered: it counts toward the daily goal.
        if learner.answeredDay != today {
            state.learner.answeredDay = today
            state.learner.answeredToday = 0
        }
        state.learner.answeredToday = state.learner.answeredToday.plusOne
        earnXP(XP.cardReview)
        if learner.cardsReviewed >= 100 { award(.cards100) }
        if !learner.streak.studied(on: today) { state.learner.streak.record(today) }
        run.reviewed = run.reviewed.plusOne
        run.index = run.index.plusOne
        state.session.cards = run
        showCardFront()
    }

    /// Ends a card session with what comes next ("3 cards tomorrow, 12 this week").
    mutating func finishFlashcards(reviewed: Int, leftEarly: Bool = false) {
        let xpAtStart = state.session.cards?.xpAtStart
        state.session.cards = nil
        let tz = Dialogue.timeZone(of: learner, banks: banks)
        let endOfTomorrow = Nudges.instant(today.adding(days: 2), minute: 0, in: tz)
        let endOfWeek = Nudges.instant(today.adding(days: 8), minute: 0, in: tz)
        let pool = banks.poolIDs(for: learner.stateCode)
        // Cards due already count as "by tomorrow" too: a learner leaving with cards still due
        // must not read "0 cards by tomorrow".
        let dues = state.cards.filter { pool.contains($0.key) }.map(\.value.due)
        send(
            .flashcardsDone(
                FlashcardSummary(
                    reviewed: reviewed, dueTomorrow: dues.filter { $0 < endOfTomorrow }.count,
                    dueThisWeek: dues.filter { $0 < endOfWeek }.count,
                    reward: reviewed > 0 ? reward(since: xpAtStart) : nil, leftEarly: leftEarly,
                    dueNow: dues.filter { $0 <= ctx.now }.count)),
            buttons: [[Button(.quickQuiz, .menu(.quickQuiz)), Button(.home, .menu(.home))]])
        state.session.screen = .home
    }

    mutating func staleCard(_ callbackID: String, seq: Int) {
        if state.session.cards?.seq == seq {
            effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered))
            return
        }
        stale(callbackID)
    }
}

extension Int {
    /// One more, or `Int.max` at the limit: for counts read back from stored rows.
    var plusOne: Int { self == .max ? self : self + 1 }
}
