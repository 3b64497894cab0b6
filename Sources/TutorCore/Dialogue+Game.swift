import Foundation

/// XP, levels and badges: celebration, never pressure.
extension Reduction {
    // MARK: - the game layer

    mutating func earnXP(_ points: Int) {
        let before = XP.level(learner.xp)
        state.learner.xp += points
        addWeekXP(points)
        let after = XP.level(learner.xp)
        // Announced after the rest of this event's replies (the answer it was earned with first).
        if after > before { levelReached = after }
    }

    /// What a session earned, for its last screen.
    func reward(since xpAtStart: Int?) -> SessionReward {
        SessionReward(
            xpEarned: max(0, learner.xp - (xpAtStart ?? learner.xp)),
            answeredToday: learner.answeredDay == today ? learner.answeredToday : 0,
            streak: learner.streak.current(on: today))
    }

    /// Announces a badge the first time it is earned.
    mutating func award(_ badge: Badge) {
        guard !learner.badges.contains(badge) else { return }
        state.learner.badges.insert(badge)
        send(.badgeEarned(badge))
    }
}
