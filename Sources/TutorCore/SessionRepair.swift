import Foundation

/// A stored session is read back from a row the core did not write this run: an older build, a
/// hand edit, a bug. Before the reducer touches it, its positions are brought inside the lists
/// they point into, so no stored number can index past an end (a trap would take the whole bot
/// down, not just this chat). A run that cannot be made whole is dropped; the learner lands on
/// Home with the rest of their progress intact.
extension Session {
    public func repaired() -> Session {
        var s = self
        // Ids count up from 1 and are never reused; one past any sane count cannot be counted on.
        let sane = 0...Session.largestRunID
        s.quiz = quiz.flatMap { sane.contains($0.id) ? $0.repaired() : nil }
        s.parkedQuiz = parkedQuiz.flatMap { sane.contains($0.id) ? $0.repaired() : nil }
        if let run = cards {
            s.cards = run.questionIDs.isEmpty || !sane.contains(run.seq) ? nil : run.repaired()
        }
        if let lesson, !sane.contains(lesson.seq) { s.lesson = nil }
        if let lesson = s.lesson, lesson.card < 0 { s.lesson?.card = 0 }
        let highest = [s.quiz?.id, s.parkedQuiz?.id, s.cards?.seq, s.lesson?.seq].compactMap { $0 }.max() ?? 0
        s.nextQuizID = min(max(nextQuizID, highest + 1, 1), Session.largestRunID)
        // Counts stay counts: a stored count far out of range would overflow the sums made of it.
        s.newCardsToday = newCardsToday.map(Session.count)
        if var played = s.dailyPlayed {
            played.total = Session.count(played.total)
            played.score = min(Session.count(played.score), played.total)
            played.answered = played.answered.map(Session.count)
            s.dailyPlayed = played
        }
        if var lesson = s.lesson {
            lesson.rightWhenTestingOut = lesson.rightWhenTestingOut.map(Session.count)
            s.lesson = lesson
        }
        if var run = s.cards {
            run.xpAtStart = run.xpAtStart.map(Session.count)
            s.cards = run
        }
        if s.screen == .quiz, s.quiz == nil { s.screen = .home }
        if s.screen == .cards, s.cards == nil { s.screen = .home }
        return s
    }
}

extension Session {
    /// Far more runs than a learner can start (a million a day for three thousand years).
    static let largestRunID = 1 << 40
    /// A stored count brought inside 0 ... 2^40 (XP, cards, scores: far below it).
    static func count(_ n: Int) -> Int { min(max(n, 0), 1 << 40) }
    /// A stored instant brought inside 2001 ... 2201 (durations made of it fit in an Int).
    static func plausible(_ d: Date) -> Date {
        Date(timeIntervalSinceReferenceDate: min(max(d.timeIntervalSinceReferenceDate, 0), 200 * 365 * 86_400))
    }
}

extension QuizRun {
    /// Nil when the run has no questions, or its per-question lists disagree beyond repair.
    func repaired() -> QuizRun? {
        guard !questionIDs.isEmpty else { return nil }
        var q = self
        q.index = min(max(index, 0), questionIDs.count - 1)
        if q.answers.count > questionIDs.count { q.answers.removeLast(q.answers.count - questionIDs.count) }
        // The answer order is rebuilt from the question when it is not a permutation of its options.
        if !q.order.isEmpty, Set(q.order) != Set(0..<q.order.count) { q.order = [] }
        if let sections = q.sectionOfQuestion,
            sections.count != questionIDs.count || sections.contains(where: { $0 < 0 })
        {
            q.sectionOfQuestion = nil
        }
        q.lives = lives.map { min(Session.count($0), 100) }
        q.secondsPerQuestion = secondsPerQuestion.flatMap { $0 > 0 ? min($0, 3_600) : nil }
        q.startedAt = Session.plausible(startedAt)
        q.deadline = deadline.map(Session.plausible)
        q.questionShownAt = questionShownAt.map(Session.plausible)
        q.xpAtStart = xpAtStart.map(Session.count)
        q.xpWhenParked = xpWhenParked.map(Session.count)
        q.heldLevelUp = heldLevelUp.map(Session.count)
        return q
    }
}

extension FlashcardRun {
    func repaired() -> FlashcardRun {
        var r = self
        r.index = min(max(index, 0), questionIDs.count - 1)
        r.reviewed = max(0, reviewed)
        return r
    }
}
