import Foundation

/// Flashcards on FSRS: due cards, reveal, rate, and what comes next.
extension Reduction {
    // MARK: - flashcards

    static let scheduler = FSRSScheduler()
    static let cardsPerSession = 20
    static let newCardsPerSession = 5

    mutating func reviewCard(_ questionID: String, _ rating: Rating) {
        let card = state.cards[questionID] ?? FSRSCard.new(due: ctx.now)
        state.cards[questionID] = Reduction.scheduler.review(card, rating: rating, at: ctx.now, random: &random)
    }

    mutating func startFlashcards() {
        guard let info = stateInfo else { return showStatePicker() }
        let pool = banks.pool(for: info.code)
        var ids = Array(state.dueCards(at: ctx.now, in: banks.poolIDs(for: info.code)).prefix(Reduction.cardsPerSession))
        if ids.isEmpty {
            // Nothing due: a few new cards from questions never seen, easy ones first.
            let unseen = pool.filter { state.cards[$0.id] == nil && state.progress[$0.id] == nil && $0.kind != .fillIn }
            let easyFirst = unseen.filter { $0.difficulty == .easy } + unseen.filter { $0.difficulty != .easy }
            ids = easyFirst.prefix(Reduction.newCardsPerSession).map(\.id)
        }
        guard !ids.isEmpty else { return finishFlashcards(reviewed: 0) }
        let seq = state.session.nextQuizID
        state.session.nextQuizID += 1
        state.session.cards = FlashcardRun(seq: seq, questionIDs: ids)
        state.session.screen = .cards
        showCardFront()
    }

    func cardView(_ q: Question, _ run: FlashcardRun, back: Bool) -> FlashcardView {
        FlashcardView(number: run.index + 1, total: run.questionIDs.count, topic: q.category, question: q.questionText,
                      answer: back ? q.answers[q.correctAnswerIndex] : nil, explanation: back ? q.explanation : nil)
    }

    mutating func showCardFront() {
        guard var run = state.session.cards else { return showHome() }
        while run.index < run.questionIDs.count, banks.question(run.questionIDs[run.index]) == nil { run.questionIDs.remove(at: run.index) }
        guard run.index < run.questionIDs.count, let q = banks.question(run.questionIDs[run.index]) else {
            state.session.cards = nil
            return finishFlashcards(reviewed: run.reviewed)
        }
        run.showingAnswer = false
        state.session.cards = run
        send(Reply(.flashcard(cardView(q, run, back: false)), buttons: [[Button(.showAnswer, .showCard(seq: run.seq, index: run.index))]],
                   picture: q.imageAssetName, tag: run.tag))
    }

    mutating func revealCard(target: MessageTarget) {
        guard var run = state.session.cards, let q = banks.question(run.questionIDs[run.index]) else { return showHome() }
        run.showingAnswer = true
        state.session.cards = run
        let ratings: [Rating] = learner.fourButtonCards ? [.again, .hard, .good, .easy] : [.again, .good]
        let buttons = ratings.map { Button(.rate($0, simple: !learner.fourButtonCards), .rateCard(seq: run.seq, index: run.index, rating: $0)) }
        effects.append(.edit(target, Reply(.flashcard(cardView(q, run, back: true)), buttons: [buttons])))
    }

    mutating func rateCard(_ rating: Rating) {
        guard var run = state.session.cards else { return showHome() }
        reviewCard(run.questionIDs[run.index], rating)
        state.learner.cardsReviewed += 1
        earnXP(XP.cardReview)
        if learner.cardsReviewed >= 100 { award(.cards100) }
        if !learner.streak.studied(on: today) { state.learner.streak.record(today) }
        run.reviewed += 1
        run.index += 1
        state.session.cards = run
        showCardFront()
    }

    /// Ends a card session with what comes next ("3 cards tomorrow, 12 this week").
    mutating func finishFlashcards(reviewed: Int) {
        state.session.cards = nil
        let tz = Dialogue.timeZone(of: learner, banks: banks)
        let endOfTomorrow = Nudges.instant(today.adding(days: 2), minute: 0, in: tz)
        let endOfWeek = Nudges.instant(today.adding(days: 8), minute: 0, in: tz)
        let pool = banks.poolIDs(for: learner.stateCode)
        let upcoming = state.cards.filter { pool.contains($0.key) && $0.value.due > ctx.now }.map(\.value.due)
        send(.flashcardsDone(FlashcardSummary(reviewed: reviewed, dueTomorrow: upcoming.filter { $0 < endOfTomorrow }.count,
                                               dueThisWeek: upcoming.filter { $0 < endOfWeek }.count)),
             buttons: [[Button(.quickQuiz, .menu(.quickQuiz)), Button(.home, .menu(.home))]])
        state.session.screen = .home
    }

    mutating func staleCard(_ callbackID: String, seq: Int) {
        if state.session.cards?.seq == seq { effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered)); return }
        stale(callbackID)
    }
}
